/**
 * Queue membership of users (`user_queues`): the user DTO's `queues`, set on create and update. The table is named in
 * SQL because the queues module imports users (an import back would be a cycle).
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';

export interface QueueRef {
  id: number;
  queue: string;
  name: string;
}

const bigintArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::bigint[]`;

/** The queues of each user, by user id (`queue` and `name` both hold the queue's name, as clients read either). */
export async function loadUserQueues(tx: Queryable, userIds: number[]): Promise<Map<number, QueueRef[]>> {
  const map = new Map<number, QueueRef[]>();
  if (userIds.length === 0) return map;
  const rows = await queryRows<{ userId: number; id: number; queue: string }>(
    tx,
    sql`select uq.user_id as "userId", q.id, q.queue from user_queues uq join queues q on q.id = uq.queue_id
        where uq.user_id = any(${bigintArray(userIds)}) order by q.queue, q.id`,
  );
  for (const { userId, id, queue } of rows) map.set(userId, [...(map.get(userId) ?? []), { id, queue, name: queue }]);
  return map;
}

/** Replaces the user's queues; ids that are not queues of the tenant are refused (field `queues`). */
export async function replaceUserQueues(tx: Queryable, tenantId: TenantId, userId: number, queueIds: number[]) {
  const ids = [...new Set(queueIds)];
  const found = await queryRows<{ id: number }>(
    tx,
    sql`select id from queues where tenant_id = ${tenantId} and id = any(${bigintArray(ids)})`,
  );
  if (found.length !== ids.length) throw fail('ERR_VALIDATION', 'queues');
  await tx.execute(sql`delete from user_queues where tenant_id = ${tenantId} and user_id = ${userId}`);
  if (ids.length === 0) return;
  await tx.execute(sql`insert into user_queues (tenant_id, user_id, queue_id)
    select ${tenantId}, ${userId}, id from unnest(${bigintArray(ids)}) as id`);
}
