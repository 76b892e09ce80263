/**
 * The visibility policy applied to one ticket: what `GET /tickets/{id}`, every ticket action and the messages module
 * use to decide whether the caller may reach a ticket. A system context (jobs, ingestion: no user) reaches every
 * ticket of its tenant.
 */
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Tx } from '../../platform/db/client.js';
import type { TenantContext } from '../../platform/db/tenancy.js';
import * as repo from './tickets.repository.js';
import type { TicketRow } from './tickets.repository.js';
import {
  ACCESS_OPTIONS,
  literalViewer,
  storedVisibilitySettings,
  TICKET_COLUMNS,
  ticketVisibility,
  type TicketRef,
  type VisibilitySettings,
} from './tickets.policy.js';

/** The predicate "the caller may see this ticket", or undefined for a system context. */
export function accessPredicate(ctx: TenantContext): SQL | undefined {
  if (ctx.userId === null || ctx.profile === null) return undefined;
  const settings = storedVisibilitySettings(ctx.tenantId);
  return ticketVisibility(literalViewer(ctx.userId, ctx.profile), TICKET_COLUMNS, settings, ACCESS_OPTIONS);
}

export async function findVisibleTicket(tx: Tx, ctx: TenantContext, ticketId: number): Promise<TicketRow | null> {
  return (await repo.findTicketWhere(tx, ctx.tenantId, ticketId, accessPredicate(ctx))) ?? null;
}

/** As findVisibleTicket, with the row locked until the transaction ends (concurrent transitions serialise). */
export async function lockVisibleTicket(tx: Tx, ctx: TenantContext, ticketId: number): Promise<TicketRow | null> {
  return (await repo.findTicketWhere(tx, ctx.tenantId, ticketId, accessPredicate(ctx), true)) ?? null;
}

/**
 * Of the given users, those who may see the ticket (realtime audience): the policy with each user's own id and
 * profile as the viewer. `ticket` defaults to the stored row; the fan-out passes a former state to find who lost it.
 */
export async function ticketAudience(
  tx: Tx,
  ticketId: number,
  userIds: number[],
  settings: VisibilitySettings,
  ticket: TicketRef = TICKET_COLUMNS,
): Promise<number[]> {
  if (userIds.length === 0) return [];
  const viewer = { id: sql.raw('u.id'), profile: sql.raw('u.profile') };
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`select u.id from users u join tickets on tickets.id = ${ticketId} and tickets.tenant_id = u.tenant_id
        where u.id = any(${`{${userIds.join(',')}}`}::bigint[])
          and ${ticketVisibility(viewer, ticket, settings, ACCESS_OPTIONS)}
        order by u.id`,
  );
  return rows.map((r) => r.id);
}

/** The stored ticket with the assignee and queue it had before a change. */
export const formerState = (userId: number | null, queueId: number | null): TicketRef => ({
  ...TICKET_COLUMNS,
  userId: sql`${userId}::bigint`,
  queueId: sql`${queueId}::bigint`,
});
