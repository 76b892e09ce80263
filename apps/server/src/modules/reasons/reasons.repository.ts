/** The queries on reasons. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { reasons } from './reasons.tables.js';

export type ReasonRow = typeof reasons.$inferSelect;

export async function listReasons(tx: Queryable, tenantId: TenantId): Promise<ReasonRow[]> {
  return tx.select().from(reasons).where(eq(reasons.tenantId, tenantId)).orderBy(asc(reasons.name), asc(reasons.id));
}

export async function findReason(tx: Queryable, tenantId: TenantId, id: number): Promise<ReasonRow | undefined> {
  const [row] = await tx
    .select()
    .from(reasons)
    .where(and(eq(reasons.tenantId, tenantId), eq(reasons.id, id)));
  return row;
}

export async function insertReason(tx: Queryable, tenantId: TenantId, name: string): Promise<ReasonRow> {
  const [row] = await tx.insert(reasons).values({ tenantId, name }).returning();
  return row!;
}

export async function updateReason(tx: Queryable, tenantId: TenantId, id: number, name: string) {
  const [row] = await tx
    .update(reasons)
    .set({ name, updatedAt: sql`now()` })
    .where(and(eq(reasons.tenantId, tenantId), eq(reasons.id, id)))
    .returning();
  return row;
}

/** Deletes the reason and clears it from the tenant's tickets (no foreign key holds `tickets.reason_id`). */
export async function deleteReason(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const rows = await tx
    .delete(reasons)
    .where(and(eq(reasons.tenantId, tenantId), eq(reasons.id, id)))
    .returning({ id: reasons.id });
  if (rows.length === 0) return false;
  // The tickets table is read by name: the tickets module is not imported here.
  await tx.execute(sql`update tickets set reason_id = null where tenant_id = ${tenantId} and reason_id = ${id}`);
  return true;
}

/** True when the error is the per-tenant reason name uniqueness. */
export function isDuplicateReason(error: unknown): boolean {
  return [error, (error as { cause?: unknown } | null)?.cause].some((e) => {
    const pgError = e as { code?: string; constraint?: string; message?: string } | null;
    const name = 'reasons_tenant_name_unique';
    return pgError?.code === '23505' && (pgError.constraint === name || !!pgError.message?.includes(name));
  });
}
