/**
 * Tickets in the TanStack Query cache. Loaded lists are infinite queries keyed by `queryKeys.ticketsList(ListFilter)`;
 * ../api/realtime.ts (socket events) and the tickets feature (its own mutations) patch them in place with these helpers,
 * so a new message or a changed ticket never re-fetches the list (STYLE.md).
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import {
  ticketListItemSchema,
  type MessageDto,
  type TicketDto,
  type TicketListItem,
  type TicketListResponse,
} from '@conversa/shared';
import { queryKeys } from '../../../lib/query-keys';
import type { ListFilter } from './attendance-filter';

export type TicketPages = InfiniteData<TicketListResponse, number>;

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/**
 * Whether a ticket belongs in a list with this filter: the server's rules of client-contract §4.1 that the row itself
 * can answer. Visibility (queues of the user, wallets, settings) is the server's: it only sends what the user may see.
 */
export function matchesListFilter(ticket: TicketListItem, filter: ListFilter): boolean {
  if (!filter.status.includes(ticket.status)) return false;
  if (ticket.queueId === null) {
    if (!filter.includeNotQueueDefined) return false;
  } else if (filter.queuesIds.length > 0 && !filter.queuesIds.includes(ticket.queueId)) return false;
  if (filter.whatsappIds.length > 0 && (ticket.whatsappId === null || !filter.whatsappIds.includes(ticket.whatsappId)))
    return false;
  if (filter.selectedUser.length > 0 && (ticket.userId === null || !filter.selectedUser.includes(ticket.userId)))
    return false;
  if (filter.withUnreadMessages && ticket.unreadMessages <= 0) return false;
  if (filter.isNotAssignedUser && ticket.userId !== null) return false;
  if (filter.searchParam) {
    const term = fold(filter.searchParam);
    const haystack = fold([ticket.name, ticket.contact.name, ticket.contact.number ?? '', ticket.protocol].join(' '));
    if (!haystack.includes(term)) return false;
  }
  return true;
}

/** The rows of all loaded pages, once each (a page boundary can shift while rows move). */
export function flattenPages(data: TicketPages | undefined): TicketListItem[] {
  if (!data) return [];
  const seen = new Set<number>();
  const rows: TicketListItem[] = [];
  for (const page of data.pages) {
    for (const ticket of page.tickets) {
      if (seen.has(ticket.id)) continue;
      seen.add(ticket.id);
      rows.push(ticket);
    }
  }
  return rows;
}

export const findInPages = (data: TicketPages | undefined, id: number): TicketListItem | undefined =>
  data?.pages.flatMap((page) => page.tickets).find((ticket) => ticket.id === id);

function withCountDelta(page: TicketListResponse, delta: number): TicketListResponse {
  return page.countCapped ? page : { ...page, count: Math.max(0, page.count + delta) };
}

function withoutTicket(data: TicketPages, id: number, countDelta: number): TicketPages {
  return {
    ...data,
    pages: data.pages.map((page) =>
      withCountDelta({ ...page, tickets: page.tickets.filter((t) => t.id !== id) }, countDelta),
    ),
  };
}

function atTop(data: TicketPages, ticket: TicketListItem, countDelta: number): TicketPages {
  const pages = data.pages.map((page, index) =>
    withCountDelta({ ...page, tickets: index === 0 ? [ticket, ...page.tickets] : page.tickets }, countDelta),
  );
  return { ...data, pages };
}

const isNewer = (next: string, previous: string) => Date.parse(next) > Date.parse(previous);

/**
 * Puts a changed ticket where it belongs in one list: replaced in place, moved to the top when its updatedAt is newer,
 * inserted at the top when new to the list and matching, removed when it no longer matches. Returns undefined when
 * the list is unchanged (so setQueriesData leaves it alone).
 */
export function upsertTicketInPages(
  data: TicketPages | undefined,
  ticket: TicketListItem,
  filter: ListFilter,
): TicketPages | undefined {
  if (!data || data.pages.length === 0) return undefined;
  const existing = findInPages(data, ticket.id);
  const matches = matchesListFilter(ticket, filter);
  if (!existing) return matches ? atTop(data, ticket, 1) : undefined;
  if (!matches) return withoutTicket(data, ticket.id, -1);
  if (isNewer(ticket.updatedAt, existing.updatedAt)) return atTop(withoutTicket(data, ticket.id, 0), ticket, 0);
  return {
    ...data,
    pages: data.pages.map((page) => ({
      ...page,
      tickets: page.tickets.map((row) => (row.id === ticket.id ? ticket : row)),
    })),
  };
}

