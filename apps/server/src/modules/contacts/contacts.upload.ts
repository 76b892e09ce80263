/**
 * The multipart edge of POST /contacts/upload: streams the `file` part to DATA_DIR/imports/<uuid> and collects the
 * text fields (`tags`, `wallets`, `validContact`), whatever their order in the form.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { looseBoolean } from '@conversa/shared';
import { z } from 'zod';
import { receiveSingleFile } from '../../platform/http/multipart.js';

export const IMPORT_FILE_MAX_BYTES = 10 * 1024 * 1024;

/** "1,2,3" (also "[1,2]", "" and the "undefined"/"null" some clients send) to ids. */
const commaIds = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .replace(/^\[|\]$/g, '')
      .split(',')
      .map((part) => part.trim().replace(/^"|"$/g, ''))
      .filter((part) => part !== '' && part !== 'undefined' && part !== 'null')
      .map(Number),
  )
  .pipe(z.array(z.number().int().positive()).max(500));

export const contactUploadFieldsSchema = z.object({
  tags: commaIds,
  wallets: commaIds,
  /** WhatsApp-side number checks come with channels; numbers are always checked with libphonenumber. */
  validContact: looseBoolean.optional(),
});
export type ContactUploadFields = z.output<typeof contactUploadFieldsSchema>;

export interface StoredUpload {
  id: string;
  path: string;
  filename: string;
}

export async function receiveImportUpload(
  request: FastifyRequest,
  importsDir: string,
): Promise<{ upload: StoredUpload; fields: ContactUploadFields }> {
  const { saved, fields } = await receiveSingleFile(request, {
    fileField: 'file',
    fields: contactUploadFieldsSchema,
    async save(part) {
      fs.mkdirSync(importsDir, { recursive: true });
      const id = crypto.randomUUID();
      const upload: StoredUpload = { id, path: path.join(importsDir, id), filename: part.filename };
      await pipeline(part.file, fs.createWriteStream(upload.path));
      return upload;
    },
    discard: (upload) => fs.rmSync(upload.path, { force: true }),
  });
  return { upload: saved, fields };
}
