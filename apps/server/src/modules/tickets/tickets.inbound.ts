/**
 * The tickets side of the message pipeline: find-or-create the active ticket of a contact on a channel, and touch a
 * ticket when a message arrives or leaves. One open/pending ticket per (tenant, contact, channel) is a partial unique
 * index; the insert does nothing on conflict and the winner's row is selected, so concurrent first messages of a new
 * contact end on one ticket.
 */
import { and, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { ChannelType } from '@conversa/shared';
import type { Queryable, Tx } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { idIn, idList, statement, statementFamily } from '../../platform/db/statements.js';
import { findActiveTicket, insertLog, statusIn, type TicketRow } from './tickets.repository.js';
import { allocateProtocol, allocateProtocols } from './tickets.protocol.js';
import { ticketLogs, tickets } from './tickets.tables.js';

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

/** The active tickets of these contacts on one channel. */
const activeTicketsOf = statement('tickets_active_many', ['tenantId', 'contactIds', 'channelId'], (q, p) =>
  q
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.tenantId, p.tenantId),
        idIn(tickets.contactId, p.contactIds),
        sql`coalesce(tickets.channel_id, 0) = ${p.channelId}`,
        statusIn(['open', 'pending']),
      ),
    ),
);

/**
 * `findOrCreateActiveTicket` for the contacts of one channel's batch: the existing tickets in one statement, the new
 * ones with a block of protocol numbers, one insert and one insert of their create logs. A contact whose ticket
 * another transaction created meanwhile goes through `findOrCreateActiveTicket`. Same order as `requests`; every
 * request must name the same channel.
 */
export async function findOrCreateActiveTickets(
  tx: Tx,
  tenantId: TenantId,
  requests: readonly ActiveTicketRequest[],
): Promise<{ ticket: TicketRow; created: boolean }[]> {
  const channelId = requests[0]?.channelId;
  if (channelId === undefined) return [];
  if (requests.some((r) => r.channelId !== channelId)) throw new Error('one channel per batch of ticket requests');
  const contactIds = [...new Set(requests.map((r) => r.contactId))];
  const rows = await activeTicketsOf(tx, { tenantId, contactIds: idList(contactIds), channelId });
  const result = new Map(rows.map((ticket) => [ticket.contactId, { ticket, created: false }]));
  const missing = contactIds.flatMap((id) => (result.has(id) ? [] : [requests.find((r) => r.contactId === id)!]));
  if (missing.length > 0) {
    const protocols = await allocateProtocols(tx, tenantId, missing.length);
    const inserted = await tx
      .insert(tickets)
      .values(
        missing.map((request, i) => ({
          tenantId,
          contactId: request.contactId,
          channelId: request.channelId,
          channel: request.channelType,
          status: request.status,
          userId: request.userId,
          queueId: request.queueId,
          isGroup: request.isGroup,
          protocol: protocols[i]!,
        })),
      )
      .onConflictDoNothing()
      .returning();
    for (const ticket of inserted) result.set(ticket.contactId, { ticket, created: true });
    if (inserted.length > 0) {
      await tx.insert(ticketLogs).values(
        inserted.map((ticket) => {
          const request = missing.find((r) => r.contactId === ticket.contactId)!;
          return {
            tenantId,
            ticketId: ticket.id,
            userId: request.actorUserId,
            type: 'create' as const,
            details: { status: request.status, channelId: request.channelId, queueId: request.queueId },
          };
        }),
      );
    }
    for (const request of missing) {
      if (!result.has(request.contactId)) {
        result.set(request.contactId, await findOrCreateActiveTicket(tx, tenantId, request));
      }
    }
  }
  return requests.map((r) => result.get(r.contactId)!);
}

/** A new active ticket, unless the contact has one on that channel already (the partial unique index). */
const insertActive = statement(
  'ticket_insert_active',
  ['tenantId', 'contactId', 'channelId', 'channel', 'status', 'userId', 'queueId', 'isGroup', 'protocol'],
  (q, p) => q.insert(tickets).values(p).onConflictDoNothing().returning(),
);

/**
 * A message arrived (`outbound` false: the customer's, unread +1, waiting for an answer) or left (an agent or the
 * system wrote: answered, nothing unread), as a query for statements: `when` guards it (the inbound message insert
 * runs it in the same statement, only when the message was stored). `set` takes placeholders inside `sql`.
 */
export function ticketTouch(
  q: Queryable,
  p: Record<'ticketId' | 'lastMessage' | 'at', Placeholder>,
  outbound: boolean,
  when?: SQL,
) {
  const common = { lastMessage: sql`${p.lastMessage}`, lastMessageAt: sql`${p.at}`, updatedAt: sql`now()` };
  return q
    .update(tickets)
    .set(
      outbound
        ? { ...common, answered: true, unreadMessages: 0 }
        : {
            ...common,
            lastMessageReceivedAt: sql`${p.at}`,
            unreadMessages: sql`${tickets.unreadMessages} + 1`,
            answered: false,
          },
    )
    .where(and(eq(tickets.id, p.ticketId), when));
}

const touch = statementFamily('ticket_touch', ['ticketId', 'lastMessage', 'at'], (q, p, outbound: boolean) =>
  ticketTouch(q, p, outbound),
);

export async function touchTicketOnOutbound(tx: Tx, ticketId: number, lastMessage: string, at: Date): Promise<void> {
  await touch(tx, true, { ticketId, lastMessage, at });
}
