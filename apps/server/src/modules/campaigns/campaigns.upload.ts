/**
 * The campaign form of POST/PUT /campaigns (client-contract §12): multipart with every field as a string (`null` as
 * the string `'null'`) and `medias`, one file or an empty string; or JSON with the same fields (our web client).
 * A file outside MEDIA_ALLOWED_MIME_PREFIXES or over the upload limit is refused and nothing stays stored.
 */
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { campaignInputSchema, type CampaignInput } from '@conversa/shared';
import { allowedMediaMime, FileTypeRejectedError, receiveOptionalFile } from '../../platform/http/multipart.js';
import { newMediaKey, type MediaStore } from '../../platform/storage/media-store.js';
import type { CampaignMedia } from './campaigns.service.js';

const cleanName = (name: string): string => path.basename(name.replaceAll('\\', '/')).slice(0, 255) || 'file';

export async function receiveCampaignForm(
  request: FastifyRequest,
  store: MediaStore,
  tenantId: number,
): Promise<{ input: CampaignInput; media: CampaignMedia | null }> {
  const { saved, fields } = await receiveOptionalFile(request, {
    fileField: 'medias',
    fields: campaignInputSchema,
    fallbackField: 'name',
    async save(part): Promise<CampaignMedia> {
      if (!allowedMediaMime(part.mimetype)) {
        part.file.resume();
        throw new FileTypeRejectedError('medias');
      }
      const name = cleanName(part.filename);
      const key = newMediaKey(tenantId, name);
      const { size } = await store.put(key, part.file, part.mimetype);
      return { key, name, mime: part.mimetype, size };
    },
    discard: (media) => store.delete(media.key),
  });
  return { input: fields, media: saved };
}
