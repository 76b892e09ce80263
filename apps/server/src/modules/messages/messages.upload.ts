/**
 * The multipart edge of POST /messages/{ticketId} (client-contract §5.2): one `medias` file streamed straight into
 * the media store, plus `body` (the file name), `fromMe`, `idFront`, `isSticker`. A type outside
 * MEDIA_ALLOWED_MIME_PREFIXES answers 400 and a file over the size limit 413, both ERR_PAYLOAD_TOO_LARGE (the
 * catalogue's file-rejected text), and nothing stays stored.
 */
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { looseBoolean, MEDIA_ALLOWED_MIME_PREFIXES, type MessageMediaType } from '@conversa/shared';
import { FileTypeRejectedError, receiveSingleFile } from '../../platform/http/multipart.js';
import { newMediaKey, type MediaStore } from '../../platform/storage/media-store.js';
import { uploadScheduleDateSchema } from './messages.schedule-port.js';
import type { StoredUploadMedia } from './messages.send.types.js';

export const uploadFieldsSchema = z.object({
  body: z.string().max(20_000).optional(),
  idFront: z.string().min(1).max(100).optional(),
  isSticker: looseBoolean.optional(),
  fromMe: z.string().max(10).optional(),
  /** `/wabametaFile` and `/wabametaSticker` name their ticket in the form (POST /messages in its path). */
  ticketId: z.coerce.number().int().positive().optional(),
  /** Paths that do not schedule (the /wabameta* files) refuse a date; an empty value is what clients send otherwise. */
  scheduleDate: z.union([z.literal(''), z.literal('null'), z.literal('undefined')]).optional(),
});
/** POST /messages/{ticketId} and the paths sharing it schedule a file with a date (messages.schedule-port.ts). */
const schedulableFieldsSchema = uploadFieldsSchema.extend({ scheduleDate: uploadScheduleDateSchema });
export type UploadFields = z.output<typeof schedulableFieldsSchema>;

/** The web's recorder names its files `<epoch>.<ext>`: those are voice notes (ptt), other audio files are `audio`. */
const RECORDED_AUDIO = /^\d{10,14}\.(mp3|ogg|oga|opus|webm|m4a|wav)$/i;

export function mediaTypeFor(mime: string, fileName: string, isSticker: boolean): MessageMediaType {
  if (RECORDED_AUDIO.test(fileName)) return 'ptt';
  if (isSticker && mime.startsWith('image/')) return 'sticker';
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'application';
}

const allowedMime = (mime: string): boolean =>
  MEDIA_ALLOWED_MIME_PREFIXES.some((prefix) => mime.toLowerCase().startsWith(prefix));

/** A display name without any path a client may send. */
const cleanName = (name: string): string => path.basename(name.replaceAll('\\', '/')).slice(0, 255) || 'file';

export async function receiveMediaUpload(
  request: FastifyRequest,
  store: MediaStore,
  tenantId: number,
  options: { schedulable?: boolean } = {},
): Promise<{ media: StoredUploadMedia; fields: UploadFields }> {
  const { saved: stored, fields } = await receiveSingleFile(request, {
    fileField: 'medias',
    fields: options.schedulable ? schedulableFieldsSchema : uploadFieldsSchema,
    fallbackField: 'body',
    async save(part) {
      if (!allowedMime(part.mimetype)) {
        part.file.resume();
        throw new FileTypeRejectedError('medias');
      }
      const name = cleanName(part.filename);
      const key = newMediaKey(tenantId, name);
      const { size } = await store.put(key, part.file, part.mimetype);
      return { key, name, mime: part.mimetype, size };
    },
    discard: (saved) => store.delete(saved.key),
  });
  const isSticker = fields.isSticker ?? false;
  const name = fields.body ? cleanName(fields.body) : stored.name;
  return {
    media: { ...stored, name, mediaType: mediaTypeFor(stored.mime, name, isSticker), isSticker },
    fields,
  };
}
