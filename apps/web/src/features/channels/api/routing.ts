/**
 * The routing choices of a channel: its default queue (GET /queue/), default user (GET /users/) and chatbot flow
 * (GET /chat-flow).
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { userListResponseSchema } from '@conversa/shared';
import { api } from '../../../lib/api';
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

/** A chat flow as the picker needs it (client-contract §13); loose, the rest of the record is not read here. */
export const chatFlowOptionSchema = z.looseObject({ id: z.number(), name: z.string(), isActive: z.boolean() });
export type ChatFlowOption = z.infer<typeof chatFlowOptionSchema>;

/**
 * GET /chat-flow -> `{ chatFlow: [...] }`. Under the chat-flows screen's key prefix, so its saves and deletes
 * (which invalidate `['chat-flows']`) refresh this list too.
 */
export const useChatFlowOptions = (enabled = true) =>
  useQuery({
    queryKey: ['chat-flows', 'options'] as const,
    queryFn: async ({ signal }) =>
      z
        .object({ chatFlow: z.array(chatFlowOptionSchema) })
        .parse(await api.get('/chat-flow', { signal, background: true })).chatFlow,
    enabled,
    staleTime: 60_000,
  });
