/**
 * whatsapp-web.js' RemoteAuth store over the session's AuthStateStore (encrypted rows per channel), so any node can
 * resume a session without a new QR. RemoteAuth zips the browser profile's session folders into
 * `<dataPath>/<session>.zip` and hands the store only the session name: `save` reads that file, `extract` writes it
 * back where RemoteAuth asks. The zip is kept as base64 chunks (`wwebjs-session-<n>`) under one manifest
 * (`wwebjs-session`: chunk count, size, sha256), all written in one store call, so a reader sees an old or a new
 * session, never a mix (a checksum mismatch fails the extract and the open is retried).
 *
 * RemoteAuth deletes the stored session on its own whenever WhatsApp Web reaches a state it does not accept, CONFLICT
 * included (another browser opened the session: during a lease handover, that is this product's other node). A
 * delete therefore happens only when the driver allows it (the phone logged the device out, or `logout()` was asked
 * for); otherwise it is ignored and the host decides.
 */
import crypto from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type WAWebJS from 'whatsapp-web.js';
import type { AuthStateStore } from '../../sessions/session-driver.js';

export const MANIFEST_KEY = 'wwebjs-session';
export const chunkKey = (index: number) => `${MANIFEST_KEY}-${index}`;
/** Raw bytes per chunk (base64 makes it 4/3 larger): rows stay well under PostgreSQL's comfortable sizes. */
export const CHUNK_BYTES = 512 * 1024;

const manifestSchema = z.object({
  session: z.string(),
  chunks: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  savedAt: z.number(),
});
type Manifest = z.infer<typeof manifestSchema>;

export interface RemoteSessionStoreOptions {
  /** RemoteAuth's `dataPath`: where it writes `<session>.zip` before `save`. */
  dataPath: string;
  /** False while a delete must be ignored (see the file comment). */
  canDelete(): boolean;
  chunkBytes?: number;
}

export interface RemoteSessionStore extends WAWebJS.Store {
  sessionExists(options: { session: string }): Promise<boolean>;
  save(options: { session: string }): Promise<void>;
  extract(options: { session: string; path: string }): Promise<void>;
  delete(options: { session: string }): Promise<void>;
}

async function readManifest(auth: AuthStateStore): Promise<Manifest | null> {
  const text = (await auth.read([MANIFEST_KEY])).get(MANIFEST_KEY);
  if (text === undefined) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = manifestSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export function createRemoteSessionStore(auth: AuthStateStore, options: RemoteSessionStoreOptions): RemoteSessionStore {
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  return {
    async sessionExists() {
      return (await readManifest(auth)) !== null;
    },

    async save({ session }) {
      const zip = await fs.readFile(path.join(options.dataPath, `${session}.zip`));
      const previous = await readManifest(auth);
      const chunks = Math.ceil(zip.length / chunkBytes);
      const entries = new Map<string, string | null>();
      for (let i = 0; i < chunks; i++) {
        entries.set(chunkKey(i), zip.subarray(i * chunkBytes, (i + 1) * chunkBytes).toString('base64'));
      }
      for (let i = chunks; i < (previous?.chunks ?? 0); i++) entries.set(chunkKey(i), null);
      const manifest: Manifest = {
        session,
        chunks,
        bytes: zip.length,
        sha256: crypto.createHash('sha256').update(zip).digest('hex'),
        savedAt: Date.now(),
      };
      entries.set(MANIFEST_KEY, JSON.stringify(manifest));
      await auth.write(entries);
    },

    async extract({ path: target }) {
      const manifest = await readManifest(auth);
      if (!manifest) throw new Error('no stored whatsapp-web.js session');
      const keys = Array.from({ length: manifest.chunks }, (_, i) => chunkKey(i));
      const found = await auth.read(keys);
      const parts = keys.map((key) => {
        const value = found.get(key);
        if (value === undefined) throw new Error(`stored whatsapp-web.js session is missing ${key}`);
        return Buffer.from(value, 'base64');
      });
      const zip = Buffer.concat(parts);
      const sha256 = crypto.createHash('sha256').update(zip).digest('hex');
      if (zip.length !== manifest.bytes || sha256 !== manifest.sha256) {
        throw new Error('stored whatsapp-web.js session does not match its checksum');
      }
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, zip);
    },

    async delete() {
      if (!options.canDelete()) return;
      await auth.clear();
    },
  };
}