export function removeTicketFromPages(data: TicketPages | undefined, id: number): TicketPages | undefined {
  if (!findInPages(data, id) || !data) return undefined;
  return withoutTicket(data, id, -1);
}

/** The row preview a new message gives (client-contract §19 chat:create): moved to the top, as its newest activity. */
export function messagePatch<T extends TicketListItem>(row: T, message: MessageDto): T {
  const at = message.timestamp ?? Date.parse(message.createdAt);
  return {
    ...row,
    // As the server stores it: text, else the file name, else the media type (the row shows it translated).
    lastMessage: message.mediaName || message.body || message.mediaType,
    lastMessageAt: Number.isFinite(at) ? at : row.lastMessageAt,
    unreadMessages: message.ticket.unreadMessages,
    answered: message.ticket.answered,
    updatedAt: message.updatedAt > row.updatedAt ? message.updatedAt : row.updatedAt,
  };
}

export function applyMessageToPages(data: TicketPages | undefined, message: MessageDto): TicketPages | undefined {
  const row = findInPages(data, message.ticket.id);
  if (!row || !data) return undefined;
  return atTop(withoutTicket(data, row.id, 0), messagePatch(row, message), 0);
}

/** A TicketDto (socket, detail) cut down to the list row shape. */
export function toListItem(ticket: TicketDto | TicketListItem): TicketListItem | null {
  const parsed = ticketListItemSchema.safeParse(ticket);
  return parsed.success ? parsed.data : null;
}

const listFilterOf = (queryKey: readonly unknown[]) => queryKey[2] as ListFilter | undefined;

/** The ticket's row as a loaded list holds it, if any does. */
export function findListedTicket(queryClient: QueryClient, id: number): TicketListItem | undefined {
  for (const [, data] of queryClient.getQueriesData<TicketPages>({ queryKey: queryKeys.ticketsLists })) {
    const row = findInPages(data, id);
    if (row) return row;
  }
  return undefined;
}

/** Whether any loaded list holds the ticket. */
export const isTicketListed = (queryClient: QueryClient, id: number): boolean =>
  findListedTicket(queryClient, id) !== undefined;

/**
 * A created or changed ticket: into every loaded list whose filter it matches (out of those it no longer matches),
 * and into its detail when that is loaded. `onlyIfAbsent` (notification:new, a partial ticket) leaves lists holding
 * it and the detail alone.
 */
export function upsertCachedTicket(
  queryClient: QueryClient,
  ticket: TicketDto | TicketListItem,
  { onlyIfAbsent = false }: { onlyIfAbsent?: boolean } = {},
): void {
  const row = toListItem(ticket);
  if (row) {
    for (const query of queryClient.getQueryCache().findAll({ queryKey: queryKeys.ticketsLists })) {
      const filter = listFilterOf(query.queryKey);
      if (!filter) continue;
      queryClient.setQueryData<TicketPages>(query.queryKey, (data) => {
        if (onlyIfAbsent && findInPages(data, row.id)) return data;
        return upsertTicketInPages(data, row, filter) ?? data;
      });
    }
  }
  if (!onlyIfAbsent && 'tenantId' in ticket && queryClient.getQueryData(queryKeys.ticket(ticket.id)) !== undefined) {
    queryClient.setQueryData(queryKeys.ticket(ticket.id), ticket);
  }
}

export function removeCachedTicket(queryClient: QueryClient, id: number): void {
  queryClient.setQueriesData<TicketPages>(
    { queryKey: queryKeys.ticketsLists },
    (data) => removeTicketFromPages(data, id) ?? data,
  );
}

/** A new message: the row's preview and unread count in every loaded list. Returns the listed row, if any. */
export function applyCachedMessage(queryClient: QueryClient, message: MessageDto): TicketListItem | null {
  let found: TicketListItem | null = null;
  queryClient.setQueriesData<TicketPages>({ queryKey: queryKeys.ticketsLists }, (data) => {
    const next = applyMessageToPages(data, message);
    if (next) found = findInPages(next, message.ticket.id) ?? found;
    return next ?? data;
  });
  queryClient.setQueryData<TicketDto>(queryKeys.ticket(message.ticket.id), (ticket) =>
    ticket ? messagePatch(ticket, message) : ticket,
  );
  return found;
}
