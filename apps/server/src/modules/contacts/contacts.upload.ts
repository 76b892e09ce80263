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
import { AppError, fail } from '../../platform/http/errors.js';

export const IMPORT_FILE_MAX_BYTES = 10 * 1024 * 1024;

/** A file of the wrong type: the spec's file-rejected text, with 400 rather than the catalogue's 413. */
export class FileTypeRejectedError extends AppError {
  override readonly status: number = 400;
  constructor() {
    super('ERR_PAYLOAD_TOO_LARGE', 'file');
  }
}

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

const SIZE_ERRORS = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

export async function receiveImportUpload(
  request: FastifyRequest,
  importsDir: string,
): Promise<{ upload: StoredUpload; fields: ContactUploadFields }> {
  if (!request.isMultipart()) throw fail('ERR_VALIDATION', 'file');
  fs.mkdirSync(importsDir, { recursive: true });
  let upload: StoredUpload | undefined;
  const raw: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        raw[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'file' || upload) {
        part.file.resume();
        continue;
      }
      const id = crypto.randomUUID();
      upload = { id, path: path.join(importsDir, id), filename: part.filename };
      await pipeline(part.file, fs.createWriteStream(upload.path));
      if (part.file.truncated) throw fail('ERR_PAYLOAD_TOO_LARGE', 'file');
    }
  } catch (error) {
    if (upload) fs.rmSync(upload.path, { force: true });
    if (SIZE_ERRORS.has((error as { code?: string }).code ?? '')) throw fail('ERR_PAYLOAD_TOO_LARGE', 'file');
    throw error;
  }
  if (!upload) throw fail('ERR_VALIDATION', 'file');
  const parsed = contactUploadFieldsSchema.safeParse(raw);
  if (!parsed.success) {
    fs.rmSync(upload.path, { force: true });
    throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'file'));
  }
  return { upload, fields: parsed.data };
}
