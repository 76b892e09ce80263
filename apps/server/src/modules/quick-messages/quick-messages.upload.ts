/**
 * The body of POST/PUT /fastreply (client-contract §8): multipart `key, message, medias, voice` with at most one file
 * (`medias`), streamed into the media store under a random name keeping the original extension; or JSON without a
 * file. A type outside MEDIA_ALLOWED_MIME_PREFIXES answers 400 and a file over the size limit 413 (both
 * ERR_PAYLOAD_TOO_LARGE, the catalogue's file-rejected text); whatever fails after the file was stored removes it.
 */
import type { FastifyRequest } from 'fastify';
import { quickMessageFieldsSchema, type QuickMessageFields } from '@conversa/shared';
import { allowedMediaMime, FileTypeRejectedError, receiveOptionalFile } from '../../platform/http/multipart.js';
import { newMediaKey, type MediaStore } from '../../platform/storage/media-store.js';
import type { QuickMessageFile } from './quick-messages.repository.js';

export interface ReceivedQuickMessage {
  fields: QuickMessageFields;
  file: QuickMessageFile | null;
}

export async function receiveQuickMessage(
  request: FastifyRequest,
  store: MediaStore,
  tenantId: number,
): Promise<ReceivedQuickMessage> {
  // Other file fields, a second file and an empty file input (no name) are drained and ignored.
  const { saved, fields } = await receiveOptionalFile(request, {
    fileField: 'medias',
    fields: quickMessageFieldsSchema,
    fallbackField: 'key',
    async save(part): Promise<QuickMessageFile> {
      if (!allowedMediaMime(part.mimetype)) {
        part.file.resume();
        throw new FileTypeRejectedError('medias');
      }
      const key = newMediaKey(tenantId, part.filename);
      const { size } = await store.put(key, part.file, part.mimetype);
      return { media: key.slice(key.indexOf('/') + 1), mediaKey: key, mediaType: part.mimetype, mediaBytes: size };
    },
    discard: (file) => store.delete(file.mediaKey),
  });
  return { fields, file: saved };
}
