/**
 * The media quota's counter (`tenant_media_usage`), behind the platform's MediaQuota port: the store charges a put
 * after writing it and gives the bytes back on delete. The charge is one conditional update, so concurrent
 * uploads of a tenant serialise on its counter row and together never pass the quota.
 */
import { eq, sql } from 'drizzle-orm';
import type { Database, Tx } from '../../platform/db/client.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import type { MediaQuota } from '../../platform/storage/media-quota.js';
import { tenantMediaUsage, tenants } from './tenants.tables.js';

async function quotaOf(tx: Tx, tenantId: number, fallback: number): Promise<number> {
  const [row] = await tx.select({ quota: tenants.mediaQuotaBytes }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.quota ?? fallback;
}

export async function readMediaUsage(tx: Tx, tenantId: number): Promise<number> {
  const [row] = await tx
    .select({ used: tenantMediaUsage.usedBytes })
    .from(tenantMediaUsage)
    .where(eq(tenantMediaUsage.tenantId, tenantId));
  return row?.used ?? 0;
}

/** `defaultQuota` is MEDIA_TENANT_QUOTA_BYTES, for tenants whose own quota is null. */
export function createMediaQuota(db: Database, defaultQuota: number): MediaQuota {
  const run = <T>(tenantId: number, fn: (tx: Tx) => Promise<T>) => withTenant(db, systemContext(tenantId), fn);
  return {
    // One statement: the first charge creates the counter row, later ones add to it, and either happens only when
    // the total stays within the tenant's quota (its own, else the default). It runs on every downloaded provider
    // file, so it is one round trip inside the tenant transaction instead of an insert, a select and an update.
    charge: (tenantId, bytes) =>
      run(tenantId, async (tx) => {
        const quota = sql`coalesce((select ${tenants.mediaQuotaBytes} from ${tenants} where ${tenants.id} = ${tenantId}), ${defaultQuota})`;
        const charged = await tx
          .insert(tenantMediaUsage)
          .select(
            tx
              .select({
                tenantId: sql<number>`${tenantId}::bigint`.as('tenant_id'),
                usedBytes: sql<number>`${bytes}::bigint`.as('used_bytes'),
                updatedAt: sql<Date>`now()`.as('updated_at'),
              })
              .from(sql`(select 1) as one`)
              .where(sql`${bytes} <= ${quota}`),
          )
          .onConflictDoUpdate({
            target: tenantMediaUsage.tenantId,
            set: { usedBytes: sql`${tenantMediaUsage.usedBytes} + excluded.used_bytes`, updatedAt: sql`now()` },
            setWhere: sql`${tenantMediaUsage.usedBytes} + excluded.used_bytes <= ${quota}`,
          })
          .returning({ used: tenantMediaUsage.usedBytes });
        return charged.length > 0;
      }),
    release: (tenantId, bytes) =>
      run(tenantId, async (tx) => {
        await tx
          .update(tenantMediaUsage)
          .set({ usedBytes: sql`greatest(${tenantMediaUsage.usedBytes} - ${bytes}, 0)`, updatedAt: new Date() })
          .where(eq(tenantMediaUsage.tenantId, tenantId));
      }),
    remaining: (tenantId) =>
      run(tenantId, async (tx) => (await quotaOf(tx, tenantId, defaultQuota)) - (await readMediaUsage(tx, tenantId))),
  };
}
