/**
 * Auto-distribution (product-spec §9 "Auto distribution", issue 16 decisions §E): gives a pending ticket that nobody
 * holds (and the bot does not handle) to one of the users who may serve it.
 *
 * - Mode: the caller's (a flow's `autoDistributeTickets`) ?? the queue's when not N ?? the channel's (N without one).
 * - Wallet rule first, whatever the mode: with the setting `DirectTicketsToWallets` on and a contact that has wallet
 *   owners, the least loaded owner online gets it; with none online, the tenant flag `serviceTransfer` on lets the
 *   mode decide, off gives it to the least loaded owner anyway (online or not).
 * - N gives nothing. Candidates: online users (`is_online`) of profile user, super or admin, members of the ticket's
 *   queue (`user_queues`); for a queue-less ticket, the online users allowed on its channel (`user_channels`, none
 *   listed = every channel). R draws one uniformly; B takes the fewest active tickets (open or pending assigned to
 *   them), ties to the longest idle (`last_distributed_at`, never first), then the lowest id.
 * - Distributions of one tenant take turns (`pg_advisory_xact_lock`), so concurrent tickets see each other's
 *   assignments when they count loads. Per tenant, not per queue: a user's load counts the tickets of every queue,
 *   so two queues distributing at once would both see the same least loaded user.
 * - An assignment sets the user (the status stays pending: the agent accepts it), stamps the user's
 *   `last_distributed_at` and writes the log `userDefine` (actor = the caller's user, null for the system) with the
 *   mode and the reason. The caller publishes `tickets.changed` when `changed` is true.
 * - Group tickets are never distributed (a group is no customer conversation to hand to one agent).
 */
import { sql } from 'drizzle-orm';
import type { DistributionMode } from '@conversa/shared';
import { queryRows, type Tx } from '../../platform/db/client.js';
import type { TenantContext } from '../../platform/db/tenancy.js';
import { settingEnabledSql } from '../settings/index.js';
import { tenantFlagEnabledSql } from './tickets.policy.js';

/** Why a ticket went to a user, or why it did not. */
export type DistributionReason =
  | 'wallet'
  | 'balanced'
  | 'random'
  /** The mode is N (and no wallet rule applied). */
  | 'disabled'
  /** Nobody may take it now (no online candidate): it stays pending, unassigned, in its queue. */
  | 'noCandidate'
  /** Not a pending ticket free of user and bot (or a group, or not found): left as it is. */
  | 'notEligible';

export interface DistributionResult {
  /** The user the ticket was given to by this call; null when it was not given to anyone. */
  userId: number | null;
  reason: DistributionReason;
  /** Whether the ticket changed (the caller then publishes `tickets.changed`, previousUserId null). */
  changed: boolean;
  /** The mode that applied (null when the ticket was not eligible). */
  mode: DistributionMode | null;
  /** The ticket's queue (unchanged by distribution). */
  queueId: number | null;
}

export interface DistributionOptions {
  /** A flow's `autoDistributeTickets`: overrides the queue's and the channel's mode. */
  mode?: DistributionMode | undefined;
}

interface TicketState {
  id: number;
  status: string;
  userId: number | null;
  queueId: number | null;
  channelId: number | null;
  contactId: number;
  isGroup: boolean;
  botHandles: boolean;
  queueDistribution: DistributionMode | null;
  channelDistribution: DistributionMode | null;
  wallets: boolean;
  serviceTransfer: boolean;
}

interface Candidate {
  id: number;
  isOnline: boolean;
}

/** Active tickets of `u` (open, or pending with them as the assignee): the load balanced distribution evens out. */
const loadOf = (tenantId: number) =>
  sql`(select count(*) from tickets lt
        where lt.tenant_id = ${tenantId} and lt.user_id = u.id and lt.status in ('open', 'pending'))`;

/** Least loaded first, then the longest idle (never distributed first), then the lowest id. */
const balancedOrder = (tenantId: number) =>
  sql`${loadOf(tenantId)} asc, u.last_distributed_at asc nulls first, u.id asc`;

/** The ticket with everything the rules read, locked for the rest of the transaction. */
async function lockTicketState(tx: Tx, tenantId: number, ticketId: number): Promise<TicketState | undefined> {
  const [row] = await queryRows<TicketState>(
    tx,
    sql`select t.id, t.status, t.user_id as "userId", t.queue_id as "queueId", t.channel_id as "channelId",
          t.contact_id as "contactId", t.is_group as "isGroup",
          ((t.chat_flow_id is not null and t.step_chat_flow is not null)
            or (t.auto_reply_id is not null and t.step_auto_reply_id is not null)) as "botHandles",
          (select q.distribution from queues q where q.id = t.queue_id and q.tenant_id = t.tenant_id)
            as "queueDistribution",
          (select c.distribution from channels c where c.id = t.channel_id and c.tenant_id = t.tenant_id)
            as "channelDistribution",
          ${settingEnabledSql(tenantId, 'DirectTicketsToWallets')} as "wallets",
          ${tenantFlagEnabledSql(tenantId, 'serviceTransfer')} as "serviceTransfer"
        from tickets t
        where t.tenant_id = ${tenantId} and t.id = ${ticketId}
        for update of t`,
  );
  return row;
}

