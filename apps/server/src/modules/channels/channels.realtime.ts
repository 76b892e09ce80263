/**
 * Channel events to sockets: `{T}:whatsapp`, `{T}:whatsappSession` and `{T}:change_battery` (client-contract §19) go
 * to the whole tenant, because every user's screens show channels (ticket filters, the channel picker); the DTO
 * holds no secret.
 */
import { tenantEvent } from '@conversa/shared';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import './channels.events.js';
import './sessions/session.events.js';

export function registerChannelsRealtime(events: EventBus, realtime: Realtime): void {
  events.subscribe('channels.changed', ({ tenantId, channel }) => {
    realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'whatsapp'), {
      action: 'update',
      whatsapp: channel,
    });
  });
  events.subscribe('channels.deleted', ({ tenantId, channelId }) => {
    realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'whatsapp'), {
      action: 'delete',
      whatsappId: channelId,
    });
  });
  events.subscribe('channels.session_changed', ({ tenantId, session }) => {
    realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'whatsappSession'), { action: 'update', session });
  });
  // History sync after a login: a progress toast, and "ready" at 100 %.
  events.subscribe('channels.session_sync', ({ tenantId, session, percent }) => {
    const room = rooms.tenant(tenantId);
    realtime.publish(room, tenantEvent(tenantId, 'whatsappSession'), { action: 'loadingscreen', session, percent });
    if (percent >= 100) {
      realtime.publish(room, tenantEvent(tenantId, 'whatsappSession'), { action: 'readySession', session });
    }
  });
  events.subscribe('channels.battery', ({ tenantId, sessionName, battery }) => {
    realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'change_battery'), {
      batteryInfo: { sessionName, battery },
    });
  });
}
