import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { tenantDtoSchema, type TenantDto } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export interface TenantInput {
  name: string;
  status: TenantDto['status'];
  maxUsers: number;
  maxConnections: number;
  identity: string | null;
  trial: TenantDto['trial'];
  trialPeriod: number;
}

/** GET /tenants/ (superadmin): a bare array. */
export const useTenants = () =>
  useQuery({
    queryKey: queryKeys.tenants,
    queryFn: async () => z.array(tenantDtoSchema).parse(await api.get('/tenants/', { background: true })),
  });

function useInvalidateTenants() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.tenants, exact: true });
    void queryClient.invalidateQueries({ queryKey: queryKeys.currentTenant, exact: true });
  };
}

/** POST /tenants/ or, for an existing one, PUT /tenantsUpdate/{id}. */
export function useSaveTenant() {
  const invalidate = useInvalidateTenants();
  return useMutation({
    mutationFn: ({ id, input }: { id?: number; input: TenantInput }) =>
      id === undefined ? api.post<unknown>('/tenants/', input) : api.put<unknown>(`/tenantsUpdate/${id}`, input),
    onSuccess: invalidate,
    meta: { handlesErrors: true },
  });
}

/** DELETE /tenants/{id} (tenant 1 is protected: ERR_TENANT_PROTECTED). */
export function useDeleteTenant() {
  const invalidate = useInvalidateTenants();
  return useMutation({ mutationFn: (id: number) => api.delete<void>(`/tenants/${id}`), onSuccess: invalidate });
}
