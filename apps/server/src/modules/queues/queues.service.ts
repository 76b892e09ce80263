/** The tenant's queues: every profile lists them (filters, transfer); supervisors and admins manage them. */
import type { QueueDto } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import * as repo from './queues.repository.js';
import './queues.events.js';

const toQueueDto = (row: repo.QueueRow): QueueDto => ({
  id: row.id,
  queue: row.queue,
  isActive: row.isActive,
  distribution: row.distribution,
});

function rethrowDuplicateName(error: unknown): never {
  if (repo.isDuplicateQueueName(error)) throw fail('ERR_QUEUE_EXISTS');
  throw error;
}

export function createQueuesService(deps: { db: Database; events: EventBus }) {
  const { db, events } = deps;
  const changed = (ctx: TenantContext, action: 'create' | 'update' | 'delete', queue: QueueDto) =>
    events.publish('queues.changed', { tenantId: ctx.tenantId, action, queue });
  return {
    listQueues: async (ctx: TenantContext): Promise<QueueDto[]> =>
      (await withTenant(db, ctx, (tx) => repo.listQueues(tx, ctx.tenantId))).map(toQueueDto),

    async createQueue(ctx: TenantContext, values: repo.QueueValues): Promise<QueueDto> {
      const queue = toQueueDto(
        await withTenant(db, ctx, (tx) => repo.insertQueue(tx, ctx.tenantId, values)).catch(rethrowDuplicateName),
      );
      changed(ctx, 'create', queue);
      return queue;
    },

    async updateQueue(ctx: TenantContext, id: number, values: repo.QueueValues): Promise<QueueDto> {
      const row = await withTenant(db, ctx, (tx) => repo.updateQueue(tx, ctx.tenantId, id, values)).catch(
        rethrowDuplicateName,
      );
      if (!row) throw fail('ERR_NO_QUEUE_FOUND');
      const queue = toQueueDto(row);
      changed(ctx, 'update', queue);
      return queue;
    },

    async deleteQueue(ctx: TenantContext, id: number): Promise<void> {
      const row = await withTenant(db, ctx, async (tx) => {
        // The lock keeps a ticket from being routed to the queue between the check and the delete.
        const locked = await repo.lockQueue(tx, ctx.tenantId, id);
        if (!locked) throw fail('ERR_NO_QUEUE_FOUND');
        if (await repo.queueHasTickets(tx, ctx.tenantId, id)) throw fail('ERR_QUEUE_TICKET_EXISTS');
        await repo.deleteQueue(tx, ctx.tenantId, id);
        return locked;
      });
      changed(ctx, 'delete', toQueueDto(row));
    },
  };
}

export type QueuesService = ReturnType<typeof createQueuesService>;
