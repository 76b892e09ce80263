/**
 * Tag changes to the tenant's sockets: `{T}:tag { action, tag }`. Clients refresh their tag pickers and, on an update,
 * the contacts and tickets that show the tag (a rename or a new colour reaches every row carrying it at once).
 */
import { tenantEvent } from '@conversa/shared';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import './tags.events.js';

export function registerTagsRealtime(events: EventBus, realtime: Realtime): void {
  events.subscribe('tags.changed', ({ tenantId, action, tag }) => {
    realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'tag'), { action, tag });
  });
}
