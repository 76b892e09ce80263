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
import type { MediaStore } from './media-store.types.js';
import { createS3MediaStore, type S3Options } from './s3-store.js';

export type { MediaStore, StoredMedia } from './media-store.types.js';

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

/**
 * Media is the tenants' customers' files: only the server's own user reads them. Files are created 0600 and folders
 * 0700 (the mode is given at creation, so no other user ever sees a readable file, whatever the umask allows).
 */
export const MEDIA_FILE_MODE = 0o600;
export const MEDIA_DIR_MODE = 0o700;

export function createLocalMediaStore(root: string): MediaStore {
  const fileOf = (key: string) => path.join(root, assertMediaKey(key));
  // Folders made private once per process: mkdir's mode only applies to folders it creates, and an install that
  // predates the modes has its root and tenant folders at 0755.
  const privateDirs = new Set<string>();
  const ensureDir = async (dir: string) => {
    if (privateDirs.has(dir)) return;
    await fs.promises.mkdir(dir, { recursive: true, mode: MEDIA_DIR_MODE });
    for (const folder of [root, dir]) await fs.promises.chmod(folder, MEDIA_DIR_MODE);
    privateDirs.add(dir);
  };
  return {
    async put(key, data) {
      const file = fileOf(key);
      await ensureDir(path.dirname(file));
      // Written beside and renamed, so a reader never sees half a file and a failed write leaves nothing.
      const partial = `${file}.${crypto.randomBytes(4).toString('hex')}.part`;
      try {
        const out = fs.createWriteStream(partial, { mode: MEDIA_FILE_MODE });
        await pipeline(Buffer.isBuffer(data) ? Readable.from([data]) : data, out);
        await fs.promises.rename(partial, file);
      } catch (error) {
        await fs.promises.rm(partial, { force: true });
        throw error;
      }
      return { size: (await fs.promises.stat(file)).size };
    },
    async get(key) {
      // Opened here, not lazily by the stream: a file removed right after (a quick message deleted while its public
      // link is read) still reads whole, and a missing file is null rather than a stream error nobody listens to.
      const handle = await fs.promises.open(fileOf(key), 'r').catch(() => null);
      if (!handle) return null;
      const stat = await handle.stat().catch(() => null);
      if (!stat?.isFile()) {
        await handle.close();
        return null;
      }
      return { stream: handle.createReadStream(), size: stat.size };
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
