/**
 * The tab badges' true totals (the tabs partition one loaded list, client-contract §4.2, but a badge counting loaded
 * rows says 40 for a queue of 1,500). Each sub-tab of the shown top tab asks GET /tickets for its own status and
 * `isGroup`, page 1, and keeps only `count`: the server counts up to TICKET_COUNT_CAP inside the page's statement, so
 * this is the cheapest count it offers (it has no page size). Cached per filter, kept across filter changes while the
 * next count loads, and moved along by ticket events and the tickets feature's own mutations (shiftTicketCounts).
 */
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { ticketListResponseSchema } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import type { ListFilter } from '../hooks/attendance-filter';
import type { TabCount } from '../hooks/ticket-counts';
import type { SubTab, TopTab } from '../hooks/ticket-partitions';
import { listQuery } from './tickets';

const countSchema = ticketListResponseSchema.pick({ count: true, countCapped: true });

/**
 * The filter the counts are asked and cached under: the list's, with "resolved" always in, so the resolved tab shows
 * its total while "Incluir resolvidos" is off (its rows load only once it is on). Keyed alike either way, the counts
 * survive the switch, and the events' shifts see closed tickets as counted.
 */
export function countsFilter(filter: ListFilter): ListFilter {
  return filter.status.includes('closed') ? filter : { ...filter, status: [...filter.status, 'closed'] };
}

/** Counts per sub-tab of `top`; a status the filter leaves out has none (its tab stays empty), except "resolved". */
export function useTicketTabCounts(
  listFilter: ListFilter,
  top: TopTab,
  enabled: boolean,
): Partial<Record<SubTab, TabCount>> {
  const isGroup = top === 'groups';
  const filter = countsFilter(listFilter);
  const statuses = enabled ? filter.status : [];
  const results = useQueries({
    queries: statuses.map((status) => ({
      queryKey: queryKeys.ticketsCount(filter, isGroup, status),
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        countSchema.parse(
          await api.get('/tickets', {
            query: { ...listQuery({ ...filter, status: [status] }, 1), isGroup },
            signal,
            background: true,
          }),
        ),
      placeholderData: keepPreviousData,
    })),
  });
  const counts: Partial<Record<SubTab, TabCount>> = {};
  statuses.forEach((status, index) => {
    const data = results[index]?.data;
    if (data) counts[status] = data;
  });
  return counts;
}
