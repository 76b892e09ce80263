/**
 * The tenant's choices that change ticket transitions (read once per transition that needs them, in one statement):
 * tenant flags `forceAdmin`, `forcePendingUser` (client-contract §10) and settings `spyticket`, `userReopenTicket`
 * (§9).
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../platform/db/client.js';
import { settingEnabledSql } from '../settings/index.js';
import { tenantFlagEnabledSql, type VisibilitySettings } from './tickets.policy.js';

export interface TransitionRules {
  /** An admin who looks at a pending ticket (the "spy" call) takes it. */
  forceAdmin: boolean;
  /** Return to queue keeps the ticket's user. */
  forcePendingUser: boolean;
  /** Agents may look at a pending ticket they do not hold without taking it. */
  spyticket: boolean;
  /** Agents may reopen closed tickets that were someone else's. */
  userReopenTicket: boolean;
}

export async function readTransitionRules(tx: Queryable, tenantId: number): Promise<TransitionRules> {
  const [row] = await queryRows<TransitionRules>(
    tx,
    sql`select ${tenantFlagEnabledSql(tenantId, 'forceAdmin')} as "forceAdmin",
      ${tenantFlagEnabledSql(tenantId, 'forcePendingUser')} as "forcePendingUser",
      ${settingEnabledSql(tenantId, 'spyticket')} as "spyticket",
      ${settingEnabledSql(tenantId, 'userReopenTicket')} as "userReopenTicket"`,
  );
  return row!;
}

/**
 * Whether the caller may open a ticket on the channel: one acting as a user (profile `user`, or `super` under the
 * tenant flag `supervisorAdmin`) with a non-empty `whatsappAllowed` list only on those channels (client-contract §3).
 */
export async function mayUseChannel(
  tx: Queryable,
  ctx: { tenantId: number; userId: number; profile: string },
  channelId: number,
): Promise<boolean> {
  if (ctx.profile !== 'user' && ctx.profile !== 'super') return true;
  const [row] = await queryRows<{ allowed: boolean }>(
    tx,
    sql`select (not (${ctx.profile}::text = 'user' or ${tenantFlagEnabledSql(ctx.tenantId, 'supervisorAdmin')})
      or not exists (select 1 from user_channels uc where uc.user_id = ${ctx.userId})
      or exists (select 1 from user_channels uc where uc.user_id = ${ctx.userId} and uc.channel_id = ${channelId}))
      as allowed`,
  );
  return row?.allowed ?? false;
}

/** The policy inputs of one viewer known before its list query runs (rules known to be off leave the statement). */
export type KnownVisibility = Required<
  Pick<VisibilitySettings, 'supervisorAdmin' | 'nullTickets' | 'showGroupsForAll' | 'showClosedForAll'>
> & { viewerHasChannelList: boolean };

/**
 * For admins the flags change nothing (they see every queue and channel), so their values need no read. An agent or
 * supervisor's list reads them first (one statement): with the defaults and no allowed-channels list, its query is
 * the one it was before the flags existed, which the partial index of active tickets answers on the index alone
 * (rules on `channel_id`, `is_group` or `status` in the statement cost it that index-only plan).
 */
const ADMIN_VISIBILITY: KnownVisibility = {
  supervisorAdmin: false,
  nullTickets: true,
  showGroupsForAll: false,
  showClosedForAll: false,
  viewerHasChannelList: false,
};

export async function knownVisibility(
  tx: Queryable,
  ctx: { tenantId: number; userId: number; profile: string },
): Promise<KnownVisibility> {
  if (ctx.profile === 'admin' || ctx.profile === 'superadmin') return ADMIN_VISIBILITY;
  const [row] = await queryRows<KnownVisibility>(
    tx,
    sql`select ${tenantFlagEnabledSql(ctx.tenantId, 'supervisorAdmin')} as "supervisorAdmin",
      ${tenantFlagEnabledSql(ctx.tenantId, 'nullTickets')} as "nullTickets",
      ${tenantFlagEnabledSql(ctx.tenantId, 'showGroupsForAll')} as "showGroupsForAll",
      ${tenantFlagEnabledSql(ctx.tenantId, 'showClosedForAll')} as "showClosedForAll",
      exists (select 1 from user_channels uc where uc.user_id = ${ctx.userId}) as "viewerHasChannelList"`,
  );
  return row!;
}
