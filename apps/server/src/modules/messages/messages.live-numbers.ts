/**
 * Number checks through a live WhatsApp session (POST /checkContacts, GET /contactsNumber/{number}): is a number on
 * WhatsApp, for every contact of the tenant in batches or for one number (its contact found or made).
 */
import { and, eq, gt, isNotNull, ne } from 'drizzle-orm';
import { z } from 'zod';
import type { ContactDto } from '@conversa/shared';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import { CHECK_BATCH, type ChannelRow } from '../channels/index.js';
import { channels } from '../channels/channels.tables.js';
import { loadContactDtos, upsertInboundContact } from '../contacts/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { connectedChannels, maxContactId, onSession, SYNC_BATCH, type LiveDeps } from './messages.live-session.js';

/** The channel a number check goes through: the default one when it is a connected live channel, else the first. */
async function checkChannel(deps: LiveDeps, ctx: TenantContext): Promise<ChannelRow> {
  return withTenant(deps.pipeline.db, ctx, async (tx) => {
    const [first] = await connectedChannels(tx, ctx);
    if (first) return first;
    // A connected channel of another kind (Telegram has no numbers): the operation is not one of its.
    const [other] = await tx
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.tenantId, ctx.tenantId), eq(channels.status, 'CONNECTED'), ne(channels.type, 'telegram')))
      .limit(1);
    throw fail(other ? 'ERR_CHANNEL_TYPE_UNSUPPORTED' : 'ERR_WAPP_NOT_INITIALIZED');
  });
}

/** POST /checkContacts: every contact with a number (not groups), in batches, through one connected session. */
export async function checkContacts(deps: LiveDeps, ctx: TenantContext) {
  const channel = await checkChannel(deps, ctx);
  const counts = { checked: 0, valid: 0, invalid: 0, failed: 0 };
  let after = 0;
  for (;;) {
    const page = await withTenant(deps.pipeline.db, ctx, (tx) =>
      tx
        .select({ id: contacts.id, number: contacts.number })
        .from(contacts)
        .where(
          and(
            eq(contacts.tenantId, ctx.tenantId),
            eq(contacts.isGroup, false),
            isNotNull(contacts.number),
            gt(contacts.id, after),
          ),
        )
        .orderBy(contacts.id)
        .limit(SYNC_BATCH),
    );
    if (page.length === 0) break;
    after = page[page.length - 1]!.id;
    const numbers = page.map((c) => c.number!).filter((n) => /^\d{5,20}$/.test(n));
    counts.checked += page.length;
    counts.failed += page.length - numbers.length;
    for (let i = 0; i < numbers.length; i += CHECK_BATCH) {
      const batch = numbers.slice(i, i + CHECK_BATCH);
      const results = await onSession(() =>
        deps.ops().run({ op: 'checkNumbers', channelId: channel.id, numbers: batch }),
      );
      for (const r of results) {
        if (r.failed) counts.failed += 1;
        else if (r.check.exists) counts.valid += 1;
        else counts.invalid += 1;
      }
    }
  }
  return {
    message:
      `${counts.checked} contacts checked: ${counts.valid} on WhatsApp, ${counts.invalid} not on WhatsApp, ` +
      `${counts.failed} could not be checked`,
    ...counts,
  };
}

/** GET /contactsNumber/{number}: is it on WhatsApp? The contact with the number WhatsApp knows (found or made). */
export async function contactByNumber(deps: LiveDeps, ctx: TenantContext, number: string): Promise<ContactDto> {
  const channel = await checkChannel(deps, ctx);
  const check = await onSession(
    () => deps.ops().act({ op: 'checkNumber', channelId: channel.id, number }),
    'ERR_WAPP_CHECK_CONTACT',
  );
  const parsed = z.object({ exists: z.boolean(), number: z.string().nullable() }).safeParse(check);
  if (!parsed.success) throw fail('ERR_WAPP_CHECK_CONTACT');
  if (!parsed.data.exists) throw fail('ERR_CONTACTS_NOT_EXISTS_WHATSAPP');
  const known = parsed.data.number?.replace(/\D/g, '') || number;
  const result = await withTenant(deps.pipeline.db, ctx, async (tx) => {
    const before = await maxContactId(tx, ctx);
    const row = await upsertInboundContact(tx, ctx.tenantId, {
      id: known,
      idField: 'number',
      name: '',
      number: known,
      isGroup: false,
    });
    if (!row) throw fail('ERR_WAPP_INVALID_CONTACT');
    const [dto] = await loadContactDtos(tx, [row]);
    return { dto: dto!, created: row.id > before };
  });
  if (result.created) deps.pipeline.events.publish('contacts.created', { tenantId: ctx.tenantId, contact: result.dto });
  return result.dto;
}
