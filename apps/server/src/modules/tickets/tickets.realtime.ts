/**
 * Ticket and message events to sockets (client-contract §19), with the one visibility policy: each event goes to
 * the user rooms of the tenant's connected users who may see the ticket, computed by one query per commit
 * (tickets.access.ts `ticketAudience`; a message and its ticket's update share it). Users who could see the former
 * state but not the new one get `ticket:delete`; a newly assigned user also gets `{T}:ticket`.
 */
import { tenantEvent, type TicketListEvent } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withTenantAside } from '../../platform/db/tenancy.js';
import type { DomainEvents, EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import { ticketAudience } from './tickets.access.js';
import './tickets.events.js';

type TicketChanged = DomainEvents['tickets.changed'];

export function registerTicketsRealtime(deps: { db: Database; events: EventBus; realtime: Realtime }): void {
  const { db, events, realtime } = deps;
  const send = (tenantId: number, userIds: number[], payload: TicketListEvent) => {
    if (userIds.length > 0) realtime.publish(userIds.map(rooms.user), tenantEvent(tenantId, 'ticketList'), payload);
  };

  /**
   * Audience reads not yet started, by tenant and ticket. A message and the ticket update it causes are published
   * together after one commit; both wait for the same read. An event may share a read only until the read starts:
   * one published later must see its own commit, so the entry is dropped before the query is sent.
   */
  const pending = new Map<string, Promise<number[]>>();

  /** The connected users who may see the ticket as stored now. */
  function audienceNow(tenantId: number, ticketId: number): Promise<number[]> {
    const key = `${tenantId}:${ticketId}`;
    const shared = pending.get(key);
    if (shared) return shared;
    const read = (async () => {
      let connected: number[];
      try {
        connected = await realtime.connectedUserIds(tenantId);
      } finally {
        pending.delete(key);
      }
      if (connected.length === 0) return [];
      return withTenantAside(db, systemContext(tenantId), (tx) => ticketAudience(tx, tenantId, ticketId, connected));
    })();
    pending.set(key, read);
    return read;
  }

  /**
   * Who sees the ticket now and who could see it with the assignee and queue it had before the change (transitions:
   * one list of connected users, one transaction; not shared with other events).
   */
  async function audiencesAround(event: TicketChanged): Promise<{ now: number[]; before: number[] }> {
    const { tenantId, ticket } = event;
    const connected = await realtime.connectedUserIds(tenantId);
    if (connected.length === 0) return { now: [], before: [] };
    const former = { userId: event.previousUserId ?? null, queueId: event.previousQueueId ?? null };
    return withTenantAside(db, systemContext(tenantId), async (tx) => ({
      now: await ticketAudience(tx, tenantId, ticket.id, connected),
      before: await ticketAudience(tx, tenantId, ticket.id, connected, former),
    }));
  }

  events.subscribe('tickets.changed', async (event) => {
    const { ticket, tenantId } = event;
    const changedHands = event.previousUserId !== undefined || event.previousQueueId !== undefined;
    const { now, before } = changedHands
      ? await audiencesAround(event)
      : { now: await audienceNow(tenantId, ticket.id), before: [] };
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
    const now = await audienceNow(event.tenantId, event.ticketId);
    send(event.tenantId, now, { type: event.type, payload: event.message });
  });
}
