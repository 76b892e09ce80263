import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { updateUserResponseSchema, userDtoSchema, type UpdateUserInput } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { setToken, updateStoredLogin } from '../../../lib/storage';

/** GET /users/{id}: the user's own record. */
export const useOwnUser = (userId: number) =>
  useQuery({
    queryKey: queryKeys.user(userId),
    queryFn: async () => userDtoSchema.parse(await api.get(`/users/${userId}`, { background: true })),
    enabled: userId > 0,
  });

/**
 * PUT /users/{id} with the user's own name, e-mail and (optionally) a new password; a new password or e-mail needs
 * the current one. A password change answers this tab's renewed session (the server ends the others): its token is
 * stored at once, so requests and the socket's reconnection go on under it.
 */
export function useUpdateOwnUser(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Pick<UpdateUserInput, 'name' | 'email' | 'password' | 'currentPassword'>) =>
      updateUserResponseSchema.parse(await api.put(`/users/${userId}`, input)),
    onSuccess: ({ token, ...user }) => {
      if (token) setToken(token);
      queryClient.setQueryData(queryKeys.user(userId), user);
      void queryClient.invalidateQueries({ queryKey: queryKeys.usersLists });
      updateStoredLogin({ username: user.name, email: user.email });
    },
    meta: { handlesErrors: true },
  });
}
