/**
 * The routing choices of a channel: its default queue (GET /queue/), default user (GET /users/) and chatbot flow
 * (GET /chat-flow).
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { userListResponseSchema } from '@conversa/shared';
import { api } from '../../../lib/api';
import { chatFlowListQueryOptions } from '../../../lib/chat-flows';
import { queryKeys } from '../../../lib/query-keys';

/** client-contract §8: a queue's name is `queue` on the wire. Loose: a queues screen may share this cache entry. */
export const queueOptionSchema = z.looseObject({ id: z.number(), queue: z.string(), isActive: z.boolean() });
export type QueueOption = z.infer<typeof queueOptionSchema>;

/** GET /queue/ -> bare array `[{ id, queue, isActive }]`. */
export const useQueues = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.queues,
    queryFn: async ({ signal }) =>
      z.array(queueOptionSchema).parse(await api.get('/queue/', { signal, background: true })),
    enabled,
    staleTime: 60_000,
  });

/** Every user, for the picker: GET /users/?rowsPerPage=200 -> `users` (the same cache entry as other pickers). */
export const useUserOptions = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.usersOptions,
    queryFn: async () =>
      userListResponseSchema.parse(await api.get('/users/', { query: { rowsPerPage: 200 }, background: true })).users,
    enabled,
    staleTime: 60_000,
  });

/** The channel's flow picker: the list every screen shares (lib/chat-flows.ts), refreshed by the flows screen. */
export const useChatFlowOptions = (enabled = true) => useQuery({ ...chatFlowListQueryOptions(), enabled });
