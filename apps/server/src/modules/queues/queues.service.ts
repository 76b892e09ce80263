/** The tenant's queues: every profile lists them (filters, transfer); admins create, rename and delete them. */
import type { QueueDto } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import * as repo from './queues.repository.js';

const toQueueDto = (row: repo.QueueRow): QueueDto => ({ id: row.id, queue: row.queue, isActive: row.isActive });

function rethrowDuplicateName(error: unknown): never {
  if (repo.isDuplicateQueueName(error)) throw fail('ERR_VALIDATION', 'queue');
  throw error;
}

export function createQueuesService(deps: { db: Database }) {
  const { db } = deps;
  return {
    listQueues: async (ctx: TenantContext): Promise<QueueDto[]> =>
      (await withTenant(db, ctx, (tx) => repo.listQueues(tx, ctx.tenantId))).map(toQueueDto),

    createQueue: async (ctx: TenantContext, values: repo.QueueValues): Promise<QueueDto> =>
      toQueueDto(
        await withTenant(db, ctx, (tx) => repo.insertQueue(tx, ctx.tenantId, values)).catch(rethrowDuplicateName),
      ),

    async updateQueue(ctx: TenantContext, id: number, values: repo.QueueValues): Promise<QueueDto> {
      const row = await withTenant(db, ctx, (tx) => repo.updateQueue(tx, ctx.tenantId, id, values)).catch(
        rethrowDuplicateName,
      );
      if (!row) throw fail('ERR_NO_QUEUE_FOUND');
      return toQueueDto(row);
    },

    async deleteQueue(ctx: TenantContext, id: number): Promise<void> {
      await withTenant(db, ctx, async (tx) => {
        // The lock keeps a ticket from being routed to the queue between the check and the delete.
        if (!(await repo.lockQueue(tx, ctx.tenantId, id))) throw fail('ERR_NO_QUEUE_FOUND');
        if (await repo.queueHasTickets(tx, ctx.tenantId, id)) throw fail('ERR_QUEUE_TICKET_EXISTS');
        await repo.deleteQueue(tx, ctx.tenantId, id);
      });
    },
  };
}

export type QueuesService = ReturnType<typeof createQueuesService>;
