/**
 * The ticket calls the chat header needs (client-contract §4.3): the ticket, its status changes (accept, return to
 * queue, resolve, reopen, transfer, force close), its logs, and the queues and users a transfer picks from.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  chatPrivadoUserSchema,
  ticketDtoSchema,
  ticketLogDtoSchema,
  userListResponseSchema,
  type TicketDto,
  type TicketUpdateInput,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /tickets/{id}: the full ticket (§20.2). */
export const useChatTicket = (ticketId: number) =>
  useQuery({
    queryKey: queryKeys.ticket(ticketId),
    queryFn: async ({ signal }) =>
      ticketDtoSchema.parse(await api.get(`/tickets/${ticketId}`, { signal, background: true })),
  });

export type TicketChange =
  | { kind: 'update'; body: TicketUpdateInput }
  /** PUT /ticketsForce/{id}: closes without farewell or rating. */
  | { kind: 'force'; body: { status: 'closed'; userId: number | null } };

/**
 * PUT /tickets/{id} or /ticketsForce/{id}. The answer is the ticket when the server sends one (it lands in the cache
 * at once); otherwise the ticket is read again. Errors are toasts, unless the caller shows them (`handlesErrors`).
 */
export function useChangeTicket(ticketId: number, { handlesErrors = false } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { handlesErrors },
    mutationFn: async (change: TicketChange) =>
      change.kind === 'force'
        ? api.put<unknown>(`/ticketsForce/${ticketId}`, change.body)
        : api.put<unknown>(`/tickets/${ticketId}`, change.body),
    onSuccess: (answer) => {
      const ticket = ticketDtoSchema.safeParse(answer);
      if (ticket.success) queryClient.setQueryData<TicketDto>(queryKeys.ticket(ticketId), ticket.data);
      else void queryClient.invalidateQueries({ queryKey: queryKeys.ticket(ticketId), exact: true });
    },
  });
}

/** PUT /tickets/{id} { unreadMessages: 0 } in the background, without toasts (it is not the user's own action). */
export const markTicketRead = (ticketId: number) =>
  api.put<unknown>(`/tickets/${ticketId}`, { unreadMessages: 0 }, { background: true });

/** GET /tickets/{id}/logs. */
export const useTicketLogs = (ticketId: number, enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.ticketLogs(ticketId),
    queryFn: async ({ signal }) =>
      z
        .array(ticketLogDtoSchema)
        .parse(await api.get(`/tickets/${ticketId}/logs`, { query: { ticketId }, signal, background: true })),
    enabled,
  });

const queueSchema = z.object({ id: z.number(), queue: z.string(), isActive: z.boolean().optional() });
export type QueueOption = z.infer<typeof queueSchema>;

/** GET /queue/: a bare array `[{ id, queue, isActive }]` (client-contract §8). */
export const useQueues = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.queues,
    queryFn: async () => z.array(queueSchema).parse(await api.get('/queue/', { background: true })),
    enabled,
    staleTime: 60_000,
  });

export interface UserOption {
  id: number;
  name: string;
}

const onlineTeamSchema = z.object({ users: z.array(chatPrivadoUserSchema) });

/**
 * Users to transfer to: supervisors and up read GET /users/ (200 rows); agents may not list users, so they pick from
 * the team (GET /users/chat-privado/). Both entries are the ones the users and home features keep.
 */
export function useTransferUsers(enabled: boolean, canListUsers: boolean) {
  const all = useQuery({
    queryKey: queryKeys.usersOptions,
    queryFn: async () =>
      userListResponseSchema.parse(await api.get('/users/', { query: { rowsPerPage: 200 }, background: true })).users,
    enabled: enabled && canListUsers,
    staleTime: 60_000,
  });
  const team = useQuery({
    queryKey: queryKeys.onlineTeam,
    queryFn: async () => onlineTeamSchema.parse(await api.get('/users/chat-privado/', { background: true })),
    enabled: enabled && !canListUsers,
  });
  const source = canListUsers ? all : team;
  const users: UserOption[] = canListUsers
    ? (all.data ?? []).map(({ id, name }) => ({ id, name }))
    : (team.data?.users ?? []).map(({ id, name }) => ({ id, name }));
  return { users, isLoading: source.isLoading, isError: source.isError };
}
