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
import {
  arrayLiteral,
  idIn,
  idList,
  rawTableRows,
  statement,
  statementFamily,
  tableColumnList,
} from '../../platform/db/statements.js';
import { activeTicketWhere, findActiveTicket, insertLog, type TicketRow } from './tickets.repository.js';
import { allocateProtocol, allocateProtocols } from './tickets.protocol.js';
import { tickets } from './tickets.tables.js';

export interface ActiveTicketRequest {
  contactId: number;
  channelId: number;
  channelType: ChannelType;
  isGroup: boolean;
  /**
   * Status of a new ticket: customers open `pending` tickets; an agent's forward opens one for themself; a campaign's
   * send to a contact without an active ticket keeps its message on a `closed` one (not in the agents' queues).
   */
  status: 'pending' | 'open' | 'closed';
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
    .where(activeTicketWhere(p.tenantId, idIn(tickets.contactId, p.contactIds), p.channelId)),
);

/**
 * New active tickets and their create logs in one statement: the contacts and protocols travel as arrays, the rest is
 * the same for all; a contact that has an active ticket already (the partial unique index) is skipped.
 */
const insertActiveMany = statement(
  'tickets_insert_active_many',
  ['tenantId', 'contactIds', 'protocols', 'channelId', 'channel', 'status', 'userId', 'queueId', 'isGroup', 'actor'],
  (q, p) =>
    rawTableRows(
      q,
      sql`with inserted as (
            insert into tickets (tenant_id, contact_id, channel_id, channel, status, user_id, queue_id, is_group,
              protocol)
            select ${p.tenantId}::bigint, i.contact_id, ${p.channelId}::bigint, ${p.channel}::text, ${p.status}::text,
              ${p.userId}::bigint, ${p.queueId}::bigint, ${p.isGroup}::boolean, i.protocol
            from unnest(${p.contactIds}::bigint[], ${p.protocols}::text[]) with ordinality as i(contact_id, protocol, ord)
            order by i.ord
            on conflict do nothing
            returning ${tableColumnList(tickets)}
          ),
          logs as (
            insert into ticket_logs (tenant_id, ticket_id, user_id, type, details)
            select tenant_id, id, ${p.actor}::bigint, 'create',
              jsonb_build_object('status', status, 'channelId', channel_id, 'queueId', queue_id)
            from inserted
          )
          select ${tableColumnList(tickets)} from inserted`,
      tickets,
    ),
);

/**
 * `findOrCreateActiveTicket` for many contacts of one channel, with the same request otherwise (`base`): the existing
 * tickets in one statement, the new ones with a block of protocol numbers and one insert (with their create logs). A
 * contact whose ticket another transaction created meanwhile goes through `findOrCreateActiveTicket`.
 */
export async function findOrCreateActiveTickets(
  tx: Tx,
  tenantId: TenantId,
  base: Omit<ActiveTicketRequest, 'contactId'>,
  contactIds: readonly number[],
): Promise<Map<number, { ticket: TicketRow; created: boolean }>> {
  const distinct = [...new Set(contactIds)];
  const result = new Map<number, { ticket: TicketRow; created: boolean }>();
  if (distinct.length === 0) return result;
  const rows = await activeTicketsOf(tx, { tenantId, contactIds: idList(distinct), channelId: base.channelId });
  for (const ticket of rows) result.set(ticket.contactId, { ticket, created: false });
  const missing = distinct.filter((id) => !result.has(id));
  if (missing.length === 0) return result;
  const protocols = await allocateProtocols(tx, tenantId, missing.length);
  const inserted = await insertActiveMany(tx, {
    tenantId,
    contactIds: idList(missing),
    protocols: arrayLiteral(protocols),
    channelId: base.channelId,
    channel: base.channelType,
    status: base.status,
    userId: base.userId,
    queueId: base.queueId,
    isGroup: base.isGroup,
    actor: base.actorUserId,
  });
  for (const ticket of inserted) result.set(ticket.contactId, { ticket, created: true });
  for (const contactId of missing) {
    // Created by another transaction meanwhile (we waited for its commit on the unique index).
    if (!result.has(contactId)) {
      result.set(contactId, await findOrCreateActiveTicket(tx, tenantId, { ...base, contactId }));
    }
  }
  return result;
}

/** A new active ticket, unless the contact has one on that channel already (the partial unique index). */
const insertActive = statement(
  'ticket_insert_active',
  ['tenantId', 'contactId', 'channelId', 'channel', 'status', 'userId', 'queueId', 'isGroup', 'protocol'],
  (q, p) => q.insert(tickets).values(p).onConflictDoNothing().returning(),
);

