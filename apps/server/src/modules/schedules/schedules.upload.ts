/**
 * The multipart form of POST /messagesSchedule (client-contract §5.1): one `medias` file streamed into the media
 * store plus the schedule's fields as strings. Types outside MEDIA_ALLOWED_MIME_PREFIXES and oversized files are
 * refused as for an agent's upload, and nothing stays stored.
 */
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { MEDIA_ALLOWED_MIME_PREFIXES, scheduleCreateSchema, type ScheduleCreateInput } from '@conversa/shared';
import { FileTypeRejectedError, receiveSingleFile } from '../../platform/http/multipart.js';
import { newMediaKey, type MediaStore } from '../../platform/storage/media-store.js';

export interface ScheduleMedia {
  key: string;
  name: string;
  mime: string;
  size: number;
}

const allowedMime = (mime: string): boolean =>
  MEDIA_ALLOWED_MIME_PREFIXES.some((prefix) => mime.toLowerCase().startsWith(prefix));

const cleanName = (name: string): string => path.basename(name.replaceAll('\\', '/')).slice(0, 255) || 'file';

export async function receiveScheduleUpload(
  request: FastifyRequest,
  store: MediaStore,
  tenantId: number,
): Promise<{ media: ScheduleMedia; fields: ScheduleCreateInput }> {
  const { saved, fields } = await receiveSingleFile(request, {
    fileField: 'medias',
    fields: scheduleCreateSchema,
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
    discard: (file) => store.delete(file.key),
  });
  return { media: saved, fields };
}

/** The message kind of a stored file (the send path's `mediaType`). */
export function mediaKindOf(mime: string): 'image' | 'video' | 'audio' | 'application' {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  return 'application';
}
