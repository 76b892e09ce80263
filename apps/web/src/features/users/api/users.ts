import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  channelDtoSchema,
  userDtoSchema,
  userListResponseSchema,
  type CreateUserInput,
  type UpdateUserInput,
  type UserDto,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** GET /users/?searchParam&pageNumber -> { users, count, hasMore }. */
export const useUsersList = (searchParam: string, pageNumber: number) =>
  useQuery({
    queryKey: queryKeys.usersList(searchParam, pageNumber),
    queryFn: async () =>
      userListResponseSchema.parse(await api.get('/users/', { query: { searchParam, pageNumber }, background: true })),
    placeholderData: keepPreviousData,
  });

function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return (id?: number) => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.usersLists });
    void queryClient.invalidateQueries({ queryKey: queryKeys.usersCount, exact: true });
    void queryClient.invalidateQueries({ queryKey: queryKeys.onlineTeam, exact: true });
    if (id !== undefined) void queryClient.invalidateQueries({ queryKey: queryKeys.user(id), exact: true });
  };
}

/** POST /users. */
export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async (input: CreateUserInput): Promise<UserDto> =>
      userDtoSchema.parse(await api.post('/users', input)),
    onSuccess: () => invalidate(),
    meta: { handlesErrors: true },
  });
}

/** PUT /users/{id}. */
export function useUpdateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number; input: UpdateUserInput }): Promise<UserDto> =>
      userDtoSchema.parse(await api.put(`/users/${id}`, input)),
    onSuccess: (user) => invalidate(user.id),
    meta: { handlesErrors: true },
  });
}

/** DELETE /users/{id}. */
export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`/users/${id}`),
    onSuccess: (_data, id) => invalidate(id),
  });
}

const queueOptionSchema = z.object({ id: z.number(), queue: z.string(), isActive: z.boolean().optional() });

/** The queues a user may serve (GET /queue/: `[{ id, queue, isActive }]`), for the user form. */
export const useQueueOptions = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.queues,
    queryFn: async () => z.array(queueOptionSchema).parse(await api.get('/queue/', { background: true })),
    enabled,
    staleTime: 60_000,
  });

/** The tenant's channels (GET /whatsapp/), for the user's allowed channels (`whatsappAllowed`). */
export const useChannelOptions = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.channels,
    queryFn: async () => z.array(channelDtoSchema).parse(await api.get('/whatsapp/', { background: true })),
    enabled,
    staleTime: 60_000,
  });
