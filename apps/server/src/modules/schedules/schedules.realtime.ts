/**
 * `{T}:scheduleMessage` `{ action, id, ticketId }`: ids only, no text; the schedules screen and the chat's pending
 * list re-read their query. The event names a ticket, so it goes only to who may see the row: for a row on a ticket,
 * the connected users who may see that ticket (the tickets module's one policy, `ticketAudiences`, read on the side
 * pool after the commit) and the author; for a row on no ticket yet, the author and the profiles that list every row
 * (supervisors and admins, as GET /scheduleMessages). Never the tenant room.
 */
import { tenantEvent, type Profile } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withTenantAside } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import { ticketAudiences } from '../tickets/index.js';
import './schedules.events.js';

/** The profiles that see and manage every row (schedules.service.ts `managesAll`). */
const MANAGERS: readonly Profile[] = ['super', 'admin', 'superadmin'];

export function registerSchedulesRealtime(deps: { db: Database; events: EventBus; realtime: Realtime }): void {
  const { db, events, realtime } = deps;
  events.subscribe('schedules.changed', async ({ tenantId, action, id, ticketId, userId }) => {
    const connected = await realtime.connectedUserIds(tenantId);
    // The author's sockets in this tenant (a user moved to another tenant keeps its id, not this tenant's rows).
    const author = userId !== null && connected.includes(userId) ? [userId] : [];
    let targets: string[];
    if (ticketId === null) {
      targets = [...author.map(rooms.user), ...MANAGERS.map((profile) => rooms.profile(tenantId, profile))];
    } else {
      const audience =
        connected.length === 0
          ? []
          : ((
              await withTenantAside(db, systemContext(tenantId), (tx) =>
                ticketAudiences(tx, tenantId, [ticketId], connected),
              )
            ).get(ticketId) ?? []);
      targets = [...new Set([...author, ...audience])].map(rooms.user);
    }
    if (targets.length > 0) {
      realtime.publish(targets, tenantEvent(tenantId, 'scheduleMessage'), { action, id, ticketId });
    }
  });
}
