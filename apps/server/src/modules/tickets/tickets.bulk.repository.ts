/** Set-wise ticket updates: the tenant-wide and per-channel operations of the ticket panel and settings screens. */
import { sql, type SQL } from 'drizzle-orm';
import type { TicketLogType } from '@conversa/shared';
import { queryRows, type Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';

const ACTIVE = sql.raw(`('open', 'pending')`);

/** Every open ticket back to "no integration running", with the chatbot's memory forgotten. */
export async function clearIntegrationStates(tx: Queryable, tenantId: TenantId): Promise<number> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update tickets set dify_status = 'disabled', lm_status = 'disabled', n8n_status = 'disabled',
          typebot_status = 'disabled', dialogflow_status = 'disabled', chatgpt_status = 'disabled',
          chatbot_state = '{}'::jsonb
        where tenant_id = ${tenantId} and status = 'open' returning id`,
  );
  return rows.length;
}

/** unreadMessages = 0 on the active tickets matching `where` (a predicate on `tickets`); answers their ids. */
export async function markActiveRead(tx: Queryable, tenantId: TenantId, where: SQL): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update tickets set unread_messages = 0
        where tenant_id = ${tenantId} and status in ${ACTIVE} and unread_messages > 0 and ${where} returning id`,
  );
  return rows.map((r) => r.id);
}

/**
 * Closes the active tickets of channel `from` whose contact already has an active ticket on channel `to` (they could
 * not move: one active ticket per contact and channel), with a `closed` log each; answers their ids.
 */
export async function closeChannelCollisions(
  tx: Queryable,
  tenantId: TenantId,
  userId: number,
  from: number,
  to: number,
): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update tickets t set status = 'closed', closed_at = now(), closing_at = null, unread_messages = 0,
          awaiting_rating = false, updated_at = now()
        where t.tenant_id = ${tenantId} and t.channel_id = ${from} and t.status in ${ACTIVE}
          and exists (select 1 from tickets o where o.tenant_id = ${tenantId} and o.contact_id = t.contact_id
                        and o.channel_id = ${to} and o.status in ${ACTIVE})
        returning t.id`,
  );
  const ids = rows.map((r) => r.id);
  await insertLogs(tx, tenantId, userId, ids, 'closed', { reason: 'channelMove', toChannelId: to });
  return ids;
}

/** Moves every ticket of channel `from` to `to` with a `channel` log each; answers the ids of the active ones. */
export async function moveChannelTickets(
  tx: Queryable,
  tenantId: TenantId,
  userId: number,
  from: number,
  to: { id: number; type: string },
): Promise<{ moved: number; active: number[] }> {
  const rows = await queryRows<{ id: number; status: string }>(
    tx,
    sql`update tickets set channel_id = ${to.id}, channel = ${to.type}
        where tenant_id = ${tenantId} and channel_id = ${from} returning id, status`,
  );
  await insertLogs(
    tx,
    tenantId,
    userId,
    rows.map((r) => r.id),
    'transfered',
    { reason: 'channelMove', fromChannelId: from, toChannelId: to.id },
  );
  return { moved: rows.length, active: rows.filter((r) => r.status !== 'closed').map((r) => r.id) };
}

/** Closes every ticket of a channel in one status (the connections screen's "close all"), with a `closed` log each. */
export async function closeChannelTickets(
  tx: Queryable,
  tenantId: TenantId,
  userId: number,
  channelId: number,
  status: 'open' | 'pending',
): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(
    tx,
    sql`update tickets set status = 'closed', closed_at = now(), closing_at = null, unread_messages = 0,
          awaiting_rating = false, updated_at = now()
        where tenant_id = ${tenantId} and channel_id = ${channelId} and status = ${status}
        returning id`,
  );
  const ids = rows.map((r) => r.id);
  await insertLogs(tx, tenantId, userId, ids, 'closed', { reason: 'closeAll', status });
  return ids;
}

async function insertLogs(
  tx: Queryable,
  tenantId: TenantId,
  userId: number,
  ticketIds: number[],
  type: TicketLogType,
  details: Record<string, unknown>,
): Promise<void> {
  if (ticketIds.length === 0) return;
  await tx.execute(sql`insert into ticket_logs (tenant_id, ticket_id, user_id, type, details)
    select ${tenantId}, id, ${userId}, ${type}, ${JSON.stringify(details)}::jsonb from unnest(${`{${ticketIds.join(',')}}`}::bigint[]) as id`);
}
