/** Ticket calls of the list side (client-contract §4.1, §4.3): the paged list, one ticket, accept, create, the filter. */
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ticketDtoSchema, ticketListResponseSchema, type TicketDto, type TicketListResponse } from '@conversa/shared';
import { api, ApiError, type Query } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { getStoredLogin, updateStoredLogin } from '../../../lib/storage';
import { toStoredFilter, type ListFilter, type TicketsFilter } from '../hooks/attendance-filter';
import { shiftTicketCounts } from '../hooks/ticket-counts';
import { findListedTicket, toListItem, upsertCachedTicket, type TicketPages } from '../hooks/ticket-list-cache';

const joinIds = (ids: readonly (number | string)[]) => (ids.length > 0 ? ids.join(',') : undefined);

/** GET /tickets query: arrays comma-joined (the server accepts `a,b` as well as `a[]=`), empty ones left out. */
export function listQuery(filter: ListFilter, pageNumber: number): Query {
  return {
    searchParam: filter.searchParam,
    pageNumber,
    status: joinIds(filter.status),
    showAll: filter.showAll,
    queuesIds: joinIds(filter.queuesIds),
    whatsappIds: joinIds(filter.whatsappIds),
    selectedUser: joinIds(filter.selectedUser),
    withUnreadMessages: filter.withUnreadMessages,
    isNotAssignedUser: filter.isNotAssignedUser,
    includeNotQueueDefined: filter.includeNotQueueDefined,
  };
}

/** The list, page by page (the server sizes a page by the company's ticketLimit); "load more" while `hasMore`. */
export const useTicketsList = (filter: ListFilter) =>
  useInfiniteQuery<TicketListResponse, Error, TicketPages, ReturnType<typeof queryKeys.ticketsList>, number>({
    queryKey: queryKeys.ticketsList(filter),
    queryFn: async ({ pageParam, signal }) =>
      ticketListResponseSchema.parse(
        await api.get('/tickets', { query: listQuery(filter, pageParam), signal, background: true }),
      ),
    initialPageParam: 1,
    getNextPageParam: (lastPage, _pages, lastPageParam) => (lastPage.hasMore ? lastPageParam + 1 : undefined),
    placeholderData: keepPreviousData,
  });

/** GET /tickets/{id}: the whole ticket (client-contract §20.2); kept live by ./realtime.ts. */
export const useTicket = (id: number) =>
  useQuery({
    queryKey: queryKeys.ticket(id),
    queryFn: async ({ signal }) => ticketDtoSchema.parse(await api.get(`/tickets/${id}`, { signal, background: true })),
    enabled: id > 0,
  });

function storeReturnedTicket(queryClient: ReturnType<typeof useQueryClient>, body: unknown): TicketDto | null {
  const ticket = ticketDtoSchema.safeParse(body);
  if (ticket.success) {
    const before = findListedTicket(queryClient, ticket.data.id);
    upsertCachedTicket(queryClient, ticket.data);
    shiftTicketCounts(queryClient, before, toListItem(ticket.data));
    return ticket.data;
  }
  // An answer we cannot read: the lists and their counts are read again rather than left wrong.
  void queryClient.invalidateQueries({ queryKey: queryKeys.ticketsLists });
  void queryClient.invalidateQueries({ queryKey: queryKeys.ticketsCounts });
  return null;
}

/** Start attending (pending -> open, product-spec §4): PUT /tickets/{id} { status: 'open', userId: me }. */
export function useAcceptTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, userId }: { id: number; userId: number }) =>
      api.put<unknown>(`/tickets/${id}`, { status: 'open', userId }),
    onSuccess: (body) => storeReturnedTicket(queryClient, body),
  });
}

export interface CreateTicketVariables {
  contactId: number;
  channelId: number;
  channelType: string;
  userId: number;
}

/** POST /tickets for an active conversation; a 409 (open ticket exists) is the caller's to show. */
export function useCreateTicket() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ contactId, channelId, channelType, userId }: CreateTicketVariables) => {
      const body = await api.post<unknown>('/tickets', {
        contactId,
        channelId,
        channel: channelType,
        status: 'open',
        userId,
        isActiveDemand: true,
      });
      const created = storeReturnedTicket(queryClient, body);
      return created?.id ?? z.object({ id: z.number() }).parse(body).id;
    },
    meta: { handlesErrors: true },
  });
}

const existingTicketSchema = z.object({ id: z.number() }).loose();

/**
 * The ticket a 409 ERR_OTHER_OPEN_TICKET carries: `ticket` in the body, or (reference server) the ticket JSON-encoded
 * in `error`. Null for any other error.
 */
export function existingTicketId(error: unknown): number | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = error.body as { ticket?: unknown; error?: unknown } | null;
  const fromField = existingTicketSchema.safeParse(body?.ticket);
  if (fromField.success) return fromField.data.id;
  if (typeof body?.error === 'string' && body.error.trim().startsWith('{')) {
    try {
      const parsed = existingTicketSchema.safeParse(JSON.parse(body.error));
      if (parsed.success) return parsed.data.id;
    } catch {
      return null;
    }
  }
  return null;
}

/** Stores the attendance filter in users.configs.filtrosAtendimento (PUT /users/{id}/configs, other configs kept). */
export function useSaveAttendanceFilter(userId: number) {
  return useMutation({
    mutationFn: async (filter: TicketsFilter) => {
      const configs = { ...(getStoredLogin()?.configs ?? {}), filtrosAtendimento: toStoredFilter(filter) };
      await api.put(`/users/${userId}/configs`, configs, { background: true });
      updateStoredLogin({ configs });
    },
  });
}
