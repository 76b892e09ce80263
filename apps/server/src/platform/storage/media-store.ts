/**
 * Where message media lives. Keys are `<tenantId>/<name>`; the store never builds public URLs (message DTOs carry
 * HMAC-signed, expiring links served by the messages module). Local disk under DATA_DIR/media by default; an
 * S3-compatible bucket when MEDIA_S3_* is configured.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createS3MediaStore, type S3Options } from './s3-store.js';

export interface StoredMedia {
  stream: Readable;
  size: number;
}

export interface MediaStore {
  /** Stores the bytes under the key (replacing any); returns the stored size. */
  put(key: string, data: Buffer | Readable, mime: string): Promise<{ size: number }>;
  /** The stored bytes, or null when the key holds nothing. */
  get(key: string): Promise<StoredMedia | null>;
  /** Removes the key; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

/** Keys come from our code (tenant id + generated name), never from clients; still refuse anything path-like. */
const KEY_PATTERN = /^\d+\/[A-Za-z0-9._-]{1,200}$/;

export function assertMediaKey(key: string): string {
  if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`invalid media key: ${key}`);
  return key;
}

/** A fresh key for a tenant's media: random, keeping a short safe extension for people reading the bucket. */
export function newMediaKey(tenantId: number, fileName: string | null): string {
  const ext = path.extname(fileName ?? '').toLowerCase();
  const safeExt = /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : '';
  return `${tenantId}/${crypto.randomUUID()}${safeExt}`;
}

export function createLocalMediaStore(root: string): MediaStore {
  const fileOf = (key: string) => path.join(root, assertMediaKey(key));
  return {
    async put(key, data) {
      const file = fileOf(key);
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      // Written beside and renamed, so a reader never sees half a file and a failed write leaves nothing.
      const partial = `${file}.${crypto.randomBytes(4).toString('hex')}.part`;
      try {
        await pipeline(Buffer.isBuffer(data) ? Readable.from([data]) : data, fs.createWriteStream(partial));
        await fs.promises.rename(partial, file);
      } catch (error) {
        await fs.promises.rm(partial, { force: true });
        throw error;
      }
      return { size: (await fs.promises.stat(file)).size };
    },
    async get(key) {
      const file = fileOf(key);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (!stat?.isFile()) return null;
      return { stream: fs.createReadStream(file), size: stat.size };
    },
    async delete(key) {
      await fs.promises.rm(fileOf(key), { force: true });
    },
  };
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
}

export interface MediaStoreOptions {
  /** Local root (DATA_DIR/media). */
  root: string;
  /** An S3-compatible bucket; when set, media goes there instead. */
  s3?: S3Options | undefined;
}

export function createMediaStore(options: MediaStoreOptions): MediaStore {
  return options.s3 ? createS3MediaStore(options.s3) : createLocalMediaStore(options.root);
}
