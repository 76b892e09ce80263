/**
 * The tabs of the ticket screen are client-side partitions of one loaded list (client-contract §4.2): top tabs by
 * `isGroup`, sub-tabs by status, badges counting each partition and, on the top tabs, the tickets with unread messages.
 * Tag and kanban filters are applied here too (client-contract §4.1: they are never sent).
 *
 * The "Chatbot" sub-tab (private only, tenant flag `showChatBot`) is a partition too: a pending ticket the bot handles
 * is there and not under "pending", so every loaded ticket is in exactly one tab.
 */
import type { TicketListItem } from '@conversa/shared';
import type { TicketsFilter } from './attendance-filter';

export const TOP_TABS = ['private', 'groups'] as const;
export type TopTab = (typeof TOP_TABS)[number];
export const SUB_TABS = ['open', 'pending', 'closed'] as const;
export type SubTab = (typeof SUB_TABS)[number];
/** The sub-tabs shown: the statuses plus the chatbot's tickets (shown only where they apply). */
export const LIST_TABS = ['open', 'pending', 'chatbot', 'closed'] as const;
export type ListTab = (typeof LIST_TABS)[number];

export interface TopPartition {
  /** Tickets with unread messages in this top tab. */
  unread: number;
  tabs: Record<ListTab, TicketListItem[]>;
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

/**
 * The bot handles the ticket (client-contract §4.2, decisions §C): pending, and a flow with its current step or a
 * legacy auto-reply with its current step.
 */
export const isChatBotTicket = (
  ticket: Pick<TicketListItem, 'status' | 'chatFlowId' | 'stepChatFlow' | 'autoReplyId' | 'stepAutoReplyId'>,
): boolean =>
  ticket.status === 'pending' &&
  ((ticket.stepAutoReplyId !== null && ticket.autoReplyId !== null) ||
    (ticket.chatFlowId !== null && Boolean(ticket.stepChatFlow)));

/** The sub-tabs a top tab shows: "Chatbot" only on the private tab, only with the tenant flag on. */
export const listTabsOf = (top: TopTab, showChatBot: boolean): readonly ListTab[] =>
  showChatBot && top === 'private' ? LIST_TABS : SUB_TABS;

export function partitionTickets(tickets: TicketListItem[], { showChatBot = false } = {}): TicketPartitions {
  const empty = (): TopPartition => ({ unread: 0, tabs: { open: [], pending: [], chatbot: [], closed: [] } });
  const partitions: TicketPartitions = { private: empty(), groups: empty() };
  for (const ticket of tickets) {
    const top = partitions[ticket.isGroup ? 'groups' : 'private'];
    const chatbot = showChatBot && !ticket.isGroup && isChatBotTicket(ticket);
    top.tabs[chatbot ? 'chatbot' : ticket.status].push(ticket);
    if (ticket.unreadMessages > 0) top.unread += 1;
  }
  return partitions;
}

/** All tickets with unread messages across the partitions (the document title's `(n)`). */
export const unreadTotal = (partitions: TicketPartitions): number =>
  partitions.private.unread + partitions.groups.unread;
