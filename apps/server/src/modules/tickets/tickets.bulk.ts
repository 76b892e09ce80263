/**
 * Tenant-wide ticket operations (client-contract §4.3): reset integration states, mark tickets read, move every
 * ticket of a channel to another, and re-send messages stuck in the system (through the messaging port).
 */
import { sql } from 'drizzle-orm';
import type { Database, Tx } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { loadTicketDtos } from './tickets.dto.js';
import * as bulk from './tickets.bulk.repository.js';
import { literalViewer, storedVisibilitySettings, TICKET_COLUMNS, ticketVisibility } from './tickets.policy.js';
import type { TicketMessagingPort } from './tickets.port.js';
import './tickets.events.js';
import { findTenantChannel } from '../channels/index.js';

/** Beyond this many changed tickets no per-ticket event is pushed: the clients reload their list. */
const MAX_BULK_EVENTS = 500;

export function createTicketsBulk(deps: { db: Database; events: EventBus; port: TicketMessagingPort }) {
  const { db, events } = deps;

  async function publishAll(ctx: AuthedContext, ids: number[]): Promise<void> {
    if (ids.length === 0 || ids.length > MAX_BULK_EVENTS) return;
    const dtos = await withTenant(db, ctx, (tx) => loadTicketDtos(tx, ids));
    for (const ticket of dtos)
      events.publish('tickets.changed', { tenantId: ctx.tenantId, type: 'ticket:update', ticket });
  }

  async function markRead(ctx: AuthedContext, where: (tx: Tx) => Promise<ReturnType<typeof sql>>) {
    const ids = await withTenant(db, ctx, async (tx) => bulk.markActiveRead(tx, ctx.tenantId, await where(tx)));
    await publishAll(ctx, ids);
    return { count: ids.length };
  }

  return {
    clearIntegrations: async (ctx: AuthedContext) => ({
      count: await withTenant(db, ctx, (tx) => bulk.clearIntegrationStates(tx, ctx.tenantId)),
    }),

    /** Every open or pending ticket the caller sees in its panel (the list's default filter). */
    markVisibleRead: (ctx: AuthedContext) =>
      markRead(ctx, async () =>
        ticketVisibility(
          literalViewer(ctx.userId, ctx.profile),
          TICKET_COLUMNS,
          storedVisibilitySettings(ctx.tenantId),
          { showAll: false, includeNotQueueDefined: true, notAssignedOnly: false },
        ),
      ),

    markOwnRead: (ctx: AuthedContext) => markRead(ctx, async () => sql`tickets.user_id = ${ctx.userId}`),

    async moveChannel(ctx: AuthedContext, from: number, to: number) {
      if (from === to) throw fail('ERR_VALIDATION', 'newWhatsappId');
      const result = await withTenant(db, ctx, async (tx) => {
        const [source, target] = [
          await findTenantChannel(tx, ctx.tenantId, from),
          await findTenantChannel(tx, ctx.tenantId, to),
        ];
        if (!source || !target) throw fail('ERR_NO_WAPP_FOUND');
        const closed = await bulk.closeChannelCollisions(tx, ctx.tenantId, ctx.userId, from, to);
        const { moved, active } = await bulk.moveChannelTickets(tx, ctx.tenantId, ctx.userId, from, target);
        return { moved, closed, active };
      });
      await publishAll(ctx, [...result.closed, ...result.active]);
      return { moved: result.moved, closed: result.closed.length };
    },

    /** `POST /closeAllOpen` / `/closeAllPending`: every open (or pending) ticket of one channel, closed. */
    async closeAllOfChannel(ctx: AuthedContext, channelId: number, status: 'open' | 'pending') {
      const ids = await withTenant(db, ctx, async (tx) => {
        if (!(await findTenantChannel(tx, ctx.tenantId, channelId))) throw fail('ERR_NO_WAPP_FOUND');
        return bulk.closeChannelTickets(tx, ctx.tenantId, ctx.userId, channelId, status);
      });
      await publishAll(ctx, ids);
      return { count: ids.length };
    },

    resolvePending: async (ctx: AuthedContext) => ({
      count: await withTenant(db, ctx, (tx) => deps.port.requeueStuckSends(tx, ctx)),
    }),
  };
}

export type TicketsBulk = ReturnType<typeof createTicketsBulk>;
