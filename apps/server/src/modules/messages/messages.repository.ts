/** The queries on messages. Every call runs inside a tenant transaction (RLS scopes the rows). */
import { and, asc, desc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.js';
import { statement, statementFamily } from '../../platform/db/statements.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';
import { ticketSummaryColumns, type KnownRelations } from './messages.dto.js';
import { messages } from './messages.tables.js';

import type { MessageInsert, MessagePatch, MessageRow } from './messages.types.js';

export type { MessageInsert, MessagePatch, MessageRow } from './messages.types.js';

/** Inserts unless the provider id (or the idFront) is already stored; undefined for a duplicate. */
export async function insertMessageOnce(tx: Tx, values: MessageInsert): Promise<MessageRow | undefined> {
  const [row] = await tx.insert(messages).values(values).onConflictDoNothing().returning();
  return row;
}

export async function findMessage(tx: Tx, id: number): Promise<MessageRow | undefined> {
  const [row] = await tx.select().from(messages).where(eq(messages.id, id)).limit(1);
  return row;
}

const byProviderId = statementFamily('message_by_provider_id', ['channelId', 'id'], (q, p, lock: boolean) => {
  const query = q
    .select()
    .from(messages)
    .where(and(eq(messages.channelId, p.channelId), eq(messages.messageId, p.id)))
    .limit(1);
  return lock ? query.for('update') : query;
});

/**
 * A channel's message by the provider's id; with `lock`, locked until the transaction ends (acks and edits of one
 * message arrive concurrently).
 */
export async function findByProviderId(
  tx: Tx,
  channelId: number,
  providerMessageId: string,
  lock = false,
): Promise<MessageRow | undefined> {
  const [row] = await byProviderId(tx, lock, { channelId, id: providerMessageId });
  return row;
}

export async function findInTicketByProviderId(
  tx: Tx,
  ticketId: number,
  providerMessageId: string,
): Promise<MessageRow | undefined> {
  const [row] = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.ticketId, ticketId), eq(messages.messageId, providerMessageId)))
    .limit(1);
  return row;
}

export async function findByIdFront(tx: Tx, ticketId: number, idFront: string): Promise<MessageRow | undefined> {
  const [row] = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.ticketId, ticketId), eq(messages.idFront, idFront)))
    .limit(1);
  return row;
}

export async function updateMessage(tx: Tx, id: number, patch: MessagePatch): Promise<MessageRow | undefined> {
  const [row] = await tx
    .update(messages)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(messages.id, id))
    .returning();
  return row;
}

/** An agent's message still waiting for the provider (not a scheduled one): the clients' `messagesOffLine`. */
const waitingToSend: SQL = sql`(${messages.fromMe} and ${messages.status} = 'pending' and ${messages.messageId} is null and ${messages.scheduleDate} is null and not ${messages.isDeleted})`;

/**
 * A page of history with what each message's DTO needs of its ticket and agent, joined by key: a named statement is
 * planned once per connection, so the joins cost less than the two reads they replace.
 */
const historyPage = (onChannel: boolean) =>
  statement(
    onChannel ? 'messages_page' : 'messages_page_no_channel',
    ['contactId', 'channelId', 'limit', 'offset'],
    (q, p) =>
      q
        .select({
          message: messages,
          ticket: ticketSummaryColumns(),
          user: { id: users.id, name: users.name },
        })
        .from(messages)
        .innerJoin(tickets, eq(tickets.id, messages.ticketId))
        .leftJoin(users, eq(users.id, messages.userId))
        .where(
          and(
            eq(messages.contactId, p.contactId),
            onChannel ? eq(messages.channelId, p.channelId) : isNull(messages.channelId),
            sql`not ${waitingToSend}`,
          ),
        )
        .orderBy(desc(messages.id))
        .limit(p.limit)
        .offset(p.offset),
  );
const historyPages = { onChannel: historyPage(true), noChannel: historyPage(false) };

/** One page of a contact's history on a channel, across its tickets, newest first, with the relations it read. */
export async function listHistoryPage(
  tx: Tx,
  scope: { contactId: number; channelId: number | null },
  limit: number,
  offset: number,
): Promise<{ rows: MessageRow[]; known: KnownRelations }> {
  const read = scope.channelId === null ? historyPages.noChannel : historyPages.onChannel;
  const found = await read(tx, { ...scope, limit, offset });
  return {
    rows: found.map((row) => row.message),
    known: {
      tickets: found.map(({ ticket }) => ({ ...ticket, createdAt: ticket.createdAt.toISOString() })),
      users: found.flatMap(({ user }) => (user ? [user] : [])),
    },
  };
}

const waiting = statement('messages_waiting', ['ticketId'], (q, p) =>
  q
    .select()
    .from(messages)
    .where(and(eq(messages.ticketId, p.ticketId), waitingToSend))
    .orderBy(asc(messages.id)),
);

export async function listWaitingToSend(tx: Tx, ticketId: number): Promise<MessageRow[]> {
  return waiting(tx, { ticketId });
}

/** The tenant's agent messages that never reached the provider (pending or given up), for a re-send. */
export async function findStuckSends(tx: Tx): Promise<MessageRow[]> {
  return tx
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.fromMe, true),
        isNull(messages.messageId),
        eq(messages.isDeleted, false),
        isNull(messages.scheduleDate),
        or(eq(messages.status, 'pending'), eq(messages.isDelayed, true)),
      ),
    )
    .orderBy(asc(messages.id));
}
