/** The queries on queues. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DistributionMode } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { queues } from './queues.tables.js';

export type QueueRow = typeof queues.$inferSelect;
export type QueueValues = {
  queue: string;
  isActive?: boolean | undefined;
  /** Absent on create: 'N'; absent on update: unchanged. */
  distribution?: DistributionMode | undefined;
};

export async function listQueues(tx: Queryable, tenantId: TenantId): Promise<QueueRow[]> {
  return tx.select().from(queues).where(eq(queues.tenantId, tenantId)).orderBy(asc(queues.queue), asc(queues.id));
}

export async function insertQueue(tx: Queryable, tenantId: TenantId, values: QueueValues): Promise<QueueRow> {
  const [row] = await tx
    .insert(queues)
    .values({
      tenantId,
      queue: values.queue,
      isActive: values.isActive ?? true,
      distribution: values.distribution ?? 'N',
    })
    .returning();
  return row!;
}

export async function updateQueue(tx: Queryable, tenantId: TenantId, id: number, values: QueueValues) {
  const [row] = await tx
    .update(queues)
    .set({
      queue: values.queue,
      ...(values.isActive === undefined ? {} : { isActive: values.isActive }),
      ...(values.distribution === undefined ? {} : { distribution: values.distribution }),
      updatedAt: sql`now()`,
    })
    .where(and(eq(queues.tenantId, tenantId), eq(queues.id, id)))
    .returning();
  return row;
}

export async function lockQueue(tx: Queryable, tenantId: TenantId, id: number): Promise<QueueRow | undefined> {
  const [row] = await tx
    .select()
    .from(queues)
    .where(and(eq(queues.tenantId, tenantId), eq(queues.id, id)))
    .for('update');
  return row;
}

/** Tickets reference queues by id; the tickets table is read by name here, as the tickets module imports queues. */
export async function queueHasTickets(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const result = (await tx.execute(
    sql`select exists (select 1 from tickets where tenant_id = ${tenantId} and queue_id = ${id}) as used`,
  )) as unknown as { rows: { used: boolean }[] };
  return result.rows[0]?.used === true;
}

export async function deleteQueue(tx: Queryable, tenantId: TenantId, id: number): Promise<void> {
  await tx.delete(queues).where(and(eq(queues.tenantId, tenantId), eq(queues.id, id)));
}

/** True when the error is the per-tenant queue name uniqueness. */
export function isDuplicateQueueName(error: unknown): boolean {
  return [error, (error as { cause?: unknown } | null)?.cause].some((e) => {
    const pgError = e as { code?: string; message?: string } | null;
    return pgError?.code === '23505';
  });
}
