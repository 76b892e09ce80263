/**
 * Customers' profile pictures on WhatsApp session channels (Baileys, whatsapp-web.js). WhatsApp gives a picture only
 * as a short-lived signed link of its CDN, which the web app's CSP would block anyway; so the picture is copied into
 * our media store (charged to the tenant's media quota) and the contact's `profilePicUrl` becomes our own signed URL
 * of it (contacts.avatars.links.ts), which every DTO already carries.
 *
 * When: ingestion (inbox/ingestion.avatars.ts) claims, in its transaction, the contacts of a message on such a
 * channel whose picture was never asked for (a new contact) or last asked for more than a day ago
 * (`claimContactAvatars` sets `avatar_checked_at`), so one contact gets one job a day however many messages it
 * writes, and a contact already asked for costs nothing more (the check reads the row ingestion already has). The job
 * runs in the channel's session queue, on the node whose live session can ask WhatsApp.
 *
 * The job: the session's picture URL (null: none, or hidden by privacy: nothing stored, not asked again for a day;
 * a picture of ours stored before is then removed), downloaded within limits, stored under a key made from its bytes
 * (the same picture again changes nothing), the contact updated and announced (`contacts.updated`); the replaced
 * picture's bytes are deleted.
 */
import crypto from 'node:crypto';
import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Database, Tx } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { asTenantId, systemContext, withTenant, type TenantId } from '../../platform/db/tenancy.js';
import type { JobSpec } from '../../platform/jobs/queue.js';
import { MediaQuotaExceededError } from '../../platform/storage/media-quota.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import { AVATAR_TYPES, AvatarRefusedError, type AvatarMime, type FetchAvatar } from './contacts.avatars.fetch.js';
import type { AvatarLinks } from './contacts.avatars.links.js';
import { loadContactDtos } from './contacts.dto.js';
import { findContact, type ContactRow } from './contacts.repository.js';
import { contacts } from './contacts.tables.js';
import './contacts.events.js';

/** A contact's picture is asked for at most once in this long. */
export const AVATAR_RECHECK_MS = 24 * 60 * 60 * 1000;

export const avatarPayloadSchema = z.object({
  tenantId: z.number().int().positive(),
  contactId: z.number().int().positive(),
  channelId: z.number().int().positive(),
});
export type AvatarPayload = z.infer<typeof avatarPayloadSchema>;

/** Run by the session's owner (a session job handler: inbox/ingestion.avatars.ts). */
export const CONTACT_AVATAR_JOB: JobSpec<AvatarPayload> = {
  name: 'contacts.avatar',
  schema: avatarPayloadSchema,
  retryLimit: 3,
  retryDelaySeconds: 30,
  expireInSeconds: 120,
};

/** Never asked, or last asked more than a day ago. */
export function avatarDue(row: Pick<ContactRow, 'avatarCheckedAt'>, now = Date.now()): boolean {
  return row.avatarCheckedAt === null || row.avatarCheckedAt.getTime() < now - AVATAR_RECHECK_MS;
}

/**
 * The due contacts among these (not blocked, with a number or group id), claimed for a picture job: their
 * `avatar_checked_at` is set unless a concurrent transaction claimed them first. Their ids; no statement at all when
 * none is due.
 */
export async function claimContactAvatars(tx: Tx, rows: readonly (ContactRow | null | undefined)[]): Promise<number[]> {
  const due = [
    ...new Set(rows.filter((r): r is ContactRow => !!r && !r.blocked && !!r.number && avatarDue(r)).map((r) => r.id)),
  ];
  if (due.length === 0) return [];
  const checkedAt = contacts.avatarCheckedAt;
  const claimed = await tx
    .update(contacts)
    .set({ avatarCheckedAt: sql`now()` })
    .where(
      and(
        inArray(contacts.id, due),
        or(isNull(checkedAt), lt(checkedAt, sql`now() - make_interval(secs => ${AVATAR_RECHECK_MS / 1000})`)),
      ),
    )
    .returning({ id: contacts.id });
  return claimed.map((row) => row.id);
}

/**
 * Asks the live session for a chat's picture URL: null when it has none or hides it (or the provider refuses for
 * good); a throw is tried again later.
 */
export type PictureSource = (chatId: string) => Promise<string | null>;

