/** The queries on kanban lanes, and the lane side of contacts (`contacts.kanban`). */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { contacts } from '../contacts/contacts.tables.js';
import { kanbanLanes } from './kanban.tables.js';

export type LaneRow = typeof kanbanLanes.$inferSelect;

export async function listLanes(tx: Queryable, tenantId: TenantId): Promise<LaneRow[]> {
  return tx
    .select()
    .from(kanbanLanes)
    .where(eq(kanbanLanes.tenantId, tenantId))
    .orderBy(asc(kanbanLanes.position), asc(kanbanLanes.id));
}

/** The position after the tenant's last lane. */
export async function nextPosition(tx: Queryable, tenantId: TenantId): Promise<number> {
  const [row] = await tx
    .select({ next: sql<number>`coalesce(max(${kanbanLanes.position}) + 1, 0)`.mapWith(Number) })
    .from(kanbanLanes)
    .where(eq(kanbanLanes.tenantId, tenantId));
  return row?.next ?? 0;
}

export async function insertLane(
  tx: Queryable,
  tenantId: TenantId,
  values: { name: string; position: number },
): Promise<LaneRow> {
  const [row] = await tx
    .insert(kanbanLanes)
    .values({ tenantId, ...values })
    .returning();
  return row!;
}

export async function updateLane(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  values: { name: string; position?: number | undefined },
): Promise<LaneRow | undefined> {
  const [row] = await tx
    .update(kanbanLanes)
    .set({
      name: values.name,
      ...(values.position === undefined ? {} : { position: values.position }),
      updatedAt: sql`now()`,
    })
    .where(and(eq(kanbanLanes.tenantId, tenantId), eq(kanbanLanes.id, id)))
    .returning();
  return row;
}

/** The tenant's lanes, locked until the transaction ends (a reorder or a delete against concurrent moves). */
export async function lockLanes(tx: Queryable, tenantId: TenantId): Promise<LaneRow[]> {
  return tx
    .select()
    .from(kanbanLanes)
    .where(eq(kanbanLanes.tenantId, tenantId))
    .orderBy(asc(kanbanLanes.position), asc(kanbanLanes.id))
    .for('update');
}

/** Sets each lane's position to its index in `ids`, in one statement. */
export async function setPositions(tx: Queryable, tenantId: TenantId, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await tx.execute(sql`update kanban_lanes l set position = o.position - 1, updated_at = now()
    from unnest(${`{${ids.join(',')}}`}::bigint[]) with ordinality as o(id, position)
    where l.tenant_id = ${tenantId} and l.id = o.id`);
}

/**
 * Deletes the lane and takes its contacts out of it (no foreign key holds `contacts.kanban`). Answers how many
 * contacts it took out, or null when the lane is not the tenant's.
 */
export async function deleteLane(tx: Queryable, tenantId: TenantId, id: number): Promise<number | null> {
  const deleted = await tx
    .delete(kanbanLanes)
    .where(and(eq(kanbanLanes.tenantId, tenantId), eq(kanbanLanes.id, id)))
    .returning({ id: kanbanLanes.id });
  if (deleted.length === 0) return null;
  const cleared = await tx
    .update(contacts)
    .set({ kanban: null, updatedAt: sql`now()` })
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.kanban, id)))
    .returning({ id: contacts.id });
  return cleared.length;
}

export async function findLaneIds(tx: Queryable, tenantId: TenantId, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: kanbanLanes.id })
    .from(kanbanLanes)
    .where(and(eq(kanbanLanes.tenantId, tenantId), inArray(kanbanLanes.id, ids)));
  return rows.map((r) => r.id);
}
