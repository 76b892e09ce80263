/**
 * Per-tenant media quota around a media store: every `put` (an agent's upload, a downloaded provider file) is
 * charged to the tenant of its key, and a put that would pass the quota is undone and refused, so nothing past the
 * quota stays stored. Deletes give the bytes back. The counter itself lives with the tenants (the `MediaQuota`
 * port); the charge happens after the bytes are stored because an upload's size is known only once it is read.
 */
import type { Readable } from 'node:stream';
import { AppError } from '../http/errors.js';
import type { MediaStore } from './media-store.js';

export interface MediaQuota {
  /** Adds the bytes to the tenant's usage unless that passes its quota; false (and nothing added) when it would. */
  charge(tenantId: number, bytes: number): Promise<boolean>;
  release(tenantId: number, bytes: number): Promise<void>;
  /** Bytes still free (0 or less when full). */
  remaining(tenantId: number): Promise<number>;
}

export class MediaQuotaExceededError extends AppError {
  constructor() {
    super('ERR_MEDIA_QUOTA_EXCEEDED');
  }
}

const tenantOf = (key: string): number => Number(key.slice(0, key.indexOf('/')));

export function withMediaQuota(store: MediaStore, quota: MediaQuota): MediaStore {
  return {
    async put(key: string, data: Buffer | Readable, mime: string) {
      const tenantId = tenantOf(key);
      // A stream (an upload) is refused before it is written when the tenant is already full; a buffer (a provider
      // file, downloaded on every media message) is only charged: the charge refuses it and it is removed.
      if (!Buffer.isBuffer(data) && (await quota.remaining(tenantId)) <= 0) {
        data.resume();
        throw new MediaQuotaExceededError();
      }
      const stored = await store.put(key, data, mime);
      if (!(await quota.charge(tenantId, stored.size))) {
        await store.delete(key);
        throw new MediaQuotaExceededError();
      }
      return stored;
    },
    get: (key) => store.get(key),
    async delete(key) {
      const found = await store.get(key);
      found?.stream.destroy();
      await store.delete(key);
      if (found) await quota.release(tenantOf(key), found.size);
    },
  };
}
