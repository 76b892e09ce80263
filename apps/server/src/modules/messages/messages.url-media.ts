/**
 * A file sent by address (`OutboundPayload` kind `media-url`: a chat flow's MediaField). The official channels
 * (WhatsApp Cloud API, Messenger, Instagram, the NotificaMe hub) hand the address to the provider, which fetches it;
 * every other adapter sends bytes, so the send job fetches the file first through the checked fetch
 * (platform/net: public addresses on ports 80/443 unless OUTBOUND_ALLOW says otherwise, redirects re-checked, at
 * most MEDIA_MAX_BYTES, 20 s). A file that cannot be fetched fails the attempt with one generic text: a refusal, a
 * 4xx or a file too big permanently, network trouble, 429 and 5xx are retried like a provider error.
 */
import { HUB_CHANNEL_TYPES, MEDIA_MAX_BYTES, type ChannelType, type OutboundPayload } from '@conversa/shared';
import { OutboundError, statusError, type OutboundFetch } from '../../platform/net/safe-fetch.js';
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

/** The file behind a `media-url` payload, as the adapters' `media` (bytes, type, name), through the checked fetch. */
export async function fetchUrlMedia(
  payload: UrlPayload,
  fetcher: OutboundFetch,
  maxBytes = MEDIA_MAX_BYTES,
): Promise<NonNullable<OutboundMessage['media']>> {
  let response;
  try {
    response = await fetcher(payload.url, { maxBytes, timeoutMs: FETCH_TIMEOUT_MS });
    if (!response.ok) throw statusError(response);
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    // One text whatever happened (refused address, closed port, 404, too big): the error is shown on the message.
    throw new ProviderError(`media url: ${error.message}`, !error.transient);
  }
  const mime = response.headers['content-type']?.split(';')[0]?.trim() || MIME_BY_TYPE[payload.mediaType];
  const last = new URL(payload.url).pathname.split('/').pop() || '';
  let name = payload.filename || '';
  if (!name) {
    try {
      name = decodeURIComponent(last);
    } catch {
      name = last;
    }
  }
  return { data: response.body, mime, name: name || 'file' };
}
