/**
 * The campaign form of POST/PUT /campaigns (client-contract §12): multipart with every field as a string (`null` as
 * the string `'null'`) and `medias`, one file or an empty string; or JSON with the same fields (our web client).
 * A file outside MEDIA_ALLOWED_MIME_PREFIXES or over the upload limit is refused and nothing stays stored.
 */
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { campaignInputSchema, MEDIA_ALLOWED_MIME_PREFIXES, type CampaignInput } from '@conversa/shared';
import { fail } from '../../platform/http/errors.js';
import { FileTypeRejectedError, SIZE_ERRORS } from '../../platform/http/multipart.js';
import { newMediaKey, type MediaStore } from '../../platform/storage/media-store.js';
import type { CampaignMedia } from './campaigns.service.js';

const allowedMime = (mime: string): boolean =>
  MEDIA_ALLOWED_MIME_PREFIXES.some((prefix) => mime.toLowerCase().startsWith(prefix));
const cleanName = (name: string): string => path.basename(name.replaceAll('\\', '/')).slice(0, 255) || 'file';

function parseForm(raw: unknown): CampaignInput {
  const parsed = campaignInputSchema.safeParse(raw ?? {});
  if (!parsed.success) throw fail('ERR_VALIDATION', String(parsed.error.issues[0]?.path[0] ?? 'name'));
  return parsed.data;
}

export async function receiveCampaignForm(
  request: FastifyRequest,
  store: MediaStore,
  tenantId: number,
): Promise<{ input: CampaignInput; media: CampaignMedia | null }> {
  if (!request.isMultipart()) return { input: parseForm(request.body), media: null };
  let media: CampaignMedia | null = null;
  const raw: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        raw[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== 'medias' || media || !part.filename) {
        part.file.resume();
        continue;
      }
      if (!allowedMime(part.mimetype)) {
        part.file.resume();
        throw new FileTypeRejectedError('medias');
      }
      const name = cleanName(part.filename);
      const key = newMediaKey(tenantId, name);
      const { size } = await store.put(key, part.file, part.mimetype);
      media = { key, name, mime: part.mimetype, size };
      if (part.file.truncated) throw fail('ERR_PAYLOAD_TOO_LARGE', 'medias');
    }
    return { input: parseForm(raw), media };
  } catch (error) {
    if (media) await store.delete(media.key);
    if (SIZE_ERRORS.has((error as { code?: string }).code ?? '')) throw fail('ERR_PAYLOAD_TOO_LARGE', 'medias');
    throw error;
  }
}