/**
 * A message arrived (`outbound` false: the customer's, unread +1, waiting for an answer) or left (`true`: an agent or
 * the farewell wrote: answered, nothing unread; `'automated'`: the bot or the absence message wrote: only the newest
 * message, unread and answered as they were) or was imported (`'imported'`, see `importedTouch`), as a query for
 * statements: `when` guards it (the inbound message insert runs it in the same statement, only when the message was
 * stored). `set` takes placeholders inside `sql`.
 */
export function ticketTouch(
  q: Queryable,
  p: Record<'ticketId' | 'lastMessage' | 'at', Placeholder>,
  outbound: boolean | 'imported' | 'automated',
  when?: SQL,
  /** A customer's message: when they wrote it (see inboundTouch); default `at`. */
  receivedAt?: SQL,
) {
  const [lastMessage, at] = [sql`${p.lastMessage}`, sql`${p.at}`];
  return q
    .update(tickets)
    .set(
      outbound === 'imported'
        ? importedTouch(lastMessage, at)
        : outbound === 'automated'
          ? { lastMessage, lastMessageAt: at, updatedAt: sql`now()` }
          : outbound
            ? { lastMessage, lastMessageAt: at, updatedAt: sql`now()`, answered: true, unreadMessages: 0 }
            : inboundTouch(lastMessage, at, sql`1`, receivedAt),
    )
    .where(and(eq(tickets.id, p.ticketId), when));
}

/**
 * A message imported from a session's history (H8), `at` its own time: shown when it is the ticket's newest; nothing
 * unread, the answer state left as it is.
 */
function importedTouch(lastMessage: SQL, at: SQL) {
  const newest = sql`(${tickets.lastMessageAt} is null or ${tickets.lastMessageAt} <= ${at}::timestamptz)`;
  return {
    lastMessage: sql`case when ${newest} then ${lastMessage} else ${tickets.lastMessage} end`,
    lastMessageAt: sql`case when ${newest} then ${at}::timestamptz else ${tickets.lastMessageAt} end`,
    updatedAt: sql`now()`,
  };
}

/**
 * What customers' messages do to their ticket: show the newest, count `received` more unread, wait for an answer.
 * `lastMessageReceivedAt` is when the customer wrote (the provider's time, never later than the arrival, never moved
 * back by a late delivery of an older message): Meta's 24-hour window counts from it (tickets.window.ts).
 */
function inboundTouch(lastMessage: SQL, at: SQL, received: SQL, receivedAt: SQL = at) {
  return {
    lastMessage,
    lastMessageAt: at,
    lastMessageReceivedAt: sql`greatest(${tickets.lastMessageReceivedAt}, ${receivedAt})`,
    unreadMessages: sql`${tickets.unreadMessages} + ${received}`,
    answered: false,
    updatedAt: sql`now()`,
  };
}

/**
 * The inbound touch of many tickets in one statement (a batch of customers' messages, messages.inbound.ts): `source`
 * names a relation of the statement (a CTE) with one row per ticket: `ticket_id`, `preview` (its newest message), `n`
 * (how many arrived) and `received_at` (when the customer wrote the newest, see inboundTouch).
 */
export function ticketTouchMany(q: Queryable, source: string, at: Placeholder) {
  if (!/^[a-z_]+$/.test(source)) throw new Error(`invalid relation name ${source}`);
  const column = (name: string) => sql.raw(`${source}.${name}`);
  return q
    .update(tickets)
    .set(inboundTouch(column('preview'), sql`${at}::timestamptz`, column('n'), column('received_at')))
    .from(sql.raw(source))
    .where(eq(tickets.id, column('ticket_id')))
    .returning({ id: tickets.id });
}

const touch = statementFamily(
  'ticket_touch',
  ['ticketId', 'lastMessage', 'at'],
  (q, p, outbound: boolean | 'automated') => ticketTouch(q, p, outbound),
);

/**
 * A message left on the ticket. An agent's (or the farewell's) answers the customer: nothing unread, answered.
 * An `automated` one (the chatbot's steps, the absence message) only shows as the newest: the customer's messages
 * stay unread and unanswered for the agent who takes the ticket after the bot.
 */
export async function touchTicketOnOutbound(
  tx: Tx,
  ticketId: number,
  lastMessage: string,
  at: Date,
  automated = false,
): Promise<void> {
  await touch(tx, automated ? 'automated' : true, { ticketId, lastMessage, at });
}
