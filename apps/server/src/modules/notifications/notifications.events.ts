/**
 * The notifications module's domain events, published after commit (by this module's service and by modules that
 * create notifications in their own transaction, such as a mention in a note). notifications.realtime.ts sends each
 * one to its recipient's sockets only.
 */
import type { NotificationDto } from '@conversa/shared';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    'notifications.created': { tenantId: number; notifications: NotificationDto[] };
    'notifications.updated': { tenantId: number; notification: NotificationDto };
    'notifications.deleted': { tenantId: number; userId: number | null; notificationId: number };
    'notifications.all-read': { tenantId: number; userId: number };
  }
}

export {};
