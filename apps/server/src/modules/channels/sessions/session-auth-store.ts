/**
 * A session's auth state at rest (`channel_auth_keys`): each value encrypted with AES-256-GCM under the installation's
 * session key (`secrets.sessionKey`), a fresh 12-byte IV per write, the channel and key name as associated data (a
 * value copied to another row or channel does not decrypt). Every call is one transaction of the channel's tenant, so
 * RLS applies as for any tenant table.
 */
import crypto from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../../platform/db/client.js';
import { systemContext, withTenant } from '../../../platform/db/tenancy.js';
import { channelAuthKeys } from '../channels.tables.js';
import type { AuthStateStore } from './session-driver.js';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The 32-byte AES key from the configured secret (base64url of 32 bytes; any other text is hashed to 32 bytes). */
export function sessionCipherKey(secret: string): Buffer {
  const decoded = Buffer.from(secret, 'base64url');
  return decoded.length === 32 ? decoded : crypto.createHash('sha256').update(secret).digest();
}

export function encryptValue(key: Buffer, aad: string, plaintext: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** Throws when the value was not written under this key and associated data (tampered, moved, another key). */
export function decryptValue(key: Buffer, aad: string, stored: string): string {
  const raw = Buffer.from(stored, 'base64');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

export function createAuthStateStore(deps: {
  db: Database;
  secret: string;
  tenantId: number;
  channelId: number;
}): AuthStateStore {
  const key = sessionCipherKey(deps.secret);
  const ctx = systemContext(deps.tenantId);
  const aad = (name: string) => `${deps.channelId}:${name}`;
  const ofChannel = eq(channelAuthKeys.channelId, deps.channelId);

  return {
    async read(keys) {
      const found = new Map<string, string>();
      if (keys.length === 0) return found;
      const rows = await withTenant(deps.db, ctx, (tx) =>
        tx
          .select({ key: channelAuthKeys.key, value: channelAuthKeys.value })
          .from(channelAuthKeys)
          .where(and(ofChannel, inArray(channelAuthKeys.key, keys))),
      );
      for (const row of rows) found.set(row.key, decryptValue(key, aad(row.key), row.value));
      return found;
    },

    async write(entries) {
      const upserts: { key: string; value: string }[] = [];
      const deletes: string[] = [];
      for (const [name, value] of entries) {
        if (value === null) deletes.push(name);
        else upserts.push({ key: name, value: encryptValue(key, aad(name), value) });
      }
      if (upserts.length === 0 && deletes.length === 0) return;
      await withTenant(deps.db, ctx, async (tx) => {
        if (deletes.length > 0) {
          await tx.delete(channelAuthKeys).where(and(ofChannel, inArray(channelAuthKeys.key, deletes)));
        }
        if (upserts.length > 0) {
          const now = new Date();
          await tx
            .insert(channelAuthKeys)
            .values(upserts.map((u) => ({ ...u, channelId: deps.channelId, tenantId: deps.tenantId, updatedAt: now })))
            .onConflictDoUpdate({
              target: [channelAuthKeys.channelId, channelAuthKeys.key],
              set: { value: sql`excluded.value`, updatedAt: now },
            });
        }
      });
    },

    async clear() {
      await withTenant(deps.db, ctx, (tx) => tx.delete(channelAuthKeys).where(ofChannel));
    },
  };
}
