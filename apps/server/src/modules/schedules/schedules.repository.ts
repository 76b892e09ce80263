/** Queries of the scheduled messages (table comment in schedules.tables.ts). Callers run them inside withTenant. */
import { and, count, desc, eq, inArray, isNotNull, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { contacts } from '../contacts/contacts.tables.js';
import { tenants } from '../tenants/tenants.tables.js';
import { users } from '../users/users.tables.js';
import { scheduledMessages } from './schedules.tables.js';

export type ScheduleRow = typeof scheduledMessages.$inferSelect;
export type NewSchedule = Omit<typeof scheduledMessages.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;
export type SchedulePatch = Partial<Omit<NewSchedule, 'tenantId'>>;

/** A row with the names the list shows. */
export interface ScheduleListRow {
  row: ScheduleRow;
  contactName: string | null;
  userName: string | null;
}

export async function tenantTimezone(tx: Queryable, tenantId: TenantId): Promise<string> {
  const [row] = await tx.select({ timezone: tenants.timezone }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.timezone ?? 'America/Sao_Paulo';
}

export async function insertSchedule(tx: Queryable, values: NewSchedule): Promise<ScheduleRow> {
  const [row] = await tx.insert(scheduledMessages).values(values).returning();
  return row!;
}

/** The caller's own row made with this idFront (a retried create); another user's idFront is not theirs to read. */
export async function findScheduleByIdFront(
  tx: Queryable,
  idFront: string,
  userId: number,
): Promise<ScheduleRow | null> {
  const [row] = await tx
    .select()
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.idFront, idFront), eq(scheduledMessages.userId, userId)))
    .limit(1);
  return row ?? null;
}

/** One row of the transaction's tenant, locked when asked (edits and cancels serialise with the send). */
export async function findSchedule(tx: Queryable, id: number, lock = false): Promise<ScheduleRow | null> {
  const query = tx.select().from(scheduledMessages).where(eq(scheduledMessages.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function updateSchedule(tx: Queryable, id: number, patch: SchedulePatch): Promise<ScheduleRow> {
  const [row] = await tx
    .update(scheduledMessages)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(scheduledMessages.id, id))
    .returning();
  return row!;
}

/**
 * The claim of a due row: only a pending row whose time has come changes, so of two nodes (or a job and the sweeper)
 * running it at once one gets the row and the other waits for its commit and gets nothing.
 */
export async function claimDueSchedule(tx: Queryable, id: number): Promise<ScheduleRow | null> {
  const [row] = await tx
    .update(scheduledMessages)
    .set({ status: 'sending', updatedAt: sql`now()` })
    .where(
      and(
        eq(scheduledMessages.id, id),
        eq(scheduledMessages.status, 'pending'),
        lte(scheduledMessages.scheduleAt, sql`now()`),
      ),
    )
    .returning();
  return row ?? null;
}

/** Due pending rows across tenants (the sweeper's system path), oldest first. */
export async function findDueSchedules(tx: Queryable, limit: number): Promise<{ id: number; tenantId: number }[]> {
  return tx
    .select({ id: scheduledMessages.id, tenantId: scheduledMessages.tenantId })
    .from(scheduledMessages)
    .where(and(eq(scheduledMessages.status, 'pending'), lte(scheduledMessages.scheduleAt, sql`now()`)))
    .orderBy(scheduledMessages.scheduleAt, scheduledMessages.id)
    .limit(limit);
}

export interface ScheduleListFilter {
  /** Only rows of this user, or on these tickets (an agent's view); undefined = every row of the tenant. */
  ownerOrTickets?: { userId: number; ticketIds: number[] };
  ticketId?: number | undefined;
  status?: ScheduleRow['status'] | undefined;
}

function listWhere(filter: ScheduleListFilter): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filter.ownerOrTickets) {
    const { userId, ticketIds } = filter.ownerOrTickets;
    parts.push(
      ticketIds.length > 0
        ? or(eq(scheduledMessages.userId, userId), inArray(scheduledMessages.ticketId, ticketIds))
        : eq(scheduledMessages.userId, userId),
    );
  }
  if (filter.ticketId !== undefined) parts.push(eq(scheduledMessages.ticketId, filter.ticketId));
  if (filter.status !== undefined) parts.push(eq(scheduledMessages.status, filter.status));
  return and(...parts);
}

export async function listSchedules(
  tx: Queryable,
  filter: ScheduleListFilter,
  limit: number,
  offset: number,
): Promise<{ rows: ScheduleListRow[]; total: number }> {
  const where = listWhere(filter);
  const rows = await tx
    .select({ row: scheduledMessages, contactName: contacts.name, userName: users.name })
    .from(scheduledMessages)
    .leftJoin(contacts, eq(contacts.id, scheduledMessages.contactId))
    .leftJoin(users, eq(users.id, scheduledMessages.userId))
    .where(where)
    .orderBy(desc(scheduledMessages.scheduleAt), desc(scheduledMessages.id))
    .limit(limit)
    .offset(offset);
  const [total] = await tx.select({ n: count() }).from(scheduledMessages).where(where);
  return { rows, total: Number(total?.n ?? 0) };
}

/** Names for rows read without the join (one row after a change). */
export async function namesOf(tx: Queryable, row: ScheduleRow): Promise<ScheduleListRow> {
  const [contact] = await tx.select({ name: contacts.name }).from(contacts).where(eq(contacts.id, row.contactId));
  const user = row.userId
    ? (await tx.select({ name: users.name }).from(users).where(eq(users.id, row.userId)))[0]
    : undefined;
  return { row, contactName: contact?.name ?? null, userName: user?.name ?? null };
}

/** The pending rows a ticket shows: scheduled from it, or for its contact on its channel. */
export async function pendingForConversation(
  tx: Queryable,
  ticket: { id: number; contactId: number; channelId: number | null },
): Promise<ScheduleListRow[]> {
  const conversation =
    ticket.channelId === null
      ? eq(scheduledMessages.ticketId, ticket.id)
      : or(
          eq(scheduledMessages.ticketId, ticket.id),
          and(eq(scheduledMessages.contactId, ticket.contactId), eq(scheduledMessages.channelId, ticket.channelId)),
        );
  return tx
    .select({ row: scheduledMessages, contactName: contacts.name, userName: users.name })
    .from(scheduledMessages)
    .leftJoin(contacts, eq(contacts.id, scheduledMessages.contactId))
    .leftJoin(users, eq(users.id, scheduledMessages.userId))
    .where(and(eq(scheduledMessages.status, 'pending'), isNotNull(scheduledMessages.scheduleAt), conversation))
    .orderBy(scheduledMessages.scheduleAt, scheduledMessages.id);
}
