/** The ticket panel's columns: the tickets grouped by queue or by agent, each with its counts per status. */
import type { TicketDto, TicketStatus } from '@conversa/shared';

export type GroupBy = 'queue' | 'user';

export interface PanelGroup {
  /** `queue:<id>`, `user:<id>`, or `queue:none` / `user:none` for tickets without one. */
  key: string;
  /** The queue's or agent's name; null for the "without" group (the screen names it). */
  name: string | null;
  tickets: TicketDto[];
  counts: Record<TicketStatus, number>;
}

export function groupTickets(tickets: readonly TicketDto[], by: GroupBy): PanelGroup[] {
  const groups = new Map<string, PanelGroup>();
  for (const ticket of tickets) {
    const id = by === 'queue' ? ticket.queueId : ticket.userId;
    const name = by === 'queue' ? ticket.queue : ticket.username;
    const key = `${by}:${id ?? 'none'}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        key,
        name: id === null ? null : (name ?? `#${id}`),
        tickets: [],
        counts: { open: 0, pending: 0, closed: 0 },
      };
      groups.set(key, group);
    }
    group.tickets.push(ticket);
    group.counts[ticket.status] += 1;
  }
  // Named groups alphabetically, the "without" group last.
  return [...groups.values()].sort((a, b) =>
    a.name === null ? 1 : b.name === null ? -1 : a.name.localeCompare(b.name),
  );
}

/** The users a mass transfer may name: those with access to the queue (product-spec §5 "Mass transfer"). */
export function usersForQueue<U extends { id: number; queues: { id: number }[] }>(
  users: readonly U[],
  queueId: number | null,
): U[] {
  if (queueId === null) return [...users];
  return users.filter((user) => user.queues.some((queue) => queue.id === queueId));
}
