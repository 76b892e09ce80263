/** The queries on ticket notes; every read of notes goes through the ticket visibility policy. */
import { and, asc, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { containing } from '../../platform/db/search.js';
import { contacts } from '../contacts/contacts.tables.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';
import { ticketNotes } from './notes.tables.js';
import { ticketAudienceSql, visibleTicketSql } from './notes.visibility.js';

export type NoteRow = typeof ticketNotes.$inferSelect;
export type NoteWithNames = NoteRow & { userName: string | null; contactName: string };

const columns = { row: ticketNotes, userName: users.name, contactName: contacts.name };
const flatten = (r: { row: NoteRow; userName: string | null; contactName: string }): NoteWithNames => ({
  ...r.row,
  userName: r.userName,
  contactName: r.contactName,
});

function notesOfVisibleTickets(tx: Queryable, ctx: AuthedContext, where: SQL | undefined) {
  return tx
    .select({ ...columns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(ticketNotes)
    .innerJoin(tickets, eq(tickets.id, ticketNotes.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, ticketNotes.userId))
    .where(and(eq(ticketNotes.tenantId, ctx.tenantId), visibleTicketSql(ctx), where));
}

/** The notes of every ticket the caller may see, newest first; search by text, contact name or ticket number. */
export async function listVisibleNotes(
  tx: Queryable,
  ctx: AuthedContext,
  page: { limit: number; offset: number; search?: string | undefined },
): Promise<{ rows: NoteWithNames[]; count: number }> {
  const term = page.search?.trim();
  const search = term
    ? or(
        ilike(ticketNotes.notes, containing(term)),
        ilike(contacts.name, containing(term)),
        /^\d{1,15}$/.test(term) ? eq(ticketNotes.ticketId, Number(term)) : undefined,
      )
    : undefined;
  const rows = await notesOfVisibleTickets(tx, ctx, search)
    .orderBy(desc(ticketNotes.createdAt), desc(ticketNotes.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows: rows.map(flatten), count: rows[0]?.total ?? 0 };
}

/** The notes of one ticket (already checked visible), oldest first, as the chat shows them. */
export async function listTicketNotes(tx: Queryable, tenantId: TenantId, ticketId: number): Promise<NoteWithNames[]> {
  const rows = await tx
    .select(columns)
    .from(ticketNotes)
    .innerJoin(tickets, eq(tickets.id, ticketNotes.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, ticketNotes.userId))
    .where(and(eq(ticketNotes.tenantId, tenantId), eq(ticketNotes.ticketId, ticketId)))
    .orderBy(asc(ticketNotes.createdAt), asc(ticketNotes.id))
    .limit(1000);
  return rows.map(flatten);
}

/** One note of a ticket the caller may see, locked until the transaction ends. */
export async function lockVisibleNote(tx: Queryable, ctx: AuthedContext, id: number): Promise<NoteRow | undefined> {
  const [row] = await tx
    .select({ row: ticketNotes })
    .from(ticketNotes)
    .innerJoin(tickets, eq(tickets.id, ticketNotes.ticketId))
    .where(and(eq(ticketNotes.tenantId, ctx.tenantId), eq(ticketNotes.id, id), visibleTicketSql(ctx)))
    .for('update', { of: ticketNotes });
  return row?.row;
}

export async function loadNote(tx: Queryable, tenantId: TenantId, id: number): Promise<NoteWithNames | undefined> {
  const [row] = await tx
    .select(columns)
    .from(ticketNotes)
    .innerJoin(tickets, eq(tickets.id, ticketNotes.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, ticketNotes.userId))
    .where(and(eq(ticketNotes.tenantId, tenantId), eq(ticketNotes.id, id)));
  return row ? flatten(row) : undefined;
}

export async function insertNote(
  tx: Queryable,
  values: { tenantId: TenantId; ticketId: number; userId: number; notes: string; mentionedUserIds: number[] },
): Promise<NoteRow> {
  const [row] = await tx.insert(ticketNotes).values(values).returning();
  return row!;
}

export async function updateNote(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  values: { notes: string; mentionedUserIds: number[] },
): Promise<void> {
  await tx
    .update(ticketNotes)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(ticketNotes.tenantId, tenantId), eq(ticketNotes.id, id)));
}

export async function deleteNote(tx: Queryable, tenantId: TenantId, id: number): Promise<void> {
  await tx.delete(ticketNotes).where(and(eq(ticketNotes.tenantId, tenantId), eq(ticketNotes.id, id)));
}

/** The tenant's users (id, name): the candidates for `@name` mentions. */
export async function tenantUsers(tx: Queryable, tenantId: TenantId): Promise<{ id: number; name: string }[]> {
  return tx
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(eq(users.tenantId, tenantId))
    .orderBy(asc(users.name))
    .limit(2000);
}

/** Of the given users, those who may see the ticket now. */
export async function ticketAudience(
  tx: Queryable,
  tenantId: number,
  ticketId: number,
  userIds: number[],
): Promise<number[]> {
  if (userIds.length === 0) return [];
  const result = (await tx.execute(ticketAudienceSql(tenantId, ticketId, userIds))) as unknown as {
    rows: { id: number | string }[];
  };
  return result.rows.map((r) => Number(r.id));
}
