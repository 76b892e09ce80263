/**
 * Notifications: every user lists their own and the tenant-wide ones and marks their own read; a tenant-wide one is
 * changed or deleted by an admin only. Other modules create notifications inside their own transaction
 * (`createNotifications`) and publish `notifications.created` after their commit (`publishCreated`).
 */
import type { NotificationDto } from '@conversa/shared';
import type { Database, Queryable } from '../../platform/db/client.js';
import { withTenant, type TenantId } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import * as repo from './notifications.repository.js';
import './notifications.events.js';

export function toNotificationDto(row: repo.NotificationWithUser): NotificationDto {
  const data = row.data ?? {};
  const pick = <T>(key: string, type: 'number' | 'string'): T | undefined =>
    typeof data[key] === type ? (data[key] as T) : undefined;
  return {
    id: row.id,
    message: row.message,
    userId: row.userId,
    isRead: row.isRead,
    createdAt: row.createdAt.toISOString(),
    user: row.userId === null || row.userName === null ? null : { name: row.userName },
    senderId: row.senderId,
    data: {
      ...(pick<string>('kind', 'string') !== undefined ? { kind: pick<string>('kind', 'string') } : {}),
      ...(pick<number>('ticketId', 'number') !== undefined ? { ticketId: pick<number>('ticketId', 'number') } : {}),
      ...(pick<number>('noteId', 'number') !== undefined ? { noteId: pick<number>('noteId', 'number') } : {}),
      ...(pick<string>('authorName', 'string') !== undefined
        ? { authorName: pick<string>('authorName', 'string') }
        : {}),
      ...(pick<string>('excerpt', 'string') !== undefined ? { excerpt: pick<string>('excerpt', 'string') } : {}),
    },
  };
}

/** Inserts notifications in the caller's transaction; the caller publishes them after its commit. */
export async function createNotifications(
  tx: Queryable,
  tenantId: TenantId,
  values: repo.NewNotification[],
): Promise<NotificationDto[]> {
  return (await repo.insertNotifications(tx, tenantId, values)).map(toNotificationDto);
}

export function publishCreated(events: EventBus, tenantId: number, notifications: NotificationDto[]): void {
  if (notifications.length > 0) events.publish('notifications.created', { tenantId, notifications });
}

const isAdmin = (ctx: AuthedContext) => ctx.profile === 'admin' || ctx.profile === 'superadmin';

export function createNotificationsService(deps: { db: Database; events: EventBus }) {
  const { db, events } = deps;

  /** The notification the caller may change: their own, or a tenant-wide one for an admin. */
  async function lockChangeable(tx: Queryable, ctx: AuthedContext, id: number) {
    const row = await repo.lockVisible(tx, ctx.tenantId, ctx.userId, id);
    if (!row) throw fail('ERR_NO_NOTIFICATION_FOUND');
    if (row.userId === null && !isAdmin(ctx)) throw fail('ERR_NO_PERMISSION');
    return row;
  }

  return {
    async listNotifications(ctx: AuthedContext, query: { pageNumber: number; rowsPerPage: number }) {
      const limit = query.rowsPerPage;
      const offset = (query.pageNumber - 1) * limit;
      const { rows, count, unread } = await withTenant(db, ctx, (tx) =>
        repo.listForUser(tx, ctx.tenantId, ctx.userId, { limit, offset }),
      );
      return { notifications: rows.map(toNotificationDto), count, unread, hasMore: offset + rows.length < count };
    },

    async createNotification(ctx: AuthedContext, input: { message: string; userId?: number | null | undefined }) {
      const [created] = await withTenant(db, ctx, async (tx) => {
        if (input.userId && !(await repo.userExists(tx, ctx.tenantId, input.userId))) throw fail('ERR_NO_USER_FOUND');
        const value = { userId: input.userId ?? null, senderId: ctx.userId, message: input.message, data: {} };
        return createNotifications(tx, ctx.tenantId, [value]);
      });
      publishCreated(events, ctx.tenantId, [created!]);
      return created!;
    },

    async setRead(ctx: AuthedContext, id: number, isRead: boolean): Promise<NotificationDto> {
      const row = await withTenant(db, ctx, async (tx) => {
        await lockChangeable(tx, ctx, id);
        return repo.setRead(tx, ctx.tenantId, id, isRead);
      });
      if (!row) throw fail('ERR_NO_NOTIFICATION_FOUND');
      const notification = toNotificationDto(row);
      events.publish('notifications.updated', { tenantId: ctx.tenantId, notification });
      return notification;
    },

    async markAllRead(ctx: AuthedContext): Promise<{ updated: number }> {
      const updated = await withTenant(db, ctx, (tx) => repo.markAllRead(tx, ctx.tenantId, ctx.userId));
      if (updated > 0) events.publish('notifications.all-read', { tenantId: ctx.tenantId, userId: ctx.userId });
      return { updated };
    },

    /** DELETE /notifications (client-contract §16 "all"): the caller's own. */
    async deleteOwnNotifications(ctx: AuthedContext): Promise<{ deleted: number }> {
      const deleted = await withTenant(db, ctx, (tx) => repo.deleteOwn(tx, ctx.tenantId, ctx.userId));
      if (deleted > 0) events.publish('notifications.all-read', { tenantId: ctx.tenantId, userId: ctx.userId });
      return { deleted };
    },

    async deleteNotification(ctx: AuthedContext, id: number): Promise<void> {
      const row = await withTenant(db, ctx, async (tx) => {
        const found = await lockChangeable(tx, ctx, id);
        await repo.deleteNotification(tx, ctx.tenantId, id);
        return found;
      });
      events.publish('notifications.deleted', { tenantId: ctx.tenantId, userId: row.userId, notificationId: id });
    },
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
