/**
 * The tabs of the ticket screen are client-side partitions of one loaded list (client-contract §4.2): top tabs by
 * `isGroup`, sub-tabs by status, badges counting each partition and, on the top tabs, the tickets with unread messages.
 * Tag and kanban filters are applied here too (client-contract §4.1: they are never sent).
 */
import type { TicketListItem } from '@conversa/shared';
import type { TicketsFilter } from './attendance-filter';

export const TOP_TABS = ['private', 'groups'] as const;
export type TopTab = (typeof TOP_TABS)[number];
export const SUB_TABS = ['open', 'pending', 'closed'] as const;
export type SubTab = (typeof SUB_TABS)[number];

export interface TopPartition {
  /** Tickets with unread messages in this top tab. */
  unread: number;
  tabs: Record<SubTab, TicketListItem[]>;
}

export type TicketPartitions = Record<TopTab, TopPartition>;

/** Tags: the ticket carries one of the chosen tags; kanban: its lane is one of the chosen lanes. */
export function applyLocalFilter(
  tickets: TicketListItem[],
  filter: Pick<TicketsFilter, 'tags' | 'kanbans'>,
): TicketListItem[] {
  if (filter.tags.length === 0 && filter.kanbans.length === 0) return tickets;
  return tickets.filter(
    (ticket) =>
      (filter.tags.length === 0 || ticket.tags.some((tag) => filter.tags.includes(tag.id))) &&
      (filter.kanbans.length === 0 || (ticket.kanban !== null && filter.kanbans.includes(ticket.kanban))),
  );
}

export function partitionTickets(tickets: TicketListItem[]): TicketPartitions {
  const empty = (): TopPartition => ({ unread: 0, tabs: { open: [], pending: [], closed: [] } });
  const partitions: TicketPartitions = { private: empty(), groups: empty() };
  for (const ticket of tickets) {
    const top = partitions[ticket.isGroup ? 'groups' : 'private'];
    top.tabs[ticket.status].push(ticket);
    if (ticket.unreadMessages > 0) top.unread += 1;
  }
  return partitions;
}

/** All tickets with unread messages across the partitions (the document title's `(n)`). */
export const unreadTotal = (partitions: TicketPartitions): number =>
  partitions.private.unread + partitions.groups.unread;
