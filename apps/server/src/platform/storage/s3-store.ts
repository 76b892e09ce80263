/**
 * The media store on an S3-compatible bucket (AWS S3, MinIO, R2, ...), path-style URLs, requests signed with AWS
 * Signature V4 over fetch: no SDK dependency for three calls. Objects are buffered to sign their payload hash (media
 * is capped at MEDIA_MAX_BYTES).
 */
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { MediaStore } from './media-store.types.js';

export interface S3Options {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const sha256Hex = (data: Buffer | string): string => crypto.createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string): Buffer => crypto.createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding of each path segment, as SigV4 canonical URIs require. */
const encodePath = (path: string): string =>
  path
    .split('/')
    .map((segment) =>
      encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join('/');

export interface SignedRequest {
  url: string;
  headers: Record<string, string>;
}

/** Signs one request (SigV4, service s3, no query string). Exported for the test of the signature's shape. */
export function signS3Request(
  options: S3Options,
  method: 'GET' | 'PUT' | 'DELETE',
  key: string,
  payload: Buffer,
  extraHeaders: Record<string, string> = {},
  now = new Date(),
): SignedRequest {
  const url = new URL(`${options.endpoint}/${encodePath(`${options.bucket}/${key}`)}`);
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    host: url.host,
    'x-amz-content-sha256': sha256Hex(payload),
    'x-amz-date': amzDate,
    ...Object.fromEntries(Object.entries(extraHeaders).map(([k, v]) => [k.toLowerCase(), v.trim()])),
  };
  const names = Object.keys(headers).sort();
  const canonical = [
    method,
    url.pathname,
    '',
    ...names.map((name) => `${name}:${headers[name]}`),
    '',
    names.join(';'),
    headers['x-amz-content-sha256'],
  ].join('\n');
  const scope = `${day}/${options.region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonical)].join('\n');
  const signingKey = ['s3', 'aws4_request'].reduce(
    (k, part) => hmac(k, part),
    hmac(hmac(`AWS4${options.secretAccessKey}`, day), options.region),
  );
  const signature = hmac(signingKey, toSign).toString('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${options.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
  delete headers.host;
  return { url: url.toString(), headers };
}

async function toBuffer(data: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(data)) return data;
  const chunks: Buffer[] = [];
  for await (const chunk of data) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

export function createS3MediaStore(options: S3Options): MediaStore {
  const request = async (method: 'GET' | 'PUT' | 'DELETE', key: string, body: Buffer = Buffer.alloc(0), extra = {}) => {
    const signed = signS3Request(options, method, key, body, extra);
    return fetch(signed.url, {
      method,
      headers: signed.headers,
      ...(method === 'PUT' ? { body: new Uint8Array(body) } : {}),
    });
  };
  return {
    async put(key, data, mime) {
      const body = await toBuffer(data);
      const res = await request('PUT', key, body, { 'content-type': mime });
      if (!res.ok) throw new Error(`media store PUT ${key}: HTTP ${res.status}`);
      return { size: body.length };
    },
    async get(key) {
      const res = await request('GET', key);
      if (res.status === 404) return null;
      if (!res.ok || !res.body) throw new Error(`media store GET ${key}: HTTP ${res.status}`);
      const size = Number(res.headers.get('content-length') ?? 0);
      return { stream: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), size };
    },
    async delete(key) {
      const res = await request('DELETE', key);
      if (!res.ok && res.status !== 404) throw new Error(`media store DELETE ${key}: HTTP ${res.status}`);
    },
  };
}
