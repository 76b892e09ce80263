/**
 * Channel events to sockets: `{T}:whatsapp` and `{T}:whatsappSession` (client-contract §19) go to the whole tenant,
 * because every user's screens show channels (ticket filters, the channel picker); the DTO holds no secret.
 */
import { tenantEvent } from '@conversa/shared';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import './channels.events.js';

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
}
