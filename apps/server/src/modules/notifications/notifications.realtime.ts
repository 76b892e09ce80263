/** `{T}:notification` to the recipient's sockets only; a tenant-wide notification goes to every socket of the tenant. */
import { tenantEvent } from '@conversa/shared';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import './notifications.events.js';

export function registerNotificationsRealtime(deps: { events: EventBus; realtime: Realtime }): void {
  const { events, realtime } = deps;
  const roomOf = (tenantId: number, userId: number | null) =>
    userId === null ? rooms.tenant(tenantId) : rooms.user(userId);

  events.subscribe('notifications.created', ({ tenantId, notifications }) => {
    for (const notification of notifications) {
      realtime.publish(roomOf(tenantId, notification.userId), tenantEvent(tenantId, 'notification'), {
        action: 'create',
        notification,
      });
    }
  });
  events.subscribe('notifications.updated', ({ tenantId, notification }) => {
    realtime.publish(roomOf(tenantId, notification.userId), tenantEvent(tenantId, 'notification'), {
      action: 'update',
      notification,
    });
  });
  events.subscribe('notifications.deleted', ({ tenantId, userId, notificationId }) => {
    realtime.publish(roomOf(tenantId, userId), tenantEvent(tenantId, 'notification'), {
      action: 'delete',
      notificationId,
    });
  });
  events.subscribe('notifications.all-read', ({ tenantId, userId }) => {
    realtime.publish(rooms.user(userId), tenantEvent(tenantId, 'notification'), { action: 'readAll' });
  });
}
