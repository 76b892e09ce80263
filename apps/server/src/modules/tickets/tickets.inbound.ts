/**
 * The tickets side of the message pipeline: find-or-create the active ticket of a contact on a channel, and touch a
 * ticket when a message arrives or leaves. One open/pending ticket per (tenant, contact, channel) is a partial unique
 * index; the insert does nothing on conflict and the winner's row is selected, so concurrent first messages of a new
 * contact end on one ticket.
 */
import { eq, sql } from 'drizzle-orm';
import type { ChannelType } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { statement } from '../../platform/db/statements.js';
import { findActiveTicket, insertLog, type TicketRow } from './tickets.repository.js';
import { allocateProtocol } from './tickets.protocol.js';
import { tickets } from './tickets.tables.js';

export interface ActiveTicketRequest {
  contactId: number;
  channelId: number;
  channelType: ChannelType;
  isGroup: boolean;
  /** Status of a new ticket: customers open `pending` tickets; an agent's forward opens one for themself. */
  status: 'pending' | 'open';
  userId: number | null;
  queueId: number | null;
  /** Who caused the creation (the create log row); null for a customer's message. */
  actorUserId: number | null;
}

export async function findOrCreateActiveTicket(
  tx: Tx,
  tenantId: TenantId,
  request: ActiveTicketRequest,
): Promise<{ ticket: TicketRow; created: boolean }> {
  const existing = await findActiveTicket(tx, tenantId, request.contactId, request.channelId);
  if (existing) return { ticket: existing, created: false };
  const protocol = await allocateProtocol(tx, tenantId);
  const [inserted] = await insertActive(tx, {
    tenantId,
    contactId: request.contactId,
    channelId: request.channelId,
    channel: request.channelType,
    status: request.status,
    userId: request.userId,
    queueId: request.queueId,
    isGroup: request.isGroup,
    protocol,
  });
  if (!inserted) {
    // Another transaction created it first (we waited for its commit on the unique index): take that one.
    const winner = await findActiveTicket(tx, tenantId, request.contactId, request.channelId);
    if (!winner) throw new Error('active ticket vanished after a conflicting insert');
    return { ticket: winner, created: false };
  }
  await insertLog(tx, tenantId, {
    ticketId: inserted.id,
    userId: request.actorUserId,
    type: 'create',
    details: { status: request.status, channelId: request.channelId, queueId: request.queueId },
  });
  return { ticket: inserted, created: true };
}

/** A new active ticket, unless the contact has one on that channel already (the partial unique index). */
const insertActive = statement(
  'ticket_insert_active',
  ['tenantId', 'contactId', 'channelId', 'channel', 'status', 'userId', 'queueId', 'isGroup', 'protocol'],
  (q, p) => q.insert(tickets).values(p).onConflictDoNothing().returning(),
);

/** A customer's message arrived: unread +1, waiting for an answer. (`set` takes placeholders inside `sql`.) */
const touchInbound = statement('ticket_touch_inbound', ['id', 'lastMessage', 'at'], (q, p) =>
  q
    .update(tickets)
    .set({
      lastMessage: sql`${p.lastMessage}`,
      lastMessageAt: sql`${p.at}`,
      lastMessageReceivedAt: sql`${p.at}`,
      unreadMessages: sql`${tickets.unreadMessages} + 1`,
      answered: false,
      updatedAt: sql`now()`,
    })
    .where(eq(tickets.id, p.id)),
);

/** An agent (or the system) wrote: answered, nothing left unread. */
const touchOutbound = statement('ticket_touch_outbound', ['id', 'lastMessage', 'at'], (q, p) =>
  q
    .update(tickets)
    .set({
      lastMessage: sql`${p.lastMessage}`,
      lastMessageAt: sql`${p.at}`,
      answered: true,
      unreadMessages: 0,
      updatedAt: sql`now()`,
    })
    .where(eq(tickets.id, p.id)),
);

export async function touchTicketOnInbound(tx: Tx, ticketId: number, lastMessage: string, at: Date): Promise<void> {
  await touchInbound(tx, { id: ticketId, lastMessage, at });
}

export async function touchTicketOnOutbound(tx: Tx, ticketId: number, lastMessage: string, at: Date): Promise<void> {
  await touchOutbound(tx, { id: ticketId, lastMessage, at });
}
