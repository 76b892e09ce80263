/**
 * A file sent by address (`OutboundPayload` kind `media-url`: a chat flow's MediaField). The official channels
 * (WhatsApp Cloud API, Messenger, Instagram, the NotificaMe hub) hand the address to the provider, which fetches it;
 * every other adapter sends bytes, so the send job fetches the file first (http(s) only, at most MEDIA_MAX_BYTES,
 * 20 s). A file that cannot be fetched fails the attempt: a 4xx or a file too big permanently, anything else is
 * retried like a provider error.
 */
import { HUB_CHANNEL_TYPES, MEDIA_MAX_BYTES, type ChannelType, type OutboundPayload } from '@conversa/shared';
import { ProviderError, type OutboundMessage } from '../channels/index.js';

const PASSES_URLS: ReadonlySet<ChannelType> = new Set<ChannelType>([
  'waba',
  'messenger',
  'instagram',
  ...HUB_CHANNEL_TYPES,
]);
const FETCH_TIMEOUT_MS = 20_000;

type UrlPayload = Extract<OutboundPayload, { kind: 'media-url' }>;

/** Whether the adapter of `type` needs the file's bytes instead of its address. */
export const needsUrlBytes = (type: ChannelType, payload: OutboundPayload | null | undefined): payload is UrlPayload =>
  payload?.kind === 'media-url' && !PASSES_URLS.has(type);

const MIME_BY_TYPE: Record<UrlPayload['mediaType'], string> = {
  image: 'image/jpeg',
  video: 'video/mp4',
  audio: 'audio/mpeg',
  application: 'application/octet-stream',
  sticker: 'image/webp',
};

/** The file behind a `media-url` payload, as the adapters' `media` (bytes, type, name). */
export async function fetchUrlMedia(
  payload: UrlPayload,
  maxBytes = MEDIA_MAX_BYTES,
): Promise<NonNullable<OutboundMessage['media']>> {
  let url: URL;
  try {
    url = new URL(payload.url);
  } catch {
    throw new ProviderError('media url is not valid', true);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProviderError('media url is not http(s)', true);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'follow' });
  } catch (error) {
    throw new ProviderError(`media url fetch failed: ${(error as Error).message}`, false);
  }
  if (!response.ok) {
    throw new ProviderError(`media url answered ${response.status}`, response.status >= 400 && response.status < 500);
  }
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw new ProviderError('media url file is too big', true);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).length;
    if (size > maxBytes) throw new ProviderError('media url file is too big', true);
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  const mime = response.headers.get('content-type')?.split(';')[0]?.trim() || MIME_BY_TYPE[payload.mediaType];
  const name = payload.filename || decodeURIComponent(url.pathname.split('/').pop() || '') || 'file';
  return { data: Buffer.concat(chunks), mime, name };
}
