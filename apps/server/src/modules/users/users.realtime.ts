/**
 * Users domain events to socket emits. User changes go to the tenant's staff rooms only; presence goes to the whole
 * tenant (the private chat lists every colleague).
 */
import { tenantEvent } from '@conversa/shared';
import { systemContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import type { UsersService } from './users.service.js';
import './users.events.js';

const staffRooms = (tenantId: number) => [
  rooms.profile(tenantId, 'admin'),
  rooms.profile(tenantId, 'superadmin'),
  rooms.profile(tenantId, 'super'),
];

export function registerUsersRealtime(events: EventBus, realtime: Realtime, service: UsersService): void {
  const userChanged = (action: 'create' | 'update' | 'delete') => (event: { tenantId: number; userId: number }) => {
    realtime.publish(staffRooms(event.tenantId), tenantEvent(event.tenantId, 'users'), {
      action,
      userId: event.userId,
    });
  };
  events.subscribe('users.created', userChanged('create'));
  events.subscribe('users.updated', userChanged('update'));
  events.subscribe('users.deleted', userChanged('delete'));

  events.subscribe('users.presence_changed', async ({ tenantId, userId, name, isOnline }) => {
    const room = rooms.tenant(tenantId);
    realtime.publish(room, tenantEvent(tenantId, 'user-online'), {
      action: 'update',
      data: { userId, isOnline, name },
    });
    realtime.publish(room, tenantEvent(tenantId, 'updateStatusUser'));
    const online = await service.listOnlineUsers(systemContext(tenantId));
    realtime.publish(room, tenantEvent(tenantId, 'chat:updateOnlineBubbles'), online);
  });
}
