/** The queries on ticket protocols; every read goes through the ticket visibility policy. */
import { and, asc, desc, eq, ilike, like, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { containing } from '../../platform/db/search.js';
import { contacts } from '../contacts/contacts.tables.js';
import { visibleTicketSql } from '../notes/index.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';
import { ticketProtocols } from './protocols.tables.js';

export type ProtocolRow = typeof ticketProtocols.$inferSelect;
export type ProtocolWithNames = ProtocolRow & {
  userName: string | null;
  contactName: string;
  contactNumber: string | null;
};

const columns = {
  row: ticketProtocols,
  userName: users.name,
  contactName: contacts.name,
  contactNumber: contacts.number,
};
type Selected = { row: ProtocolRow; userName: string | null; contactName: string; contactNumber: string | null };
const flatten = (r: Selected): ProtocolWithNames => ({
  ...r.row,
  userName: r.userName,
  contactName: r.contactName,
  contactNumber: r.contactNumber,
});

function protocolsWithNames(tx: Queryable, where: SQL | undefined) {
  return tx
    .select({ ...columns, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(ticketProtocols)
    .innerJoin(tickets, eq(tickets.id, ticketProtocols.ticketId))
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .leftJoin(users, eq(users.id, ticketProtocols.userId))
    .where(where);
}

/** A protocol number starts with the term (as typed: digits and letters); LIKE's wildcards in it are literal. */
const startingWith = (term: string) => `${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The protocols of every ticket the caller may see, newest first: by protocol prefix or contact name, and on one day
 * of the tenant's time zone.
 */
export async function listVisibleProtocols(
  tx: Queryable,
  ctx: AuthedContext,
  page: { limit: number; offset: number; search?: string | undefined; date?: string | undefined },
): Promise<{ rows: ProtocolWithNames[]; count: number }> {
  const term = page.search?.trim();
  const search = term
    ? or(like(ticketProtocols.protocol, startingWith(term)), ilike(contacts.name, containing(term)))
    : undefined;
  const day = page.date
    ? sql`(${ticketProtocols.createdAt} at time zone (select timezone from tenants where id = ${ctx.tenantId}))::date = ${page.date}::date`
    : undefined;
  const rows = await protocolsWithNames(
    tx,
    and(eq(ticketProtocols.tenantId, ctx.tenantId), visibleTicketSql(ctx), search, day),
  )
    .orderBy(desc(ticketProtocols.createdAt), desc(ticketProtocols.id))
    .limit(page.limit)
    .offset(page.offset);
  return { rows: rows.map(flatten), count: rows[0]?.total ?? 0 };
}

export async function listTicketProtocols(
  tx: Queryable,
  tenantId: TenantId,
  ticketId: number,
): Promise<ProtocolWithNames[]> {
  const rows = await protocolsWithNames(
    tx,
    and(eq(ticketProtocols.tenantId, tenantId), eq(ticketProtocols.ticketId, ticketId)),
  )
    .orderBy(asc(ticketProtocols.createdAt), asc(ticketProtocols.id))
    .limit(1000);
  return rows.map(flatten);
}

export async function loadProtocol(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
): Promise<ProtocolWithNames | undefined> {
  const [row] = await protocolsWithNames(tx, and(eq(ticketProtocols.tenantId, tenantId), eq(ticketProtocols.id, id)));
  return row ? flatten(row) : undefined;
}

/** One protocol of a ticket the caller may see, locked until the transaction ends. */
export async function lockVisibleProtocol(
  tx: Queryable,
  ctx: AuthedContext,
  id: number,
): Promise<ProtocolRow | undefined> {
  const [row] = await tx
    .select({ row: ticketProtocols })
    .from(ticketProtocols)
    .innerJoin(tickets, eq(tickets.id, ticketProtocols.ticketId))
    .where(and(eq(ticketProtocols.tenantId, ctx.tenantId), eq(ticketProtocols.id, id), visibleTicketSql(ctx)))
    .for('update', { of: ticketProtocols });
  return row?.row;
}

export async function insertProtocol(
  tx: Queryable,
  values: { tenantId: TenantId; ticketId: number; userId: number; protocol: string },
): Promise<ProtocolRow> {
  const [row] = await tx.insert(ticketProtocols).values(values).returning();
  return row!;
}

export async function updateProtocol(tx: Queryable, tenantId: TenantId, id: number, protocol: string): Promise<void> {
  await tx
    .update(ticketProtocols)
    .set({ protocol, updatedAt: sql`now()` })
    .where(and(eq(ticketProtocols.tenantId, tenantId), eq(ticketProtocols.id, id)));
}

export async function deleteProtocol(tx: Queryable, tenantId: TenantId, id: number): Promise<void> {
  await tx.delete(ticketProtocols).where(and(eq(ticketProtocols.tenantId, tenantId), eq(ticketProtocols.id, id)));
}
