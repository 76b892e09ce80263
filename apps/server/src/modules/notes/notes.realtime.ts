/**
 * `{T}:ticketNote` to the connected users who may see the note's ticket (the tickets module's policy, read per event
 * on the side pool after the commit). Notes are internal: nobody else, and never another tenant, receives them.
 */
import { tenantEvent } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withTenantAside } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import { ticketAudience } from './notes.repository.js';
import './notes.events.js';

export function registerNotesRealtime(deps: { db: Database; events: EventBus; realtime: Realtime }): void {
  const { db, events, realtime } = deps;
  events.subscribe('notes.changed', async ({ tenantId, ticketId, event }) => {
    const connected = await realtime.connectedUserIds(tenantId);
    if (connected.length === 0) return;
    const audience = await withTenantAside(db, systemContext(tenantId), (tx) =>
      ticketAudience(tx, tenantId, ticketId, connected),
    );
    if (audience.length > 0) realtime.publish(audience.map(rooms.user), tenantEvent(tenantId, 'ticketNote'), event);
  });
}
