/**
 * The visibility policy applied to one ticket: what `GET /tickets/{id}`, every ticket action and the messages module
 * use to decide whether the caller may reach a ticket. A system context (jobs, ingestion: no user) reaches every
 * ticket of its tenant.
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.js';
import { idIn, idList, rawColumn, statement, statementFamily } from '../../platform/db/statements.js';
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

/**
 * One ticket by id as the caller may reach it: the policy with the caller as viewer, or no policy for a system
 * context (jobs, ingestion: no user); with `lock`, the row is locked until the transaction ends.
 */
const ticketRead = statementFamily(
  'ticket_read',
  ['tenantId', 'id', 'userId', 'profile'],
  (q, p, shape: { lock: boolean; asViewer: boolean }) => {
    const settings = storedVisibilitySettings(p.tenantId);
    const viewer = literalViewer(p.userId, p.profile);
    const visible = shape.asViewer ? ticketVisibility(viewer, TICKET_COLUMNS, settings, ACCESS_OPTIONS) : undefined;
    return repo.ticketWhere(q, p.tenantId, p.id, visible, shape.lock);
  },
);

async function readTicket(tx: Tx, ctx: TenantContext, ticketId: number, lock: boolean) {
  const shape = { lock, asViewer: ctx.userId !== null && ctx.profile !== null };
  const values = { tenantId: ctx.tenantId, id: ticketId, userId: ctx.userId, profile: ctx.profile };
  const [row] = await ticketRead(tx, shape, values);
  return row ?? null;
}

export async function findVisibleTicket(tx: Tx, ctx: TenantContext, ticketId: number): Promise<TicketRow | null> {
  return readTicket(tx, ctx, ticketId, false);
}

/** As findVisibleTicket, with the row locked until the transaction ends (concurrent transitions serialise). */
export async function lockVisibleTicket(tx: Tx, ctx: TenantContext, ticketId: number): Promise<TicketRow | null> {
  return readTicket(tx, ctx, ticketId, true);
}

/** The audience query: which of `users` (an id list as `{1,2}`) may see the ticket in state `ticket`. */
function audienceSql(p: { ticketId: Placeholder; users: Placeholder; tenantId: Placeholder }, ticket: TicketRef): SQL {
  const viewer = { id: sql.raw('u.id'), profile: sql.raw('u.profile') };
  const settings = storedVisibilitySettings(p.tenantId);
  return sql`select u.id from users u join tickets on tickets.id = ${p.ticketId} and tickets.tenant_id = u.tenant_id
      where ${idIn(sql.raw('u.id'), p.users)} and ${ticketVisibility(viewer, ticket, settings, ACCESS_OPTIONS)}
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
  const values = { ticketId, users: idList(userIds), tenantId };
  return former ? audienceBefore(tx, { ...values, ...former }) : audienceNow(tx, values);
}
