/**
 * The visibility policy applied to one ticket: what `GET /tickets/{id}`, every ticket action and the messages module
 * use to decide whether the caller may reach a ticket. A system context (jobs, ingestion: no user) reaches every
 * ticket of its tenant.
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { queryRows, type Tx } from '../../platform/db/client.js';
import { idIn, idList, rawRows, statement, statementFamily } from '../../platform/db/statements.js';
import type { TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import * as repo from './tickets.repository.js';
import type { TicketRow } from './tickets.repository.js';
import {
  ACCESS_OPTIONS,
  conversationReadable,
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

/**
 * The caller may read the ticket's conversation (`conversationReadable`, tickets.policy.ts: "Espiar pendentes"), else
 * ERR_NO_PERMISSION: the ticket stays visible in the list, its messages are withheld until it is accepted. Only a
 * pending ticket held by someone else, read by a user or supervisor, costs the query; system contexts read everything.
 */
export async function assertMayReadConversation(tx: Tx, ctx: TenantContext, ticket: TicketRow): Promise<void> {
  if (ticket.status !== 'pending' || ctx.userId === null || ticket.userId === ctx.userId) return;
  if (ctx.profile !== 'user' && ctx.profile !== 'super') return;
  const ticketValues = { status: sql`${ticket.status}::text`, userId: sql`${ticket.userId}::bigint` };
  const [row] = await queryRows<{ readable: boolean }>(
    tx,
    sql`select ${conversationReadable(literalViewer(ctx.userId, ctx.profile), ticketValues, ctx.tenantId)} as readable`,
  );
  if (!row?.readable) throw fail('ERR_NO_PERMISSION');
}

/**
 * The audience query: pairs (ticket id, user id) of the tickets `which` selects and those of `users` (an id list as
 * `{1,2}`) who may see each in state `ticket`.
 */
function audienceSql(which: SQL, p: { users: Placeholder; tenantId: Placeholder }, ticket: TicketRef): SQL {
  const viewer = { id: sql.raw('u.id'), profile: sql.raw('u.profile') };
  const settings = storedVisibilitySettings(p.tenantId);
  return sql`select tickets.id, u.id from users u join tickets on ${which} and tickets.tenant_id = u.tenant_id
      where ${idIn(sql.raw('u.id'), p.users)} and ${ticketVisibility(viewer, ticket, settings, ACCESS_OPTIONS)}
      order by tickets.id, u.id`;
}

const audiencesNow = statement('ticket_audiences', ['ticketIds', 'users', 'tenantId'], (q, p) =>
  rawRows<[number, number]>(q, audienceSql(idIn(sql.raw('tickets.id'), p.ticketIds), p, TICKET_COLUMNS)),
);

/** As audiencesNow, for one ticket with the assignee and queue it had before a change. */
const audienceBefore = statement(
  'ticket_audience_before',
  ['ticketId', 'users', 'tenantId', 'userId', 'queueId'],
  (q, p) =>
    rawRows<[number, number]>(
      q,
      audienceSql(sql`tickets.id = ${p.ticketId}`, p, {
        ...TICKET_COLUMNS,
        userId: sql`${p.userId}::bigint`,
        queueId: sql`${p.queueId}::bigint`,
      }),
    ),
);

/**
 * Of the given users, those who may see each ticket as stored (the realtime audience of several events, read at
 * once): by ticket id; a ticket nobody may see, or that does not exist, has no entry.
 */
export async function ticketAudiences(
  tx: Tx,
  tenantId: number,
  ticketIds: number[],
  userIds: number[],
): Promise<Map<number, number[]>> {
  const audiences = new Map<number, number[]>();
  if (userIds.length === 0 || ticketIds.length === 0) return audiences;
  const pairs = await audiencesNow(tx, { ticketIds: idList(ticketIds), users: idList(userIds), tenantId });
  for (const [ticketId, userId] of pairs) {
    const users = audiences.get(ticketId);
    if (users) users.push(userId);
    else audiences.set(ticketId, [userId]);
  }
  return audiences;
}

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
  if (!former) return (await ticketAudiences(tx, tenantId, [ticketId], userIds)).get(ticketId) ?? [];
  if (userIds.length === 0) return [];
  const pairs = await audienceBefore(tx, { ticketId, users: idList(userIds), tenantId, ...former });
  return pairs.map(([, userId]) => userId);
}