export interface AvatarDeps {
  db: Database;
  events: EventBus;
  /** The media store with the tenants' quota. */
  store: MediaStore;
  links: AvatarLinks;
  fetchAvatar: FetchAvatar;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

const extensionOf = (mime: AvatarMime) => AVATAR_TYPES[mime];

/** The key of a picture: its tenant, its contact and a digest of its bytes (the same picture, the same key). */
function avatarKey(tenantId: number, contactId: number, data: Buffer, mime: AvatarMime): string {
  const digest = crypto.createHash('sha256').update(data).digest('hex').slice(0, 32);
  return `${tenantId}/avatar-${contactId}-${digest}${extensionOf(mime)}`;
}

/** The type a stored key was saved as (its extension). */
export function avatarMimeOf(key: string): AvatarMime | null {
  const found = Object.entries(AVATAR_TYPES).find(([, ext]) => key.endsWith(ext));
  return found ? (found[0] as AvatarMime) : null;
}

export function createContactAvatars(deps: AvatarDeps) {
  const log = (contact: { id: number }, message: string, extra: object = {}) =>
    deps.logger?.info({ contactId: contact.id, ...extra }, `contact avatar: ${message}`);

  /**
   * Points the contact at a new picture (null: none): only if its stored picture is still the one this job saw, so a
   * concurrent run never loses a newer picture. The bytes of the picture that is no longer referenced are deleted.
   */
  async function replace(tenantId: TenantId, seen: ContactRow, key: string | null): Promise<void> {
    const dto = await withTenant(deps.db, systemContext(tenantId), async (tx) => {
      const [row] = await tx
        .update(contacts)
        .set({
          avatarKey: key,
          profilePicUrl: key ? deps.links.url({ tenantId, contactId: seen.id, key }) : null,
          updatedAt: sql`now()`,
        })
        .where(
          and(
            eq(contacts.id, seen.id),
            seen.avatarKey === null ? isNull(contacts.avatarKey) : eq(contacts.avatarKey, seen.avatarKey),
          ),
        )
        .returning();
      return row ? ((await loadContactDtos(tx, [row]))[0] ?? null) : null;
    });
    if (!dto) {
      if (key) await deps.store.delete(key);
      return;
    }
    if (seen.avatarKey) await deps.store.delete(seen.avatarKey);
    deps.events.publish('contacts.updated', { tenantId, contact: dto });
  }

  return {
    /** The job, on the session's owner; `ask` is null when the session's driver cannot tell pictures. */
    async run(payload: AvatarPayload, ask: PictureSource | null): Promise<void> {
      const tenantId = asTenantId(payload.tenantId);
      const contact = await withTenant(deps.db, systemContext(tenantId), (tx) =>
        findContact(tx, tenantId, payload.contactId),
      );
      if (!ask || !contact?.number || contact.blocked) return;
      const url = await ask(contact.number);
      if (url === null) {
        log(contact, 'no picture');
        if (contact.avatarKey) await replace(tenantId, contact, null);
        return;
      }
      let file;
      try {
        file = await deps.fetchAvatar(url);
      } catch (error) {
        if (!(error instanceof AvatarRefusedError)) throw error;
        deps.logger?.warn({ contactId: contact.id, reason: error.message }, 'contact avatar: picture refused');
        return;
      }
      const key = avatarKey(tenantId, contact.id, file.data, file.mime);
      if (key === contact.avatarKey) return log(contact, 'unchanged');
      try {
        await deps.store.put(key, file.data, file.mime);
      } catch (error) {
        // A full quota does not free itself by retrying; the contact keeps what it had, asked again in a day.
        if (!(error instanceof MediaQuotaExceededError)) throw error;
        deps.logger?.warn({ contactId: contact.id }, 'contact avatar: media quota exceeded');
        return;
      }
      await replace(tenantId, contact, key);
    },

    /** The stored picture a token names, if the contact still shows it; null for anything else. */
    async open(token: string) {
      const claims = deps.links.verify(token);
      if (!claims) return null;
      const mime = avatarMimeOf(claims.key);
      if (!mime) return null;
      const tenantId = asTenantId(claims.tenantId);
      // The signed token names the tenant: the look-up runs inside it (RLS).
      const contact = await withTenant(deps.db, systemContext(tenantId), (tx) =>
        findContact(tx, tenantId, claims.contactId),
      );
      if (contact?.avatarKey !== claims.key) return null;
      const stored = await deps.store.get(claims.key);
      return stored ? { ...stored, mime } : null;
    },
  };
}

export type ContactAvatars = ReturnType<typeof createContactAvatars>;
