/**
 * The visibility policy applied to one ticket: what `GET /tickets/{id}`, every ticket action and the messages module
 * use to decide whether the caller may reach a ticket. A system context (jobs, ingestion: no user) reaches every
 * ticket of its tenant.
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.js';
import { rawColumn, statement } from '../../platform/db/statements.js';
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

/** The audience query: which of `users` (an id list as `{1,2}`) may see the ticket in state `ticket`. */
function audienceSql(p: { ticketId: Placeholder; users: Placeholder; tenantId: Placeholder }, ticket: TicketRef): SQL {
  const viewer = { id: sql.raw('u.id'), profile: sql.raw('u.profile') };
  const settings = storedVisibilitySettings(p.tenantId);
  return sql`select u.id from users u join tickets on tickets.id = ${p.ticketId} and tickets.tenant_id = u.tenant_id
      where u.id = any(${p.users}::bigint[]) and ${ticketVisibility(viewer, ticket, settings, ACCESS_OPTIONS)}
      order by u.id`;
}

const audienceNow = statement('ticket_audience', ['ticketId', 'users', 'tenantId'], (q, p) =>
  rawColumn<number>(q, audienceSql(p, TICKET_COLUMNS)),
);

/** As audienceNow, for the ticket with the assignee and queue it had before a change. */
const audienceBefore = statement(
  'ticket_audience_before',
  ['ticketId', 'users', 'tenantId', 'userId', 'queueId'],
  (q, p) =>
    rawColumn<number>(
      q,
      audienceSql(p, { ...TICKET_COLUMNS, userId: sql`${p.userId}::bigint`, queueId: sql`${p.queueId}::bigint` }),
    ),
);

/**
 * Of the given users, those who may see the ticket (realtime audience): the policy with each user's own id and
 * profile as the viewer, and the tenant's stored settings. The stored row by default; with `former`, the ticket as it
 * was before a change of assignee or queue (the fan-out's "who lost it").
 */
export async function ticketAudience(
  tx: Tx,
  tenantId: number,
  ticketId: number,
  userIds: number[],
  former?: { userId: number | null; queueId: number | null },
): Promise<number[]> {
  if (userIds.length === 0) return [];
  if (!userIds.every(Number.isSafeInteger)) throw new Error('user ids must be integers');
  const values = { ticketId, users: `{${userIds.join(',')}}`, tenantId };
  return former ? audienceBefore(tx, { ...values, ...former }) : audienceNow(tx, values);
}
