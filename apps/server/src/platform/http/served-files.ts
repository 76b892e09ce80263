/**
 * How a stored file (an upload, a provider's download) leaves the server: every route that serves one (chat media
 * `/api/media/{token}`, quick messages' `/api/public/{tenantId}/{name}`, chat flows' `/api/public/chat-flow/...`,
 * contacts' pictures) answers through `sendStoredFile`, so a file a tenant or a customer chose can never run as a page
 * or a script of the app's origin (`script-src 'self'` would then trust it):
 * - shown in the page, with its type: raster images (not SVG, which is a document with scripts), audio and video;
 * - downloaded with its type: documents no browser renders as a page or runs (PDF, Office, OpenDocument, ZIP, RTF).
 *   They stay typed because providers that fetch our links (the hub's file sends, a flow's or a quick message's
 *   public address in a campaign) label the customer's file by it; `attachment` keeps a browser from opening them in
 *   our origin (and the sandbox CSP below would block a PDF viewer there anyway);
 * - everything else (HTML, JavaScript, SVG, XML, `text/*`, an unknown or malformed type) downloads as
 *   `application/octet-stream`.
 * All with `nosniff` and a sandbox CSP, so not even a wrong type can make a browser read the bytes as a document.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

const INLINE_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp']);
/** A media type's essence: type/subtype of RFC 6838 characters, parameters dropped (`audio/ogg; codecs=opus`). */
const ESSENCE = /^([a-z0-9][a-z0-9!#$&^_.+-]*)\/([a-z0-9][a-z0-9!#$&^_.+-]*)$/;
const TYPED_DOWNLOADS = new Set([
  'application/pdf',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'application/zip',
  'application/rtf',
]);
const TYPED_DOWNLOAD_PREFIXES = [
  'application/vnd.openxmlformats-officedocument.',
  'application/vnd.oasis.opendocument.',
];

export const DOWNLOAD_TYPE = 'application/octet-stream';

export interface ServedType {
  /** The Content-Type answered. */
  type: string;
  inline: boolean;
}

/** The type a stored file is answered with, and whether the page may show it (see the file's comment). */
export function servedType(mime: string): ServedType {
  const essence = (mime.split(';')[0] ?? '').trim().toLowerCase();
  const parts = ESSENCE.exec(essence);
  if (!parts) return { type: DOWNLOAD_TYPE, inline: false };
  if (INLINE_IMAGES.has(essence) || parts[1] === 'audio' || parts[1] === 'video')
    return { type: essence, inline: true };
  if (TYPED_DOWNLOADS.has(essence) || TYPED_DOWNLOAD_PREFIXES.some((prefix) => essence.startsWith(prefix))) {
    return { type: essence, inline: false };
  }
  return { type: DOWNLOAD_TYPE, inline: false };
}

/** `inline` or `attachment` with the file's name: ASCII fallback (quotes and controls replaced) and RFC 5987 UTF-8. */
export function contentDisposition(inline: boolean, name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export interface StoredFileAnswer {
  mime: string;
  name: string;
  size: number;
  stream: Readable;
  /** Cache-Control: a signed link's lifetime, a public file's, a picture's immutable key. */
  cacheControl: string;
}

export function sendStoredFile(reply: FastifyReply, file: StoredFileAnswer): FastifyReply {
  const { type, inline } = servedType(file.mime);
  return (
    reply
      .type(type)
      .header('Content-Length', file.size)
      .header('Content-Disposition', contentDisposition(inline, file.name))
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      // The link or the random name is the credential: pages on another address than PUBLIC_URL (an IP, a second
      // host name, a client on another origin) may show it, whatever the app-wide same-origin resource policy says.
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .header('Cache-Control', file.cacheControl)
      .send(file.stream)
  );
}
