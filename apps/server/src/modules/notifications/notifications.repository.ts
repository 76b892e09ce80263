/** The queries on notifications: the caller's own and the tenant-wide ones. */
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { users } from '../users/users.tables.js';
import { notifications } from './notifications.tables.js';

export type NotificationRow = typeof notifications.$inferSelect;
export type NotificationWithUser = NotificationRow & { userName: string | null };

export interface NewNotification {
  userId: number | null;
  senderId: number | null;
  message: string;
  data: Record<string, unknown>;
}

/** What a user sees: addressed to them, or to everyone in the tenant. */
const visibleTo = (tenantId: TenantId, userId: number) =>
  and(eq(notifications.tenantId, tenantId), or(eq(notifications.userId, userId), isNull(notifications.userId)));

const withUser = {
  row: notifications,
  userName: users.name,
};

const flatten = (r: { row: NotificationRow; userName: string | null }): NotificationWithUser => ({
  ...r.row,
  userName: r.userName,
});

export async function insertNotifications(
  tx: Queryable,
  tenantId: TenantId,
  values: NewNotification[],
): Promise<NotificationWithUser[]> {
  if (values.length === 0) return [];
  const inserted = await tx
    .insert(notifications)
    .values(values.map((v) => ({ tenantId, ...v })))
    .returning();
  const names = await userNames(
    tx,
    tenantId,
    inserted.map((n) => n.userId).filter((id): id is number => id !== null),
  );
  return inserted.map((row) => ({ ...row, userName: row.userId === null ? null : (names.get(row.userId) ?? null) }));
}

async function userNames(tx: Queryable, tenantId: TenantId, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(users.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function listForUser(
  tx: Queryable,
  tenantId: TenantId,
  userId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: NotificationWithUser[]; count: number; unread: number }> {
  const rows = await tx
    .select(withUser)
    .from(notifications)
    .leftJoin(users, eq(users.id, notifications.userId))
    .where(visibleTo(tenantId, userId))
    .orderBy(desc(notifications.id))
    .limit(page.limit)
    .offset(page.offset);
  const [counts] = await tx
    .select({
      count: sql<number>`count(*)`.mapWith(Number),
      // Only the caller's own: a tenant-wide notification's read flag is shared, and only an admin changes it.
      unread:
        sql<number>`count(*) filter (where not ${notifications.isRead} and ${notifications.userId} = ${userId})`.mapWith(
          Number,
        ),
    })
    .from(notifications)
    .where(visibleTo(tenantId, userId));
  return { rows: rows.map(flatten), count: counts?.count ?? 0, unread: counts?.unread ?? 0 };
}

/** One notification the user may see, locked until the transaction ends. */
export async function lockVisible(
  tx: Queryable,
  tenantId: TenantId,
  userId: number,
  id: number,
): Promise<NotificationRow | undefined> {
  const [row] = await tx
    .select()
    .from(notifications)
    .where(and(visibleTo(tenantId, userId), eq(notifications.id, id)))
    .for('update');
  return row;
}

export async function setRead(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  isRead: boolean,
): Promise<NotificationWithUser | undefined> {
  const [row] = await tx
    .update(notifications)
    .set({ isRead, updatedAt: sql`now()` })
    .where(and(eq(notifications.tenantId, tenantId), eq(notifications.id, id)))
    .returning();
  if (!row) return undefined;
  const names = await userNames(tx, tenantId, row.userId === null ? [] : [row.userId]);
  return { ...row, userName: row.userId === null ? null : (names.get(row.userId) ?? null) };
}

/** Marks the user's own unread notifications read (tenant-wide ones are shared: only their admin changes them). */
export async function markAllRead(tx: Queryable, tenantId: TenantId, userId: number): Promise<number> {
  const rows = await tx
    .update(notifications)
    .set({ isRead: true, updatedAt: sql`now()` })
    .where(and(eq(notifications.tenantId, tenantId), eq(notifications.userId, userId), eq(notifications.isRead, false)))
    .returning({ id: notifications.id });
  return rows.length;
}

export async function deleteNotification(tx: Queryable, tenantId: TenantId, id: number): Promise<void> {
  await tx.delete(notifications).where(and(eq(notifications.tenantId, tenantId), eq(notifications.id, id)));
}

/** Deletes the user's own notifications (tenant-wide ones stay: they are everybody's). */
export async function deleteOwn(tx: Queryable, tenantId: TenantId, userId: number): Promise<number> {
  const rows = await tx
    .delete(notifications)
    .where(and(eq(notifications.tenantId, tenantId), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length;
}

export async function userExists(tx: Queryable, tenantId: TenantId, userId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  return row !== undefined;
}
