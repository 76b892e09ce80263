/** Queue changes to the tenant's sockets: `{T}:queue { action, queue }` (the queues screen and the queue pickers). */
import { tenantEvent } from '@conversa/shared';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import './queues.events.js';

export function registerQueuesRealtime(events: EventBus, realtime: Realtime): void {
  events.subscribe('queues.changed', ({ tenantId, action, queue }) => {
    realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'queue'), { action, queue });
  });
}
