/**
 * Downloads a profile picture from the link a WhatsApp session gave (its CDN, pps.whatsapp.net): only from the hosts
 * allowed, through the checked fetch (the host resolves to a public address, or the operator allowed it), within a
 * time limit and a size limit, and only an image of a raster type we serve (JPEG, PNG, WebP, GIF:
 * told by the answer's content type and confirmed by the bytes themselves; never SVG, which can carry script).
 */
import { defaultOutbound } from '../../platform/net/outbound.js';
import { OutboundError, type OutboundFetch } from '../../platform/net/safe-fetch.js';

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TIMEOUT_MS = 15_000;

/** The picture types stored, with the extension their key gets (the route serves the type back from it). */
export const AVATAR_TYPES = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
  'image/gif': '.gif',
} as const;
export type AvatarMime = keyof typeof AVATAR_TYPES;

/** The picture will not be taken (host, size, type, gone): asking again now would not change that. */
export class AvatarRefusedError extends Error {}

export interface AvatarFetchOptions {
  /** Origins allowed besides WhatsApp's CDN (`https://*.whatsapp.net`): the test simulators. */
  extraOrigins?: readonly string[];
  maxBytes?: number;
  timeoutMs?: number;
  /** The checked fetch (platform/net): the address check comes on top of the host list. */
  fetch?: OutboundFetch;
}

export interface AvatarFile {
  data: Buffer;
  mime: AvatarMime;
}

export type FetchAvatar = (url: string) => Promise<AvatarFile>;

/** The type the bytes are, by their signature; null for anything else. */
export function sniffImage(data: Buffer): AvatarMime | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (data.subarray(0, 4).toString('latin1') === 'RIFF' && data.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'image/webp';
  }
  if (/^GIF8[79]a$/.test(data.subarray(0, 6).toString('latin1'))) return 'image/gif';
  return null;
}

function allowed(url: URL, extraOrigins: readonly string[]): boolean {
  if (extraOrigins.includes(url.origin)) return true;
  return url.protocol === 'https:' && (url.hostname === 'whatsapp.net' || url.hostname.endsWith('.whatsapp.net'));
}

export function createAvatarFetch(options: AvatarFetchOptions = {}): FetchAvatar {
  const maxBytes = options.maxBytes ?? AVATAR_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? AVATAR_TIMEOUT_MS;
  const extraOrigins = options.extraOrigins ?? [];
  const fetcher = options.fetch ?? defaultOutbound();
  return async (link) => {
    let url: URL;
    try {
      url = new URL(link);
    } catch {
      throw new AvatarRefusedError('not a URL');
    }
    if (!allowed(url, extraOrigins)) throw new AvatarRefusedError(`host not allowed: ${url.host}`);
    let response;
    try {
      // The CDN's link is taken as it is: a redirect is not followed (the 3xx is retried later like a 5xx).
      response = await fetcher(url, { maxBytes, timeoutMs, redirects: 0 });
    } catch (error) {
      // A refused address or a picture past the cap will not change; network failures and timeouts are retried.
      if (error instanceof OutboundError && !error.transient) throw new AvatarRefusedError(error.detail);
      throw error;
    }
    if (!response.ok) {
      if (response.status >= 400 && response.status < 500) {
        throw new AvatarRefusedError(`the CDN answered ${response.status}`);
      }
      throw new Error(`the CDN answered ${response.status}`);
    }
    const declared = (response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (!declared.startsWith('image/')) throw new AvatarRefusedError(`not an image: ${declared}`);
    const mime = sniffImage(response.body);
    if (!mime) throw new AvatarRefusedError(`not a picture of a known type (declared ${declared})`);
    return { data: response.body, mime };
  };
}
