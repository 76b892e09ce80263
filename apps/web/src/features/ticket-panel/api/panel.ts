/**
 * The ticket panel's calls (client-contract §4.3): `GET /dash-tickets-queues` (a bare array of list rows), the
 * per-ticket `PUT /tickets/{id}` bodies its mass actions send, and `GET /ticketsMarkAllUnread` (which marks read).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ticketDtoSchema, userListResponseSchema, type TicketStatus } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export interface PanelFilter {
  dateStart: string;
  dateEnd: string;
  queuesIds: number[];
  status: TicketStatus[];
}

export const panelKey = (filter: PanelFilter) => [...queryKeys.ticketsAll, 'panel', filter] as const;

export const usePanelTickets = (filter: PanelFilter, enabled: boolean) =>
  useQuery({
    queryKey: panelKey(filter),
    queryFn: async ({ signal }) =>
      z.array(ticketDtoSchema).parse(
        await api.get('/dash-tickets-queues', {
          query: {
            showAll: true,
            dateStart: filter.dateStart,
            dateEnd: filter.dateEnd,
            ...(filter.queuesIds.length > 0 ? { queuesIds: filter.queuesIds.join(',') } : {}),
            ...(filter.status.length > 0 ? { status: filter.status.join(',') } : {}),
          },
          signal,
        }),
      ),
    enabled,
  });

const queueSchema = z.object({ id: z.number(), queue: z.string(), isActive: z.boolean().optional() });

export const usePanelQueues = () =>
  useQuery({
    queryKey: queryKeys.queues,
    queryFn: async () => z.array(queueSchema).parse(await api.get('/queue/', { background: true })),
    staleTime: 60_000,
  });

/** Every user with their queues (the transfer's choices). */
export const usePanelUsers = () =>
  useQuery({
    queryKey: queryKeys.usersOptions,
    queryFn: async () =>
      userListResponseSchema.parse(await api.get('/users/', { query: { rowsPerPage: 200 }, background: true })).users,
    staleTime: 60_000,
  });

export type MassAction =
  { kind: 'close' } | { kind: 'read' } | { kind: 'transfer'; queueId: number | null; userId: number | null };

/** The body of `PUT /tickets/{id}` for one ticket of a mass action (client-contract §4.3). */
export function bodyOf(action: MassAction): Record<string, unknown> {
  if (action.kind === 'close') return { status: 'closed' };
  if (action.kind === 'read') return { unreadMessages: 0 };
  return {
    userId: action.userId,
    ...(action.queueId !== null ? { queueId: action.queueId } : {}),
    status: action.userId ? 'open' : 'pending',
    isTransference: 1,
  };
}

export const applyToTicket = (id: number, action: MassAction) => api.put(`/tickets/${id}`, bodyOf(action));

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => z.object({ count: z.number() }).parse(await api.get('/ticketsMarkAllUnread')),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.ticketsAll }),
    meta: { handlesErrors: true },
  });
}
