/**
 * The lease of a stateful session (`channel_sessions`): which server process runs it (`owner`, until `lease_until`)
 * and whether anyone wants it running (`wanted`). Times are the database's (`now()`), so nodes' clocks do not matter.
 * The supervisor's statements read across tenants (system path `channels.sessions`); the user's intent is written in
 * the tenant's own transaction (RLS).
 */
import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Database, type Queryable } from '../../../platform/db/client.js';
import { withSystem, type TenantId } from '../../../platform/db/tenancy.js';
import { channelSessions } from '../channels.tables.js';

export type SessionRow = typeof channelSessions.$inferSelect;

export interface HeldLease {
  channelId: number;
  tenantId: number;
  wanted: boolean;
  pairingNumber: string | null;
}

const held = (row: Record<string, unknown>): HeldLease => ({
  channelId: Number(row.channel_id),
  tenantId: Number(row.tenant_id),
  wanted: Boolean(row.wanted),
  pairingNumber: (row.pairing_number as string | null) ?? null,
});

const interval = (ms: number) => sql`(${`${Math.max(1, Math.round(ms))} milliseconds`})::interval`;

/** Renews every lease this node holds; answers them (a lease taken away or a deleted channel is not among them). */
export async function renewLeases(db: Database, node: string, ttlMs: number): Promise<HeldLease[]> {
  const rows = await withSystem(db, 'channels.sessions', (tx) =>
    queryRows(
      tx,
      sql`update channel_sessions set lease_until = now() + ${interval(ttlMs)}
          where owner = ${node} returning channel_id, tenant_id, wanted, pairing_number`,
    ),
  );
  return rows.map(held);
}

/**
 * Takes up to `limit` wanted sessions whose lease is free or ran out. The update re-checks its condition on the row
 * it locks, so when two nodes race for one session only one update matches; `skip locked` lets them take different
 * ones instead of waiting on each other. Oldest expiry first: a dead node's sessions before never-claimed ones.
 */
export async function claimLeases(db: Database, node: string, ttlMs: number, limit: number): Promise<HeldLease[]> {
  if (limit <= 0) return [];
  const rows = await withSystem(db, 'channels.sessions', (tx) =>
    queryRows(
      tx,
      sql`update channel_sessions set owner = ${node}, lease_until = now() + ${interval(ttlMs)}, updated_at = now()
          where channel_id in (
            select channel_id from channel_sessions
            where wanted and (owner is null or lease_until is null or lease_until < now())
            order by lease_until nulls first, channel_id limit ${limit} for update skip locked)
          and wanted and (owner is null or lease_until is null or lease_until < now())
          returning channel_id, tenant_id, wanted, pairing_number`,
    ),
  );
  return rows.map(held);
}

/** Gives leases up at once (shutdown, a stopped session), so another node need not wait for them to run out. */
export async function releaseLeases(db: Database, node: string, channelIds: number[] | 'all'): Promise<void> {
  if (channelIds !== 'all' && channelIds.length === 0) return;
  const which = channelIds === 'all' ? sql`` : sql` and channel_id = any(${`{${channelIds.join(',')}}`}::bigint[])`;
  await withSystem(db, 'channels.sessions', (tx) =>
    queryRows(
      tx,
      sql`update channel_sessions set owner = null, lease_until = null, updated_at = now()
          where owner = ${node}${which} returning channel_id`,
    ),
  );
}

/** Which of these channels still have a session row (a missing one was deleted with its channel). */
export async function existingSessions(db: Database, channelIds: number[]): Promise<Set<number>> {
  if (channelIds.length === 0) return new Set();
  const rows = await withSystem(db, 'channels.sessions', (tx) =>
    queryRows<{ channel_id: number }>(
      tx,
      sql`select channel_id from channel_sessions where channel_id = any(${`{${channelIds.join(',')}}`}::bigint[])`,
    ),
  );
  return new Set(rows.map((r) => Number(r.channel_id)));
}

/** A session's row with whether its lease is alive now (someone runs it). */
export async function findLiveOwner(db: Database, channelId: number): Promise<string | null> {
  const rows = await withSystem(db, 'channels.sessions', (tx) =>
    queryRows<{ owner: string | null }>(
      tx,
      sql`select owner from channel_sessions where channel_id = ${channelId} and lease_until > now()`,
    ),
  );
  return rows[0]?.owner ?? null;
}

/** The supervisor's own decision to stop a session (logged out, QR timeout, conflict): nobody should reopen it. */
export async function unwantSession(db: Database, node: string, channelId: number): Promise<void> {
  await withSystem(db, 'channels.sessions', (tx) =>
    queryRows(
      tx,
      sql`update channel_sessions set wanted = false, owner = null, lease_until = null, updated_at = now()
          where channel_id = ${channelId} and (owner = ${node} or owner is null) returning channel_id`,
    ),
  );
}

/** In the tenant's transaction: the session's row, if the channel was ever started as a session. */
export async function findSession(
  tx: Queryable,
  tenantId: TenantId,
  channelId: number,
): Promise<SessionRow | undefined> {
  const [row] = await tx
    .select()
    .from(channelSessions)
    .where(and(eq(channelSessions.tenantId, tenantId), eq(channelSessions.channelId, channelId)));
  return row;
}

/**
 * In the tenant's transaction: the user's intent. `restart` also frees the lease, so its owner drops the session and
 * a node (maybe the same) opens it again: a new login attempt.
 */
export async function saveIntent(
  tx: Queryable,
  tenantId: TenantId,
  channelId: number,
  intent: { wanted: boolean; pairingNumber?: string | null; restart?: boolean },
): Promise<void> {
  const lease = intent.restart ? { owner: null, leaseUntil: null } : {};
  const pairing = intent.pairingNumber !== undefined ? { pairingNumber: intent.pairingNumber } : {};
  await tx
    .insert(channelSessions)
    .values({ channelId, tenantId, wanted: intent.wanted, pairingNumber: intent.pairingNumber ?? null })
    .onConflictDoUpdate({
      target: channelSessions.channelId,
      set: { wanted: intent.wanted, ...pairing, ...lease, updatedAt: sql`now()` },
    });
}
