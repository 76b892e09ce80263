/**
 * `{T}:campaign` `{ action, id }` to the profiles that manage campaigns (supervisors and admins): ids only, the
 * campaigns screens re-read the campaign's counts. Never the tenant room (agents do not see campaigns).
 */
import { tenantEvent } from '@conversa/shared';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import { CAMPAIGN_MANAGERS } from './campaigns.rules.js';
import './campaigns.events.js';

export function registerCampaignsRealtime(deps: { events: EventBus; realtime: Realtime }): void {
  deps.events.subscribe('campaigns.changed', ({ tenantId, campaignId, action }) => {
    const targets = CAMPAIGN_MANAGERS.map((profile) => rooms.profile(tenantId, profile));
    deps.realtime.publish(targets, tenantEvent(tenantId, 'campaign'), { action: action ?? 'update', id: campaignId });
  });
}
