/**
 * Ticket and message events to sockets (client-contract §19), with the one visibility policy: each event goes to
 * the user rooms of the tenant's connected users who may see the ticket, computed by one query per event
 * (tickets.access.ts `ticketAudience`). Users who could see the former state but not the new one get
 * `ticket:delete`; a newly assigned user also gets `{T}:ticket`.
 */
import { tenantEvent, type TicketListEvent } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import type { DomainEvents, EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import { formerState, ticketAudience } from './tickets.access.js';
import { storedVisibilitySettings } from './tickets.policy.js';
import './tickets.events.js';

type TicketChanged = DomainEvents['tickets.changed'];

export function registerTicketsRealtime(deps: { db: Database; events: EventBus; realtime: Realtime }): void {
  const { db, events, realtime } = deps;
  const send = (tenantId: number, userIds: number[], payload: TicketListEvent) => {
    if (userIds.length > 0) realtime.publish(userIds.map(rooms.user), tenantEvent(tenantId, 'ticketList'), payload);
  };

  /** Who sees the ticket now, and who saw it before the change (when the event says what it was). */
  async function audiences(event: Pick<TicketChanged, 'tenantId' | 'previousUserId' | 'previousQueueId'>, id: number) {
    const connected = await realtime.connectedUserIds(event.tenantId);
    if (connected.length === 0) return { now: [], before: [] };
    return withTenant(db, systemContext(event.tenantId), async (tx) => {
      const settings = storedVisibilitySettings(event.tenantId);
      const now = await ticketAudience(tx, id, connected, settings);
      const hasFormer = event.previousUserId !== undefined || event.previousQueueId !== undefined;
      const former = formerState(event.previousUserId ?? null, event.previousQueueId ?? null);
      const before = hasFormer ? await ticketAudience(tx, id, connected, settings, former) : [];
      return { now, before };
    });
  }

  events.subscribe('tickets.changed', async (event) => {
    const { ticket, tenantId } = event;
    const { now, before } = await audiences(event, ticket.id);
    send(tenantId, now, { type: event.type, payload: ticket });
    if (event.notify) send(tenantId, now, { type: 'notification:new', payload: ticket });
    send(
      tenantId,
      before.filter((id) => !now.includes(id)),
      { type: 'ticket:delete', payload: { id: ticket.id } },
    );
    const assignee = ticket.userId;
    if (assignee !== null && assignee !== event.previousUserId && now.includes(assignee)) {
      realtime.publish(rooms.user(assignee), tenantEvent(tenantId, 'ticket'), { action: 'update', ticket });
    }
  });

  events.subscribe('messages.changed', async (event) => {
    const { now } = await audiences({ tenantId: event.tenantId }, event.ticketId);
    send(event.tenantId, now, { type: event.type, payload: event.message });
  });
}
