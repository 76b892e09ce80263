/** The queries on channels. Tenant-scoped functions take the branded TenantId; RLS filters below them too. */
import { and, asc, count, eq, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { statement } from '../../platform/db/statements.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { queues } from '../queues/queues.tables.js';
import { tenants } from '../tenants/tenants.tables.js';
import { users } from '../users/users.tables.js';
import { channels } from './channels.tables.js';

export type ChannelRow = typeof channels.$inferSelect;
export type ChannelValues = Omit<typeof channels.$inferInsert, 'id' | 'tenantId' | 'createdAt' | 'updatedAt'>;

export function listChannels(tx: Queryable, tenantId: TenantId): Promise<ChannelRow[]> {
  return tx.select().from(channels).where(eq(channels.tenantId, tenantId)).orderBy(asc(channels.id));
}

export async function findChannel(tx: Queryable, tenantId: TenantId, id: number): Promise<ChannelRow | undefined> {
  const [row] = await tx
    .select()
    .from(channels)
    .where(and(eq(channels.tenantId, tenantId), eq(channels.id, id)));
  return row;
}

/** The channel locked until the transaction ends (edits and session changes of one channel run one at a time). */
export async function lockChannel(tx: Queryable, tenantId: TenantId, id: number): Promise<ChannelRow | undefined> {
  const [row] = await tx
    .select()
    .from(channels)
    .where(and(eq(channels.tenantId, tenantId), eq(channels.id, id)))
    .for('update');
  return row;
}

/** By id alone: only for the webhook lookup (system path `channels.webhook-lookup`), before the tenant is known. */
/** A channel of the tenant (explicit tenant filter beside RLS, on the tenant-leading index). */
export async function findTenantChannel(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
): Promise<ChannelRow | undefined> {
  const [row] = await tx
    .select()
    .from(channels)
    .where(and(eq(channels.tenantId, tenantId), eq(channels.id, id)));
  return row;
}

export async function findDefaultChannel(tx: Queryable, tenantId: TenantId): Promise<ChannelRow | undefined> {
  const [row] = await tx
    .select()
    .from(channels)
    .where(and(eq(channels.tenantId, tenantId), eq(channels.isDefault, true)));
  return row;
}

/** Built once: every webhook call reads its channel. */
const channelById = statement('channel_by_id', ['id'], (q, p) =>
  q.select().from(channels).where(eq(channels.id, p.id)),
);

export async function findChannelById(tx: Queryable, id: number): Promise<ChannelRow | undefined> {
  const [row] = await channelById(tx, { id });
  return row;
}

/** The tenant's gateway defaults (API URLs and Evolution key) a new gateway channel starts from. */
export async function findGatewayDefaults(
  tx: Queryable,
  tenantId: TenantId,
): Promise<{ evoHost: string | null; evoToken: string | null; wuzapiHost: string | null }> {
  const [row] = await tx
    .select({ evoHost: tenants.evoHost, evoToken: tenants.evoToken, wuzapiHost: tenants.wuzapiHost })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row ?? { evoHost: null, evoToken: null, wuzapiHost: null };
}

/** Whether one of the tenant's Evolution channels already uses this instance name. */
export async function evolutionInstanceTaken(tx: Queryable, tenantId: TenantId, wabaId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: channels.id })
    .from(channels)
    .where(and(eq(channels.tenantId, tenantId), eq(channels.type, 'evo'), eq(channels.wabaId, wabaId)))
    .limit(1);
  return Boolean(row);
}

/** Every tenant's channels, for the superadmin screen (system path `channels.superadmin`). */
export function listAllChannels(tx: Queryable): Promise<ChannelRow[]> {
  return tx.select().from(channels).orderBy(asc(channels.tenantId), asc(channels.id));
}

export async function insertChannel(tx: Queryable, tenantId: TenantId, values: ChannelValues): Promise<ChannelRow> {
  const [row] = await tx
    .insert(channels)
    .values({ ...values, tenantId })
    .returning();
  return row!;
}

export async function updateChannel(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  patch: Partial<ChannelValues>,
): Promise<ChannelRow | undefined> {
  const [row] = await tx
    .update(channels)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(channels.tenantId, tenantId), eq(channels.id, id)))
    .returning();
  return row;
}

export async function deleteChannel(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const rows = await tx
    .delete(channels)
    .where(and(eq(channels.tenantId, tenantId), eq(channels.id, id)))
    .returning({ id: channels.id });
  return rows.length > 0;
}

/** Clears the default flag on the tenant's other channels (one default per tenant is a unique index). */
export async function clearDefault(tx: Queryable, tenantId: TenantId, exceptId: number): Promise<ChannelRow[]> {
  return tx
    .update(channels)
    .set({ isDefault: false, updatedAt: sql`now()` })
    .where(and(eq(channels.tenantId, tenantId), eq(channels.isDefault, true), ne(channels.id, exceptId)))
    .returning();
}

export async function countChannels(tx: Queryable, tenantId: TenantId): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(channels).where(eq(channels.tenantId, tenantId));
  return Number(row?.n ?? 0);
}

/** Locks the tenant row, so concurrent creations count channels one after the other. */
export async function lockTenantLimit(tx: Queryable, tenantId: TenantId): Promise<number | undefined> {
  const [row] = await tx
    .select({ maxConnections: tenants.maxConnections })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .for('update');
  return row?.maxConnections;
}

export async function queueExists(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.tenantId, tenantId), eq(queues.id, id)));
  return row !== undefined;
}

export async function userExists(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return row !== undefined;
}

/** A chat flow of the tenant that is not deleted (named in SQL: the chatbot module imports channels). */
export async function chatFlowExists(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const result = (await tx.execute(
    sql`select exists (select 1 from chat_flows where tenant_id = ${tenantId} and id = ${id} and not is_deleted) as found`,
  )) as unknown as { rows: { found: boolean }[] };
  return result.rows[0]?.found === true;
}
