/**
 * The body of POST/PUT /fastreply (client-contract §8): multipart `key, message, medias, voice` with at most one file
 * (`medias`), streamed into the media store under a random name keeping the original extension; or JSON without a
 * file. A type outside MEDIA_ALLOWED_MIME_PREFIXES answers 400 and a file over the size limit 413 (both
 * ERR_PAYLOAD_TOO_LARGE, the catalogue's file-rejected text); whatever fails after the file was stored removes it.
 */
import type { FastifyRequest } from 'fastify';
import { MEDIA_ALLOWED_MIME_PREFIXES, quickMessageFieldsSchema, type QuickMessageFields } from '@conversa/shared';
import { fail } from '../../platform/http/errors.js';
import { FileTypeRejectedError } from '../../platform/http/multipart.js';
import { newMediaKey, type MediaStore } from '../../platform/storage/media-store.js';
import type { QuickMessageFile } from './quick-messages.repository.js';

const SIZE_ERRORS = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

const allowedMime = (mime: string): boolean =>
  MEDIA_ALLOWED_MIME_PREFIXES.some((prefix) => mime.toLowerCase().startsWith(prefix));

export interface ReceivedQuickMessage {
  fields: QuickMessageFields;
  file: QuickMessageFile | null;
}

function parseFields(raw: unknown): QuickMessageFields {
  const parsed = quickMessageFieldsSchema.safeParse(raw ?? {});
  if (!parsed.success) throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'key'));
  return parsed.data;
}

export async function receiveQuickMessage(
  request: FastifyRequest,
  store: MediaStore,
  tenantId: number,
): Promise<ReceivedQuickMessage> {
  if (!request.isMultipart()) return { fields: parseFields(request.body), file: null };
  let file: QuickMessageFile | null = null;
  const raw: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        raw[part.fieldname] = String(part.value);
        continue;
      }
      // Other file fields, a second file and an empty file input (no name) are drained and ignored.
      if (part.fieldname !== 'medias' || file || !part.filename) {
        part.file.resume();
        continue;
      }
      if (!allowedMime(part.mimetype)) {
        part.file.resume();
        throw new FileTypeRejectedError('medias');
      }
      const key = newMediaKey(tenantId, part.filename);
      const { size } = await store.put(key, part.file, part.mimetype);
      file = { media: key.slice(key.indexOf('/') + 1), mediaKey: key, mediaType: part.mimetype, mediaBytes: size };
      if (part.file.truncated) throw fail('ERR_PAYLOAD_TOO_LARGE', 'medias');
    }
    return { fields: parseFields(raw), file };
  } catch (error) {
    if (file) await store.delete(file.mediaKey);
    if (SIZE_ERRORS.has((error as { code?: string }).code ?? '')) throw fail('ERR_PAYLOAD_TOO_LARGE', 'medias');
    throw error;
  }
}
