/** The superadmin's users of every company (client-contract §3 `/userTenants`) and the companies to pick from. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { userTenantDtoSchema, userTenantListResponseSchema, type Profile } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export type UserTenantDto = z.infer<typeof userTenantDtoSchema>;

export interface UserTenantInput {
  tenantId: number;
  name: string;
  email: string;
  password?: string;
  currentPassword?: string;
  profile: Profile;
  blockWavoip: boolean;
}

// Under the users lists, so every user event that refreshes the tenant's lists refreshes this one too.
const listKey = (filter: { searchParam: string; pageNumber: number; tenantId: number | null }) =>
  [...queryKeys.usersLists, 'tenants', filter] as const;

/** GET /userTenants/?searchParam&pageNumber[&tenantId] -> { users, count, hasMore } (rows carry `tenant`). */
export const useUserTenantsList = (searchParam: string, pageNumber: number, tenantId: number | null) =>
  useQuery({
    queryKey: listKey({ searchParam, pageNumber, tenantId }),
    queryFn: async () =>
      userTenantListResponseSchema.parse(
        await api.get('/userTenants/', {
          query: { searchParam, pageNumber, ...(tenantId === null ? {} : { tenantId }) },
          background: true,
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** The profiles a company already has (its first user should be its admin). */
export const useCompanyProfiles = (tenantId: number | null) =>
  useQuery({
    queryKey: listKey({ searchParam: '', pageNumber: 1, tenantId }),
    queryFn: async () =>
      userTenantListResponseSchema.parse(
        await api.get('/userTenants/', { query: { searchParam: '', pageNumber: 1, tenantId }, background: true }),
      ),
    enabled: tenantId !== null,
    select: (answer) => ({ count: answer.count, hasAdmin: answer.users.some((u) => u.profile === 'admin') }),
  });

function useInvalidateUserTenants() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.usersLists });
    void queryClient.invalidateQueries({ queryKey: queryKeys.usersCount, exact: true });
  };
}

/** POST /userTenants (create in the company) or PUT /userTenants/{id} (edit; another tenantId moves the user). */
export function useSaveUserTenant() {
  const invalidate = useInvalidateUserTenants();
  return useMutation({
    mutationFn: async ({ id, input }: { id?: number; input: UserTenantInput }): Promise<UserTenantDto> =>
      userTenantDtoSchema.parse(
        id === undefined ? await api.post('/userTenants', input) : await api.put(`/userTenants/${id}`, input),
      ),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** DELETE /userTenants/{id} with body { tenantId } (client-contract §21.4). */
export function useDeleteUserTenant() {
  const invalidate = useInvalidateUserTenants();
  return useMutation({
    mutationFn: ({ id, tenantId }: { id: number; tenantId: number }) =>
      api.delete<void>(`/userTenants/${id}`, { body: { tenantId } }),
    onSuccess: invalidate,
  });
}
