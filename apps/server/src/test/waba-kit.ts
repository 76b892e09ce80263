/**
 * Test rows for the waba routes, template and window tests: a waba (or Meta) channel, a customer and a ticket whose
 * customer last wrote at a chosen time, and cached templates. Written as the tenant's system context (RLS on).
 */
import crypto from 'node:crypto';
import type { ChannelType } from '@conversa/shared';
import type { Tx } from '../platform/db/client.js';
import { systemContext, withTenant } from '../platform/db/tenancy.js';
import type { TestApp } from './harness.js';
import { contacts } from '../modules/contacts/contacts.tables.js';
import { allocateProtocol } from '../modules/tickets/index.js';
import { tickets } from '../modules/tickets/tickets.tables.js';
import { channels, wabaTemplates } from '../modules/channels/channels.tables.js';

export const HOUR = 3600 * 1000;
export const MINUTE = 60 * 1000;

const asTenant = <T>(t: TestApp, tenantId: number, fn: (tx: Tx) => Promise<T>) =>
  withTenant(t.platform.db, systemContext(tenantId), fn);

export async function makeMetaChannel(
  t: TestApp,
  tenantId: number,
  values: Partial<typeof channels.$inferInsert> & { type?: ChannelType } = {},
): Promise<number> {
  const [row] = await asTenant(t, tenantId, (tx) =>
    tx
      .insert(channels)
      .values({
        tenantId,
        name: `WABA ${crypto.randomBytes(2).toString('hex')}`,
        type: 'waba',
        status: 'CONNECTED',
        webhookSecret: crypto.randomBytes(8).toString('hex'),
        wabaVersion: '20.0',
        ...values,
      })
      .returning({ id: channels.id }),
  );
  return row!.id;
}

export interface ConversationOptions {
  channelId: number;
  channelType?: ChannelType;
  /** The customer's number (waba), PSID (messenger) or IGSID (instagram). */
  customer?: string;
  /** An existing contact (another ticket of the same conversation). */
  contactId?: number;
  userId?: number | null;
  status?: 'open' | 'pending' | 'closed';
  /** When the customer last wrote on this ticket; null: never. */
  lastReceivedAt?: Date | null;
}

/** A customer and a ticket on the channel; answers both ids. */
export async function makeConversation(
  t: TestApp,
  tenantId: number,
  options: ConversationOptions,
): Promise<{ ticketId: number; contactId: number }> {
  const type = options.channelType ?? 'waba';
  const customer = options.customer ?? `55119${crypto.randomInt(10_000_000, 99_999_999)}`;
  return asTenant(t, tenantId, async (tx) => {
    let contactId = options.contactId;
    if (!contactId) {
      const [contact] = await tx
        .insert(contacts)
        .values({
          tenantId,
          name: 'Maria Cliente',
          number: type === 'waba' ? customer : null,
          messengerId: type === 'messenger' ? customer : null,
          instagramPK: type === 'instagram' ? customer : null,
        })
        .returning({ id: contacts.id });
      contactId = contact!.id;
    }
    const [ticket] = await tx
      .insert(tickets)
      .values({
        tenantId,
        contactId,
        channelId: options.channelId,
        channel: type,
        status: options.status ?? 'open',
        userId: options.userId ?? null,
        protocol: await allocateProtocol(tx, tenantId),
        lastMessageReceivedAt: options.lastReceivedAt ?? null,
        ...(options.status === 'closed' ? { closedAt: new Date() } : {}),
      })
      .returning({ id: tickets.id });
    return { ticketId: ticket!.id, contactId };
  });
}

export type TemplateSeed = Pick<typeof wabaTemplates.$inferInsert, 'name' | 'language' | 'status'> &
  Partial<typeof wabaTemplates.$inferInsert>;

/** Cached templates of a channel, as a sync would have left them. */
export async function cacheTemplates(t: TestApp, tenantId: number, channelId: number, rows: TemplateSeed[]) {
  await asTenant(t, tenantId, (tx) =>
    tx.insert(wabaTemplates).values(rows.map((row) => ({ tenantId, channelId, components: [], ...row }))),
  );
}
