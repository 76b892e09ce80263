/**
 * The media quota's counter (`tenant_media_usage`), behind the platform's MediaQuota port: the store charges a put
 * after writing it and gives the bytes back on delete. The charge is one conditional update, so concurrent
 * uploads of a tenant serialise on its counter row and together never pass the quota.
 */
import { and, eq, sql } from 'drizzle-orm';
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
    charge: (tenantId, bytes) =>
      run(tenantId, async (tx) => {
        await tx.insert(tenantMediaUsage).values({ tenantId, usedBytes: 0 }).onConflictDoNothing();
        const quota = await quotaOf(tx, tenantId, defaultQuota);
        const charged = await tx
          .update(tenantMediaUsage)
          .set({ usedBytes: sql`${tenantMediaUsage.usedBytes} + ${bytes}`, updatedAt: new Date() })
          .where(
            and(eq(tenantMediaUsage.tenantId, tenantId), sql`${tenantMediaUsage.usedBytes} + ${bytes} <= ${quota}`),
          )
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
