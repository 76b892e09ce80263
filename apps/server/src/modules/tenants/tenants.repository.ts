/** Queries on tenants and plans. The superadmin and sign-up paths call these under withSystem, the rest under withTenant. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { plans, tenants } from './tenants.tables.js';

export type TenantRow = typeof tenants.$inferSelect;
export type PlanRow = typeof plans.$inferSelect;

export type NewTenant = Pick<
  typeof tenants.$inferInsert,
  'name' | 'status' | 'identity' | 'phone' | 'maxUsers' | 'maxConnections' | 'trial' | 'trialPeriod' | 'planId'
>;
export type TenantPatch = Partial<
  Pick<
    TenantRow,
    'name' | 'status' | 'identity' | 'maxUsers' | 'maxConnections' | 'trial' | 'trialPeriod' | 'mediaQuotaBytes'
  >
>;

export async function findTenantById(tx: Queryable, id: number): Promise<TenantRow | undefined> {
  const [row] = await tx.select().from(tenants).where(eq(tenants.id, id));
  return row;
}

export async function listTenants(tx: Queryable): Promise<TenantRow[]> {
  return tx.select().from(tenants).orderBy(asc(tenants.id));
}

export async function insertTenant(tx: Queryable, values: NewTenant): Promise<TenantRow> {
  const [row] = await tx.insert(tenants).values(values).returning();
  return row!;
}

export async function updateTenant(tx: Queryable, id: number, patch: TenantPatch): Promise<TenantRow | undefined> {
  const [row] = await tx
    .update(tenants)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(tenants.id, id))
    .returning();
  return row;
}

export async function deleteTenant(tx: Queryable, id: number): Promise<boolean> {
  const rows = await tx.delete(tenants).where(eq(tenants.id, id)).returning({ id: tenants.id });
  return rows.length > 0;
}

export async function listPublicPlans(tx: Queryable): Promise<PlanRow[]> {
  return tx.select().from(plans).where(eq(plans.isPublic, true)).orderBy(asc(plans.value), asc(plans.id));
}

export async function findPublicPlan(tx: Queryable, id: number): Promise<PlanRow | undefined> {
  const [row] = await tx
    .select()
    .from(plans)
    .where(and(eq(plans.id, id), eq(plans.isPublic, true)));
  return row;
}
