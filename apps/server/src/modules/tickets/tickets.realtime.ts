/**
 * Ticket and message events to sockets (client-contract §19), with the one visibility policy: each event goes to
 * the user rooms of the tenant's connected users who may see the ticket (tickets.access.ts `ticketAudiences`). The
 * events of a tenant share audience reads: one query for every ticket whose events arrived while the previous read
 * ran (a message and its ticket's update; under load, the messages of many tickets). Users who could see the former
 * state but not the new one get `ticket:delete`; a newly assigned user also gets `{T}:ticket`; a new ticket goes out as
 * `ticket:create` and as `ticket:update`.
 */
import { tenantEvent, type TicketListEvent } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withTenantAside } from '../../platform/db/tenancy.js';
import type { DomainEvents, EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import { ticketAudience, ticketAudiences } from './tickets.access.js';
import './tickets.events.js';

type TicketChanged = DomainEvents['tickets.changed'];

export function registerTicketsRealtime(deps: { db: Database; events: EventBus; realtime: Realtime }): void {
  const { db, events, realtime } = deps;
  const send = (tenantId: number, userIds: number[], payload: TicketListEvent) => {
    if (userIds.length > 0) realtime.publish(userIds.map(rooms.user), tenantEvent(tenantId, 'ticketList'), payload);
  };

  /**
   * Per tenant: the next audience read, which events join until it starts, and whether a read is running. An event
   * published after a read started must see its own commit, so it joins the next read, which starts when the
   * running one ends (at most one per tenant: under load the reads grow instead of multiplying).
   */
  const lanes = new Map<number, { next: NextRead | undefined; running: boolean }>();

  interface NextRead {
    tickets: Set<number>;
    audiences: Promise<Map<number, number[]>>;
    resolve: (audiences: Map<number, number[]>) => void;
    reject: (error: unknown) => void;
  }

  function nextRead(): NextRead {
    const read = { tickets: new Set<number>() } as NextRead;
    read.audiences = new Promise((resolve, reject) => Object.assign(read, { resolve, reject }));
    return read;
  }

  async function startRead(tenantId: number): Promise<void> {
    const lane = lanes.get(tenantId);
    const read = lane?.next;
    if (!lane || !read || lane.running) return;
    lane.next = undefined;
    lane.running = true;
    try {
      const connected = await realtime.connectedUserIds(tenantId);
      read.resolve(
        connected.length === 0
          ? new Map()
          : await withTenantAside(db, systemContext(tenantId), (tx) =>
              ticketAudiences(tx, tenantId, [...read.tickets], connected),
            ),
      );
    } catch (error) {
      read.reject(error);
    } finally {
      lane.running = false;
      if (lane.next) setImmediate(() => void startRead(tenantId));
      else lanes.delete(tenantId);
    }
  }

  /** The connected users who may see the ticket as stored now. */
  async function audienceNow(tenantId: number, ticketId: number): Promise<number[]> {
    let lane = lanes.get(tenantId);
    if (!lane) lanes.set(tenantId, (lane = { next: undefined, running: false }));
    if (!lane.next) {
      lane.next = nextRead();
      // Events published in the same turn (a batch of commits answered together) join before it starts.
      if (!lane.running) setImmediate(() => void startRead(tenantId));
    }
    const read = lane.next;
    read.tickets.add(ticketId);
    return (await read.audiences).get(ticketId) ?? [];
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
    // Clients of the family that add a ticket they do not know only on `ticket:update` must see a new one live too.
    if (event.type === 'ticket:create') send(tenantId, now, { type: 'ticket:update', payload: ticket });
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
