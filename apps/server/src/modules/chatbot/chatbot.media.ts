/**
 * A flow's media (a step's MediaField): `POST /chat-flow-media` streams one file into the media store (the chat's
 * size limit and allowed types, charged to the tenant's quota) and answers its public address, which the builder
 * stores in the flow as `mediaUrl`; `GET /api/public/chat-flow/{tenantId}/{media}` serves it without a token, as quick
 * messages' files are served, because the bot's sends hand that address to providers (or fetch it) like any URL.
 *
 * No table records these files (the migration of this issue has none): the stored name carries what serving needs.
 * It is `cf-<uuid>.<ext>`, the extension chosen from the file's type, so the type served is the one uploaded; the
 * `cf-` prefix keeps every other key of the store (chat media, quick messages) out of reach of this public route;
 * the random name is the credential and the tenant id in the path is the key's own, so another tenant's id finds
 * nothing. The files stay while any flow (or an export of one) may name them: deleting a flow keeps its record too.
 */
import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { MEDIA_ALLOWED_MIME_PREFIXES } from '@conversa/shared';
import { fail } from '../../platform/http/errors.js';
import { FileTypeRejectedError } from '../../platform/http/multipart.js';
import type { MediaStore } from '../../platform/storage/media-store.js';

/** The types a flow may send, by the extension stored with them (one extension per type). */
const MIME_BY_EXTENSION: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  mp4: 'video/mp4',
  '3gp': 'video/3gpp',
  webm: 'video/webm',
  mov: 'video/quicktime',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  opus: 'audio/opus',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  amr: 'audio/amr',
  wav: 'audio/wav',
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  zip: 'application/zip',
  rtf: 'application/rtf',
  txt: 'text/plain',
  csv: 'text/csv',
};
const ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'jpg',
  'image/pjpeg': 'jpg',
  'audio/mp3': 'mp3',
  'audio/x-m4a': 'm4a',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'application/x-zip-compressed': 'zip',
};
const EXTENSION_BY_MIME: ReadonlyMap<string, string> = new Map([
  ...Object.entries(MIME_BY_EXTENSION).map(([ext, mime]): [string, string] => [mime, ext]),
  ...Object.entries(ALIASES),
]);

/** A stored flow file's name: `cf-` and a uuid, then its type's extension. */
export const FLOW_MEDIA_NAME = /^cf-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.([0-9a-z]{2,4})$/;

export type FlowMediaKind = 'image' | 'video' | 'audio' | 'document';

export const flowMediaKind = (mime: string): FlowMediaKind =>
  mime.startsWith('image/')
    ? 'image'
    : mime.startsWith('video/')
      ? 'video'
      : mime.startsWith('audio/')
        ? 'audio'
        : 'document';

/** The type a stored flow file is served as, from its name; null for a name this route never stores. */
export function flowMediaMime(media: string): string | null {
  const ext = FLOW_MEDIA_NAME.exec(media)?.[1];
  return (ext && MIME_BY_EXTENSION[ext]) ?? null;
}

export const flowMediaPath = (tenantId: number, media: string): string => `/api/public/chat-flow/${tenantId}/${media}`;

export interface FlowMediaFile {
  media: string;
  key: string;
  mime: string;
  /** The uploaded file's own name (shown in the builder, sent as a document's file name). */
  name: string;
}

const SIZE_ERRORS = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);
/** The file field: `medias` as quick messages name it; `file` as browsers' FormData uploads often do. */
const FILE_FIELDS = new Set(['medias', 'file']);

/** Reads the multipart body: its one file is stored and returned; other parts are drained and ignored. */
export async function receiveFlowMedia(
  request: FastifyRequest,
  store: MediaStore,
  tenantId: number,
): Promise<FlowMediaFile> {
  if (!request.isMultipart()) throw fail('ERR_VALIDATION', 'medias');
  let file: FlowMediaFile | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') continue;
      if (!FILE_FIELDS.has(part.fieldname) || file || !part.filename) {
        part.file.resume();
        continue;
      }
      const mime = part.mimetype.toLowerCase().split(';')[0]!.trim();
      const ext = EXTENSION_BY_MIME.get(mime);
      if (!ext || !MEDIA_ALLOWED_MIME_PREFIXES.some((prefix) => mime.startsWith(prefix))) {
        part.file.resume();
        throw new FileTypeRejectedError('medias');
      }
      const media = `cf-${crypto.randomUUID()}.${ext}`;
      const key = `${tenantId}/${media}`;
      await store.put(key, part.file, MIME_BY_EXTENSION[ext]!);
      file = { media, key, mime: MIME_BY_EXTENSION[ext]!, name: part.filename.slice(0, 255) };
      if (part.file.truncated) throw fail('ERR_PAYLOAD_TOO_LARGE', 'medias');
    }
  } catch (error) {
    if (file) await store.delete(file.key);
    if (SIZE_ERRORS.has((error as { code?: string }).code ?? '')) throw fail('ERR_PAYLOAD_TOO_LARGE', 'medias');
    throw error;
  }
  if (!file) throw fail('ERR_VALIDATION', 'medias');
  return file;
}

/**
 * The stored file behind a flow file's address (absolute, or the `/api/public/...` path) when it is a file of
 * `tenantId`; null for any other address. Lets a sender read the bytes from the store instead of over HTTP.
 */
export function flowMediaKeyOf(tenantId: number, mediaUrl: string): { key: string; mime: string } | null {
  let pathname: string;
  try {
    pathname = new URL(mediaUrl, 'http://local').pathname;
  } catch {
    return null;
  }
  const match = /^\/api\/public\/chat-flow\/(\d+)\/([^/]+)$/.exec(pathname);
  if (!match || Number(match[1]) !== tenantId) return null;
  const mime = flowMediaMime(match[2]!);
  return mime ? { key: `${tenantId}/${match[2]}`, mime } : null;
}
