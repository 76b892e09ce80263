/**
 * The channels a user may work on (`user_channels`, the user DTO's `whatsappAllowed`, client-contract §3). An empty
 * list means every channel. The tables are named in SQL because the channels module imports users.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';

export interface ChannelRef {
  id: number;
  name: string;
}

const bigintArray = (ids: number[]) => sql`${`{${ids.join(',')}}`}::bigint[]`;

/** The allowed channels of each user, by user id. */
export async function loadUserChannels(tx: Queryable, userIds: number[]): Promise<Map<number, ChannelRef[]>> {
  const map = new Map<number, ChannelRef[]>();
  if (userIds.length === 0) return map;
  const rows = await queryRows<{ userId: number; id: number; name: string }>(
    tx,
    sql`select uc.user_id as "userId", c.id, c.name from user_channels uc join channels c on c.id = uc.channel_id
        where uc.user_id = any(${bigintArray(userIds)}) order by c.name, c.id`,
  );
  for (const { userId, id, name } of rows) map.set(userId, [...(map.get(userId) ?? []), { id, name }]);
  return map;
}

/** Replaces the user's allowed channels; ids that are not channels of the tenant are refused (`whatsappAllowed`). */
export async function replaceUserChannels(tx: Queryable, tenantId: TenantId, userId: number, channelIds: number[]) {
  const ids = [...new Set(channelIds)];
  const found = await queryRows<{ id: number }>(
    tx,
    sql`select id from channels where tenant_id = ${tenantId} and id = any(${bigintArray(ids)})`,
  );
  if (found.length !== ids.length) throw fail('ERR_VALIDATION', 'whatsappAllowed');
  await tx.execute(sql`delete from user_channels where tenant_id = ${tenantId} and user_id = ${userId}`);
  if (ids.length === 0) return;
  await tx.execute(sql`insert into user_channels (tenant_id, user_id, channel_id)
    select ${tenantId}, ${userId}, id from unnest(${bigintArray(ids)}) as id`);
}
