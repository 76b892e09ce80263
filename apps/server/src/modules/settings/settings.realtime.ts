/** Maps settings domain events to socket emits: every socket of the tenant reloads its cached settings. */
import { tenantEvent } from '@conversa/shared';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';

export function registerSettingsRealtime(events: EventBus, realtime: Realtime): void {
  events.subscribe('settings.updated', ({ tenantId, setting }) => {
    realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'settings'), { action: 'update', setting });
  });
}
