/**
 * Channel events to sockets: `{T}:whatsapp`, `{T}:whatsappSession` and `{T}:change_battery` (client-contract §19) go
 * to the whole tenant, because every user's screens show channels (ticket filters, the channel picker); the DTO
 * holds no secret. The QR and pairing codes are a credential: events carrying a channel or a session go with them to
 * the profiles that may connect channels (admin, superadmin: channels.dto.ts `mayConnectChannels`) and with them null
 * to the others (user, super). Each socket is in exactly one profile room of its tenant, so the two sets of profile
 * rooms together are the tenant room: everyone gets the event once.
 */
import { PROFILES, tenantEvent } from '@conversa/shared';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import { mayConnectChannels, withoutConnectCodes } from './channels.dto.js';
import './channels.events.js';
import './sessions/session.events.js';

const CONNECTORS = PROFILES.filter(mayConnectChannels);
const OTHERS = PROFILES.filter((profile) => !mayConnectChannels(profile));

export function registerChannelsRealtime(events: EventBus, realtime: Realtime): void {
  /** `send` once with the codes to the connectors' rooms, once without them to every other profile's. */
  const split = <T extends { qrcode: string | null; pairingCode: string | null }>(
    tenantId: number,
    value: T,
    send: (targets: string[], value: T) => void,
  ) => {
    send(
      CONNECTORS.map((profile) => rooms.profile(tenantId, profile)),
      value,
    );
    send(
      OTHERS.map((profile) => rooms.profile(tenantId, profile)),
      withoutConnectCodes(value),
    );
  };

  events.subscribe('channels.changed', ({ tenantId, channel }) => {
    split(tenantId, channel, (targets, whatsapp) =>
      realtime.publish(targets, tenantEvent(tenantId, 'whatsapp'), { action: 'update', whatsapp }),
    );
  });
  events.subscribe('channels.deleted', ({ tenantId, channelId }) => {
    realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'whatsapp'), {
      action: 'delete',
      whatsappId: channelId,
    });
  });
  events.subscribe('channels.session_changed', ({ tenantId, session }) => {
    split(tenantId, session, (targets, value) =>
      realtime.publish(targets, tenantEvent(tenantId, 'whatsappSession'), { action: 'update', session: value }),
    );
  });
  // History sync after a login: a progress toast, and "ready" at 100 %.
  events.subscribe('channels.session_sync', ({ tenantId, session, percent }) => {
    split(tenantId, session, (targets, value) => {
      const event = tenantEvent(tenantId, 'whatsappSession');
      realtime.publish(targets, event, { action: 'loadingscreen', session: value, percent });
      if (percent >= 100) realtime.publish(targets, event, { action: 'readySession', session: value });
    });
  });
  events.subscribe('channels.battery', ({ tenantId, sessionName, battery }) => {
    realtime.publish(rooms.tenant(tenantId), tenantEvent(tenantId, 'change_battery'), {
      batteryInfo: { sessionName, battery },
    });
  });
}
