/** The queries on closing messages. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { farewellMessages } from './farewells.tables.js';

export type FarewellRow = typeof farewellMessages.$inferSelect;

export async function listFarewells(tx: Queryable, tenantId: TenantId): Promise<FarewellRow[]> {
  return tx
    .select()
    .from(farewellMessages)
    .where(eq(farewellMessages.tenantId, tenantId))
    .orderBy(asc(farewellMessages.id));
}

export async function insertFarewell(
  tx: Queryable,
  tenantId: TenantId,
  values: { message: string; userId: number | null },
): Promise<FarewellRow> {
  const [row] = await tx
    .insert(farewellMessages)
    .values({ tenantId, ...values })
    .returning();
  return row!;
}

export async function updateFarewell(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  message: string,
): Promise<FarewellRow | undefined> {
  const [row] = await tx
    .update(farewellMessages)
    .set({ message, updatedAt: sql`now()` })
    .where(and(eq(farewellMessages.tenantId, tenantId), eq(farewellMessages.id, id)))
    .returning();
  return row;
}

export async function deleteFarewell(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const rows = await tx
    .delete(farewellMessages)
    .where(and(eq(farewellMessages.tenantId, tenantId), eq(farewellMessages.id, id)))
    .returning({ id: farewellMessages.id });
  return rows.length > 0;
}

export async function deleteAllFarewells(tx: Queryable, tenantId: TenantId): Promise<number> {
  const rows = await tx
    .delete(farewellMessages)
    .where(eq(farewellMessages.tenantId, tenantId))
    .returning({ id: farewellMessages.id });
  return rows.length;
}
