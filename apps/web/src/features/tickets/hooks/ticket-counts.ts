/** How a tab badge shows a total, and when realtime events make the totals stale. */
import type { QueryClient } from '@tanstack/react-query';
import type { TicketListItem, TicketStatus } from '@conversa/shared';
import { queryKeys } from '../../../lib/query-keys';
import type { ListFilter } from './attendance-filter';
import { matchesListFilter } from './ticket-list-cache';
import type { ListTab, TopPartition } from './ticket-partitions';

export interface TabCount {
  count: number;
  countCapped: boolean;
}

/** The server's TICKET_COUNT_CAP (tickets.repository.ts): counts stop there and come back with countCapped. */
export const TICKET_COUNT_CAP = 1_000;

export function formatTicketCount(count: number, capped: boolean): string {
  return capped || count > TICKET_COUNT_CAP ? `${TICKET_COUNT_CAP}+` : String(count);
}

/**
 * A sub-tab's badge: the server's total for its status when there is one, else the rows loaded. The server counts
 * statuses only, so its pending total includes the tickets the Chatbot tab holds: pending shows that total less the
 * bot tickets loaded (exact once the whole list is loaded, never below the pending rows loaded), and the Chatbot tab
 * its loaded rows.
 */
export function subTabBadge(partition: TopPartition, tab: ListTab, total: TabCount | undefined): string {
  const loaded = partition.tabs[tab].length;
  if (tab === 'chatbot' || !total) return String(loaded);
  const count = tab === 'pending' ? Math.max(loaded, total.count - partition.tabs.chatbot.length) : total.count;
  return formatTicketCount(count, total.countCapped);
}

/** A burst of ticket events (a campaign, a bulk resolve) refreshes the badges once. */
export const TICKET_COUNTS_REFRESH_MS = 1_500;

/**
 * For a ticket event whose ticket no list has loaded, what it was before (and so which tab lost it) is unknown: the
 * counts are read again, coalesced. Message events move no ticket between tabs and do not call this. Only the counts
 * on screen are fetched again (invalidateQueries refetches active queries).
 */
export function ticketCountsRefresher(queryClient: QueryClient) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    touch() {
      timer ??= setTimeout(() => {
        timer = undefined;
        void queryClient.invalidateQueries({ queryKey: queryKeys.ticketsCounts });
      }, TICKET_COUNTS_REFRESH_MS);
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

const countedIn = (ticket: TicketListItem | null | undefined, filter: ListFilter, isGroup: boolean, status: string) =>
  ticket ? ticket.isGroup === isGroup && ticket.status === status && matchesListFilter(ticket, filter) : false;

/**
 * A ticket changed from `before` (its loaded row; undefined for a new ticket) to `after` (null when it left): one
 * less in the tab it counted in, one more in the tab it counts in now, in every cached count. A capped count stays
 * capped (where it stands below the cap is unknown).
 */
export function shiftTicketCounts(
  queryClient: QueryClient,
  before: TicketListItem | undefined,
  after: TicketListItem | null,
): void {
  for (const query of queryClient.getQueryCache().findAll({ queryKey: queryKeys.ticketsCounts })) {
    const [, , filter, isGroup, status] = query.queryKey as [string, string, ListFilter, boolean, TicketStatus];
    const delta =
      Number(countedIn(after, filter, isGroup, status)) - Number(countedIn(before, filter, isGroup, status));
    if (delta === 0) continue;
    queryClient.setQueryData<TabCount>(query.queryKey, (data) =>
      data && !data.countCapped ? { ...data, count: Math.max(0, data.count + delta) } : data,
    );
  }
}
