/** The queries on ratings (ticket_evaluations), and the ticket columns a rating conversation changes. */
import { and, asc, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { contacts } from '../contacts/contacts.tables.js';
import { messages } from '../messages/messages.tables.js';
import { ticketLogs, tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';
import { ticketEvaluations, type EvaluationStatus } from './evaluations.tables.js';

export type EvaluationRow = typeof ticketEvaluations.$inferSelect;

export interface EvaluationFilter {
  from?: Date | undefined;
  to?: Date | undefined;
  userId?: number | null | undefined;
  status?: EvaluationStatus | undefined;
}

const listColumns = {
  evaluation: ticketEvaluations,
  userName: users.name,
  ticketStatus: tickets.status,
  contactId: contacts.id,
  contactName: contacts.name,
};

export type EvaluationListRow = {
  evaluation: EvaluationRow;
  userName: string | null;
  ticketStatus: string;
  contactId: number;
  contactName: string;
};

function joined(tx: Queryable) {
  return tx
    .select(listColumns)
    .from(ticketEvaluations)
    .innerJoin(tickets, eq(tickets.id, ticketEvaluations.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, ticketEvaluations.userId));
}

export async function listEvaluations(
  tx: Queryable,
  tenantId: TenantId,
  filter: EvaluationFilter,
): Promise<EvaluationListRow[]> {
  const where: SQL[] = [eq(ticketEvaluations.tenantId, tenantId)];
  if (filter.from) where.push(gte(ticketEvaluations.createdAt, filter.from));
  if (filter.to) where.push(lt(ticketEvaluations.createdAt, filter.to));
  if (filter.userId) where.push(eq(ticketEvaluations.userId, filter.userId));
  if (filter.status) where.push(eq(ticketEvaluations.status, filter.status));
  return joined(tx)
    .where(and(...where))
    .orderBy(desc(ticketEvaluations.createdAt), desc(ticketEvaluations.id))
    .limit(5000);
}

export async function findEvaluationRow(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
): Promise<EvaluationListRow | undefined> {
  const [row] = await joined(tx).where(and(eq(ticketEvaluations.tenantId, tenantId), eq(ticketEvaluations.id, id)));
  return row;
}

export async function lockEvaluation(tx: Queryable, tenantId: TenantId, id: number) {
  const [row] = await tx
    .select()
    .from(ticketEvaluations)
    .where(and(eq(ticketEvaluations.tenantId, tenantId), eq(ticketEvaluations.id, id)))
    .for('update');
  return row;
}

export async function lockWaitingEvaluation(
  tx: Queryable,
  tenantId: TenantId,
  ticketId: number,
): Promise<EvaluationRow | undefined> {
  const [row] = await tx
    .select()
    .from(ticketEvaluations)
    .where(
      and(
        eq(ticketEvaluations.tenantId, tenantId),
        eq(ticketEvaluations.ticketId, ticketId),
        eq(ticketEvaluations.status, 'waiting'),
      ),
    )
    .for('update');
  return row;
}

export async function insertEvaluation(
  tx: Queryable,
  values: { tenantId: TenantId; ticketId: number; userId: number | null; evaluation: string; attempts?: number },
): Promise<EvaluationRow> {
  const [row] = await tx.insert(ticketEvaluations).values(values).returning();
  return row!;
}

export async function updateEvaluation(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  patch: Partial<Pick<EvaluationRow, 'evaluation' | 'attempts' | 'value' | 'status'>>,
): Promise<EvaluationRow | undefined> {
  const [row] = await tx
    .update(ticketEvaluations)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(ticketEvaluations.tenantId, tenantId), eq(ticketEvaluations.id, id)))
    .returning();
  return row;
}

export async function deleteEvaluation(tx: Queryable, tenantId: TenantId, id: number): Promise<EvaluationRow | null> {
  const [row] = await tx
    .delete(ticketEvaluations)
    .where(and(eq(ticketEvaluations.tenantId, tenantId), eq(ticketEvaluations.id, id)))
    .returning();
  return row ?? null;
}

/** The ratings of a ticket that have a value (`GET /ticketEvaluations/{ticketId}/logs`). */
export async function listTicketRatings(tx: Queryable, tenantId: TenantId, ticketId: number) {
  return tx
    .select({
      id: ticketEvaluations.id,
      value: ticketEvaluations.value,
      createdAt: ticketEvaluations.createdAt,
      userName: users.name,
    })
    .from(ticketEvaluations)
    .leftJoin(users, eq(users.id, ticketEvaluations.userId))
    .where(and(eq(ticketEvaluations.tenantId, tenantId), eq(ticketEvaluations.ticketId, ticketId)))
    .orderBy(asc(ticketEvaluations.createdAt), asc(ticketEvaluations.id));
}

/** The customer's texts on the ticket since the rating menu was sent, oldest first (the answers to read). */
export async function customerTextsSince(tx: Queryable, tenantId: TenantId, ticketId: number, since: Date) {
  return tx
    .select({ id: messages.id, body: messages.body })
    .from(messages)
    .where(
      and(
        eq(messages.tenantId, tenantId),
        eq(messages.ticketId, ticketId),
        eq(messages.fromMe, false),
        gte(messages.createdAt, since),
      ),
    )
    .orderBy(asc(messages.createdAt), asc(messages.id));
}

/** Marks whether the ticket waits for a rating answer (ingestion reads the flag with the ticket row it has). */
export async function setAwaitingRating(
  tx: Queryable,
  tenantId: TenantId,
  ticketId: number,
  awaiting: boolean,
  reasonId?: number | null,
): Promise<void> {
  await tx
    .update(tickets)
    .set({ awaitingRating: awaiting, ...(reasonId !== undefined ? { reasonId } : {}), updatedAt: sql`now()` })
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.id, ticketId)));
}

/** Closes a ticket at the end of its rating conversation, with its `closed` log. */
export async function closeRatedTicket(
  tx: Queryable,
  tenantId: TenantId,
  ticket: { id: number; status: string },
  userId: number | null,
  details: Record<string, unknown>,
): Promise<void> {
  await tx
    .update(tickets)
    .set({
      status: 'closed',
      closedAt: new Date(),
      closingAt: null,
      unreadMessages: 0,
      awaitingRating: false,
      updatedAt: sql`now()`,
    })
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.id, ticket.id)));
  await tx.insert(ticketLogs).values({
    tenantId,
    ticketId: ticket.id,
    userId,
    type: 'closed',
    details: { from: { status: ticket.status }, to: { status: 'closed' }, ...details },
  });
}
