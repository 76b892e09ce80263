/**
 * Auto-close on inactivity (product-spec §4 "Inactivity", settings `autoClose`, `autoCloseTime`, `autoCloseMessage`).
 * A cron job every minute finds, on the system path `tickets.auto-close`, the tenants with the setting on, then per
 * tenant (in its own tenant transaction) resolves up to AUTO_CLOSE_BATCH inactive tickets: the `autoClose` step of the
 * state machine (tickets.transitions.ts planClose, system actor: no user), its log row, the normal `ticket:update`
 * event, and the tenant's `autoCloseMessage` or else the channel's farewell, queued through the send path.
 *
 * Inactive (issue 23) = the customer went quiet after our last answer: open or pending, not a group, no farewell
 * close under way, and the newest message of the conversation (internal notes and scheduled messages not yet sent
 * left out) is ours (`from_me`), written longer ago than the threshold, counted from that message but never from
 * before auto-close was switched on (`autoCloseSinceSql`: the settings module records the switch-on time). A ticket
 * waiting for us (the newest message is the customer's, or there is none yet) is never closed. The preview of the
 * settings screen (`countAutoClosable`) counts with the very same predicate.
 *
 * The candidates are selected `for update skip locked`, the ticket's own `last_message_at`/`updated_at` also past the
 * threshold, so a ticket that a message touched meanwhile no longer qualifies (PostgreSQL re-checks the condition on
 * the newest row version before locking it) and one being changed right now is left for the next run. Group
 * tickets are never auto-closed: a group conversation has no end, and closing it would only open a new ticket at the
 * next member's message. Running twice closes nothing twice: a closed ticket is no candidate.
 */
