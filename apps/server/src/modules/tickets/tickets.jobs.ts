/**
 * Tickets jobs: the close that follows a farewell by FAREWELL_CLOSE_DELAY_MS. It closes only the resolve it was
 * enqueued for: a ticket reopened, moved on (any transition clears `closingAt`) or resolved again meanwhile is left
 * alone, and a retried job finds the ticket closed and does nothing.
 */
import { z } from 'zod';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { defineJob, type JobDefinition } from '../../platform/jobs/queue.js';
import { lockVisibleTicket } from './tickets.access.js';
import { loadTicketDto } from './tickets.dto.js';
import * as repo from './tickets.repository.js';
import { closedPatch } from './tickets.transitions.js';
import './tickets.events.js';

export const CLOSE_AFTER_FAREWELL_JOB = 'tickets.close-after-farewell';

export const closeAfterFarewellSchema = z.object({
  tenantId: z.number().int().positive(),
  ticketId: z.number().int().positive(),
  /** Who resolved it: the `closed` log names them. */
  userId: z.number().int().positive().nullable(),
  /** The `closingAt` the resolve set; another value means this close is no longer wanted. */
  closingAt: z.iso.datetime(),
});
export type CloseAfterFarewellPayload = z.infer<typeof closeAfterFarewellSchema>;

export interface TicketsJobs {
  closeAfterFarewell: JobDefinition<CloseAfterFarewellPayload>;
}

export function createTicketsJobs(deps: { db: Database; events: EventBus }): TicketsJobs {
  const closeAfterFarewell = defineJob<CloseAfterFarewellPayload>({
    name: CLOSE_AFTER_FAREWELL_JOB,
    schema: closeAfterFarewellSchema,
    retryLimit: 5,
    async handler(payload) {
      await closeTicketAfterFarewell(deps, payload);
    },
  });
  return { closeAfterFarewell };
}

export async function closeTicketAfterFarewell(
  deps: { db: Database; events: EventBus },
  payload: CloseAfterFarewellPayload,
): Promise<boolean> {
  const ctx = systemContext(payload.tenantId);
  const dto = await withTenant(deps.db, ctx, async (tx) => {
    const ticket = await lockVisibleTicket(tx, ctx, payload.ticketId);
    const due = ticket?.closingAt?.getTime() === Date.parse(payload.closingAt);
    if (!ticket || ticket.status === 'closed' || !due) return null;
    await repo.updateTicket(tx, ctx.tenantId, ticket.id, closedPatch());
    await repo.insertLog(tx, ctx.tenantId, {
      ticketId: ticket.id,
      userId: payload.userId,
      type: 'closed',
      details: { from: { status: ticket.status }, to: { status: 'closed' }, farewell: true },
    });
    return { dto: await loadTicketDto(tx, ticket.id), ticket };
  });
  if (!dto?.dto) return false;
  deps.events.publish('tickets.changed', {
    tenantId: payload.tenantId,
    type: 'ticket:update',
    ticket: dto.dto,
    previousUserId: dto.ticket.userId,
    previousQueueId: dto.ticket.queueId,
  });
  return true;
}
