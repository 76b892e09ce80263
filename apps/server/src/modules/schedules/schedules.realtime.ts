/**
 * `{T}:scheduleMessage` `{ action, id, ticketId }` to the tenant's sockets: ids only, no text, so an agent learns
 * nothing of a conversation it may not see; the schedules screen and the chat's pending list re-read their query.
 */
import { tenantEvent } from '@conversa/shared';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import './schedules.events.js';

export function registerSchedulesRealtime(events: EventBus, realtime: Realtime): void {
  events.subscribe('schedules.changed', ({ tenantId, action, id, ticketId }) => {
    realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'scheduleMessage'), { action, id, ticketId });
  });
}