import { and, count, eq, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { isAutoCloseTime, type TicketDto } from '@conversa/shared';
import { queryRows, type Database, type Queryable } from '../../platform/db/client.js';
import { systemContext, withSystem, withTenant } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/queue.js';
import { findTenantChannel } from '../channels/index.js';
import { autoCloseSinceSql } from '../settings/index.js';
import { loadTicketDto } from './tickets.dto.js';
import type { TicketMessagingPort } from './tickets.port.js';
import * as repo from './tickets.repository.js';
import type { TicketRow } from './tickets.repository.js';
import { tickets } from './tickets.tables.js';
import { planClose } from './tickets.transitions.js';
import './tickets.events.js';

export const AUTO_CLOSE_JOB = 'tickets.auto-close';
/** Tickets closed per tenant per run; the rest wait for the next minute. */
export const AUTO_CLOSE_BATCH = 100;

export interface AutoCloseDeps {
  db: Database;
  events: EventBus;
  port: TicketMessagingPort;
}

interface TenantAutoClose {
  tenantId: number;
  minutes: number;
  message: string;
}

/** The tenants with auto-close on, their threshold (an allowed value, else the default 60) and message. */
async function tenantsWithAutoClose(db: Database): Promise<TenantAutoClose[]> {
  const rows = await withSystem(db, 'tickets.auto-close', (tx) =>
    queryRows<{ tenant_id: number; minutes: string | null; message: string | null }>(
      tx,
      sql`select s.tenant_id,
            (select value from settings m where m.tenant_id = s.tenant_id and m.key = 'autoCloseTime') as minutes,
            (select value from settings m where m.tenant_id = s.tenant_id and m.key = 'autoCloseMessage') as message
          from settings s
          where s.key = 'autoClose' and s.value = 'enabled'
          order by s.tenant_id`,
    ),
  );
  return rows.map((r) => ({
    tenantId: Number(r.tenant_id),
    minutes: Number(r.minutes && isAutoCloseTime(r.minutes) ? r.minutes : '60'),
    message: r.message?.trim() ?? '',
  }));
}

/**
 * The inactivity predicate over the `tickets` row, `minutes` the threshold and `since` the earliest moment idle time
 * counts from (SQL). The job and the preview share it.
 */
export function inactiveTicketWhere(minutes: number, since: SQL): SQL {
  const threshold = sql`now() - make_interval(mins => ${minutes}::int)`;
  const newestMessage = sql`(select m.from_me, m.created_at from messages m
      where m.tenant_id = ${tickets.tenantId} and m.ticket_id = ${tickets.id}
        and m.media_type <> 'notes'
        and not (m.schedule_date is not null and m.status in ('pending', 'canceled'))
      order by m.id desc limit 1)`;
  return and(
    inArray(tickets.status, ['open', 'pending']),
    eq(tickets.isGroup, false),
    isNull(tickets.closingAt),
    lt(sql`coalesce(${tickets.lastMessageAt}, ${tickets.updatedAt})`, threshold),
    sql`exists (select 1 from ${newestMessage} newest
      where newest.from_me and greatest(newest.created_at, ${since}) < ${threshold})`,
  )!;
}

/**
 * How many tickets of the caller's tenant the job would close at its next run with `minutes` as the threshold
 * (`since` as it would be stored), and how many wait for the customer's reply at all (the ones it closes once the
 * threshold has passed since their last message and since `since`, if nobody writes).
 */
export async function countAutoClosable(
  tx: Queryable,
  tenantId: number,
  minutes: number,
  since: SQL = autoCloseSinceSql(tenantId),
): Promise<{ closeNow: number; awaitingCustomer: number }> {
  const [now] = await tx.select({ n: count() }).from(tickets).where(inactiveTicketWhere(minutes, since));
  // Waiting for the customer = inactive for a threshold of zero counted from the beginning of time.
  const [awaiting] = await tx
    .select({ n: count() })
    .from(tickets)
    .where(inactiveTicketWhere(0, sql`'-infinity'::timestamptz`));
  return { closeNow: Number(now?.n ?? 0), awaitingCustomer: Number(awaiting?.n ?? 0) };
}

/** One tenant's run: answers the ids it closed. */
export async function autoCloseTenant(
  deps: AutoCloseDeps,
  tenant: TenantAutoClose,
  limit = AUTO_CLOSE_BATCH,
): Promise<number[]> {
  const ctx = systemContext(tenant.tenantId);
  const closed = await withTenant(deps.db, ctx, async (tx) => {
    const idle = await tx
      .select()
      .from(tickets)
      .where(inactiveTicketWhere(tenant.minutes, autoCloseSinceSql(tenant.tenantId)))
      .orderBy(tickets.id)
      .limit(limit)
      .for('update', { skipLocked: true });
    const done: { previous: TicketRow; dto: TicketDto }[] = [];
    for (const ticket of idle) {
      const step = planClose(ticket, 'autoClose', { idleMinutes: tenant.minutes });
      if (!step) continue;
      const farewell = await farewellOf(tx, tenant, ticket);
      if (farewell) await deps.port.queueSystemMessage(tx, ctx, ticket.id, farewell, 'farewell');
      await repo.updateTicket(tx, ctx.tenantId, ticket.id, {
        ...step.patch,
        ...(farewell ? { isFarewellMessage: true } : {}),
      });
      if (step.log) await repo.insertLog(tx, ctx.tenantId, { ticketId: ticket.id, userId: null, ...step.log });
      const dto = await loadTicketDto(tx, ticket.id);
      if (dto) done.push({ previous: ticket, dto });
    }
    return done;
  });
  for (const { previous, dto } of closed) {
    deps.events.publish('tickets.changed', {
      tenantId: tenant.tenantId,
      type: 'ticket:update',
      ticket: dto,
      previousUserId: previous.userId,
      previousQueueId: previous.queueId,
    });
  }
  return closed.map((c) => c.dto.id);
}

async function farewellOf(
  tx: Parameters<Parameters<typeof withTenant>[2]>[0],
  tenant: TenantAutoClose,
  ticket: TicketRow,
): Promise<string | null> {
  if (tenant.message) return tenant.message;
  if (ticket.channelId === null) return null;
  const channel = await findTenantChannel(tx, systemContext(tenant.tenantId).tenantId, ticket.channelId);
  return channel?.farewellMessage?.trim() || null;
}

/** Every tenant with auto-close on, one transaction each; answers how many tickets were closed. */
export async function runAutoClose(deps: AutoCloseDeps): Promise<number> {
  let total = 0;
  for (const tenant of await tenantsWithAutoClose(deps.db)) total += (await autoCloseTenant(deps, tenant)).length;
  return total;
}

const autoClosePayloadSchema = z.object({});

export function createAutoCloseJob(deps: AutoCloseDeps): JobDefinition<z.infer<typeof autoClosePayloadSchema>> {
  return defineJob({
    name: AUTO_CLOSE_JOB,
    schema: autoClosePayloadSchema,
    cron: '* * * * *',
    retryLimit: 0,
    async handler() {
      await runAutoClose(deps);
    },
  });
}
