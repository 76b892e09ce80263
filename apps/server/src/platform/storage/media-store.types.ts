/**
 * The media store's contract, apart from its implementations: media-store.ts (local disk, the factory) and
 * s3-store.ts both implement it, so neither imports the other for the type.
 */
import type { Readable } from 'node:stream';

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
