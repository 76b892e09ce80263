/** Kanban domain events to socket emits: lane changes go to the whole tenant (`{T}:kanban`). */
import { tenantEvent } from '@conversa/shared';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import './kanban.events.js';

export function registerKanbanRealtime(events: EventBus, realtime: Realtime): void {
  events.subscribe('kanban.lanes_changed', ({ tenantId, change }) => {
    realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'kanban'), change);
  });
}
