import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { userDtoSchema, type UpdateUserInput } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { updateStoredLogin } from '../../../lib/storage';

/** GET /users/{id}: the user's own record. */
export const useOwnUser = (userId: number) =>
  useQuery({
    queryKey: queryKeys.user(userId),
    queryFn: async () => userDtoSchema.parse(await api.get(`/users/${userId}`, { background: true })),
    enabled: userId > 0,
  });

/** PUT /users/{id} with the user's own name, e-mail and (optionally) a new password. */
export function useUpdateOwnUser(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: Pick<UpdateUserInput, 'name' | 'email' | 'password'>) =>
      userDtoSchema.parse(await api.put(`/users/${userId}`, input)),
    onSuccess: (user) => {
      queryClient.setQueryData(queryKeys.user(userId), user);
      void queryClient.invalidateQueries({ queryKey: queryKeys.usersLists });
      updateStoredLogin({ username: user.name, email: user.email });
    },
    meta: { handlesErrors: true },
  });
}
