/**
 * The ticket writes of the chatbot engine (modules/chatbot, ARCHITECTURE §6k), which acts as the system: lock a
 * ticket, change its columns, write its log rows (no user), the close patch of the state machine, and the facts the
 * flow's configurations read (an earlier ticket of the contact, a queue or user of the tenant).
 */
import { and, eq, ne, sql } from 'drizzle-orm';
import type { TicketLogType } from '@conversa/shared';
import type { Queryable, Tx } from '../../platform/db/client.js';
import { asTenantId, systemContext } from '../../platform/db/tenancy.js';
import { lockVisibleTicket } from './tickets.access.js';
import * as repo from './tickets.repository.js';
import type { TicketPatch, TicketRow } from './tickets.repository.js';
import { tickets } from './tickets.tables.js';

export { closedPatch } from './tickets.transitions.js';

/** The ticket row locked until the transaction ends (`select ... for update`), read as the system. */
export const lockTicketAsSystem = (tx: Tx, tenantId: number, ticketId: number): Promise<TicketRow | null> =>
  lockVisibleTicket(tx, systemContext(tenantId), ticketId);

export const updateTicketAsSystem = (tx: Queryable, tenantId: number, id: number, patch: TicketPatch) =>
  repo.updateTicket(tx, asTenantId(tenantId), id, patch);

/** A log row written by the system (no user). */
export const logTicketAsSystem = (
  tx: Queryable,
  tenantId: number,
  ticketId: number,
  type: TicketLogType,
  details: Record<string, unknown>,
) => repo.insertLog(tx, asTenantId(tenantId), { ticketId, userId: null, type, details });

/** Whether the contact had a ticket before this one (any channel, any state). */
export async function contactHadEarlierTicket(tx: Queryable, contactId: number, ticketId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.contactId, contactId), ne(tickets.id, ticketId), sql`${tickets.id} < ${ticketId}`))
    .limit(1);
  return !!row;
}

export const queueOfTenant = (tx: Queryable, tenantId: number, id: number) =>
  repo.queueExists(tx, asTenantId(tenantId), id);
export const userOfTenant = (tx: Queryable, tenantId: number, id: number) =>
  repo.userExists(tx, asTenantId(tenantId), id);

export type { TicketPatch };