/** The mode that applies: the caller's, else the queue's when it is not N, else the channel's (N without one). */
export function distributionModeOf(
  given: DistributionMode | undefined,
  queue: DistributionMode | null,
  channel: DistributionMode | null,
): DistributionMode {
  return given ?? (queue !== null && queue !== 'N' ? queue : (channel ?? 'N'));
}

/** The contact's wallet owners of this tenant, least loaded first (online or not). */
async function walletOwners(tx: Tx, tenantId: number, contactId: number): Promise<Candidate[]> {
  return queryRows<Candidate>(
    tx,
    sql`select u.id, u.is_online as "isOnline" from contact_wallets cw join users u on u.id = cw.user_id
        where cw.tenant_id = ${tenantId} and cw.contact_id = ${contactId} and u.tenant_id = ${tenantId}
        order by ${balancedOrder(tenantId)}`,
  );
}

/** One online candidate for the ticket: the balanced order's first (B) or a uniform draw (R). */
async function pickCandidate(tx: Tx, tenantId: number, ticket: TicketState, mode: 'R' | 'B'): Promise<number | null> {
  const scope =
    ticket.queueId !== null
      ? sql`exists (select 1 from user_queues uq
            where uq.tenant_id = ${tenantId} and uq.user_id = u.id and uq.queue_id = ${ticket.queueId})`
      : sql`(not exists (select 1 from user_channels uc where uc.user_id = u.id)
            or exists (select 1 from user_channels uc where uc.user_id = u.id and uc.channel_id = ${ticket.channelId}))`;
  const [row] = await queryRows<{ id: number }>(
    tx,
    sql`select u.id from users u
        where u.tenant_id = ${tenantId} and u.is_online and u.profile in ('user', 'super', 'admin') and ${scope}
        order by ${mode === 'B' ? balancedOrder(tenantId) : sql`random()`}
        limit 1`,
  );
  return row?.id ?? null;
}

/**
 * Gives the ticket to a user when the rules say so (see the header). Runs in the caller's transaction (under the
 * ticket's tenant): the ticket row is locked, then the tenant's advisory lock is taken.
 */
export async function distributeTicket(
  tx: Tx,
  ctx: TenantContext,
  ticketId: number,
  options: DistributionOptions = {},
): Promise<DistributionResult> {
  const tenantId = ctx.tenantId;
  const ticket = await lockTicketState(tx, tenantId, ticketId);
  if (!ticket || ticket.status !== 'pending' || ticket.userId !== null || ticket.botHandles || ticket.isGroup) {
    return { userId: null, reason: 'notEligible', changed: false, mode: null, queueId: ticket?.queueId ?? null };
  }
  const mode = distributionModeOf(options.mode, ticket.queueDistribution, ticket.channelDistribution);
  const none = (reason: DistributionReason): DistributionResult => ({
    userId: null,
    reason,
    changed: false,
    mode,
    queueId: ticket.queueId,
  });
  if (mode === 'N' && !ticket.wallets) return none('disabled');

  // One distribution at a time per tenant: each one counts the loads (over every queue) the previous left.
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`distribution:${tenantId}`}, 0))`);

  let chosen: { userId: number; reason: 'wallet' | 'balanced' | 'random' } | null = null;
  if (ticket.wallets) {
    const owners = await walletOwners(tx, tenantId, ticket.contactId);
    const owner = owners.find((o) => o.isOnline) ?? (ticket.serviceTransfer ? undefined : owners[0]);
    if (owner) chosen = { userId: owner.id, reason: 'wallet' };
  }
  if (!chosen) {
    if (mode === 'N') return none('disabled');
    const userId = await pickCandidate(tx, tenantId, ticket, mode);
    if (userId === null) return none('noCandidate');
    chosen = { userId, reason: mode === 'B' ? 'balanced' : 'random' };
  }

  const state = { status: ticket.status, queueId: ticket.queueId };
  const details = {
    from: { ...state, userId: null },
    to: { ...state, userId: chosen.userId },
    mode,
    reason: chosen.reason,
  };
  // The assignment, the user's stamp and the log in one statement (three round trips on a hot path otherwise).
  await tx.execute(sql`with assigned as (
      update tickets set user_id = ${chosen.userId}, updated_at = now()
      where tenant_id = ${tenantId} and id = ${ticket.id} returning id
    ), stamped as (
      update users set last_distributed_at = now() where tenant_id = ${tenantId} and id = ${chosen.userId} returning id
    )
    insert into ticket_logs (tenant_id, ticket_id, user_id, type, details)
    select ${tenantId}, assigned.id, ${ctx.userId}::bigint, 'userDefine', ${JSON.stringify(details)}::jsonb
    from assigned, stamped`);
  return { userId: chosen.userId, reason: chosen.reason, changed: true, mode, queueId: ticket.queueId };
}
