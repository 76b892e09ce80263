/**
 * The attendance filter (product-spec §3, client-contract §4.1): its defaults, how the stored copy in
 * `users.configs.filtrosAtendimento` is read back, and the part of it the server applies (the query key of the list).
 * Tags and kanban lanes are applied on the client (`ticket.tags[].id`, `ticket.kanban`), so they stay out of the key.
 */
import { attendanceFilterSchema, type AttendanceFilter, type TicketStatus } from '@conversa/shared';

export interface TicketsFilter {
  status: TicketStatus[];
  showAll: boolean;
  queuesIds: number[];
  whatsappIds: number[];
  selectedUser: number[];
  tags: number[];
  kanbans: number[];
  withUnreadMessages: boolean;
  isNotAssignedUser: boolean;
  includeNotQueueDefined: boolean;
}

/** What GET /tickets receives (minus pageNumber): the query key of one list. */
export interface ListFilter extends Omit<TicketsFilter, 'tags' | 'kanbans'> {
  searchParam: string;
}

/** product-spec §9: status open and pending, page 1; includeNotQueueDefined true (§3). */
export const DEFAULT_FILTER: TicketsFilter = {
  status: ['open', 'pending'],
  showAll: false,
  queuesIds: [],
  whatsappIds: [],
  selectedUser: [],
  tags: [],
  kanbans: [],
  withUnreadMessages: false,
  isNotAssignedUser: false,
  includeNotQueueDefined: true,
};

const STATUS_ORDER: TicketStatus[] = ['open', 'pending', 'closed'];
const sortedIds = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** Sorted, de-duplicated, never an empty status list: equal filters give equal query keys. */
export function normalizeFilter(filter: Partial<TicketsFilter>): TicketsFilter {
  const status = STATUS_ORDER.filter((s) => filter.status?.includes(s));
  return {
    status: status.length > 0 ? status : [...DEFAULT_FILTER.status],
    showAll: filter.showAll ?? DEFAULT_FILTER.showAll,
    queuesIds: sortedIds(filter.queuesIds ?? []),
    whatsappIds: sortedIds(filter.whatsappIds ?? []),
    selectedUser: sortedIds(filter.selectedUser ?? []),
    tags: sortedIds(filter.tags ?? []),
    kanbans: sortedIds(filter.kanbans ?? []),
    withUnreadMessages: filter.withUnreadMessages ?? DEFAULT_FILTER.withUnreadMessages,
    isNotAssignedUser: filter.isNotAssignedUser ?? DEFAULT_FILTER.isNotAssignedUser,
    includeNotQueueDefined: filter.includeNotQueueDefined ?? DEFAULT_FILTER.includeNotQueueDefined,
  };
}

/** The stored filter (whatever another client left there); anything unreadable falls back to the defaults. */
export function parseStoredFilter(stored: unknown): TicketsFilter {
  const parsed = attendanceFilterSchema.safeParse(stored ?? {});
  return normalizeFilter(parsed.success ? parsed.data : {});
}

/** Admin-only options are dropped for other profiles (product-spec §6: view-all is admin/super). */
export function effectiveFilter(filter: TicketsFilter, canSeeAll: boolean): TicketsFilter {
  return canSeeAll ? filter : { ...filter, showAll: false, selectedUser: [] };
}

export function toListFilter(filter: TicketsFilter, searchParam: string): ListFilter {
  const { tags: _tags, kanbans: _kanbans, ...server } = filter;
  return { ...server, searchParam: searchParam.trim() };
}

/** The body stored in configs.filtrosAtendimento (the search box is not stored). */
export const toStoredFilter = (filter: TicketsFilter): AttendanceFilter => ({ ...filter });

/** How many options differ from the defaults (a badge on the filter button). */
export function activeFilterCount(filter: TicketsFilter): number {
  const d = DEFAULT_FILTER;
  return [
    filter.status.join() !== d.status.join(),
    filter.showAll,
    filter.queuesIds.length > 0,
    filter.whatsappIds.length > 0,
    filter.selectedUser.length > 0,
    filter.tags.length > 0,
    filter.kanbans.length > 0,
    filter.withUnreadMessages,
    filter.isNotAssignedUser,
    !filter.includeNotQueueDefined,
  ].filter(Boolean).length;
}
