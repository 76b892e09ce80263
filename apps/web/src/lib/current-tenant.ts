/**
 * The caller's own tenant. The reference client reads it as GET /tenants/undefined and gets a one-element array
 * (client-contract §2, §21.11); the shell checks its status, the dashboard shows it.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { tenantDtoSchema, type TenantDto } from '@conversa/shared';
import { api } from './api';
import { queryKeys } from './query-keys';

export async function fetchCurrentTenant(): Promise<TenantDto | null> {
  const body = await api.get<unknown>('/tenants/undefined', { background: true });
  const first: unknown = Array.isArray(body) ? body[0] : body;
  return first ? tenantDtoSchema.parse(first) : null;
}

export const currentTenantQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.currentTenant, queryFn: fetchCurrentTenant, staleTime: 15_000 });

export const useCurrentTenant = (enabled = true) => useQuery({ ...currentTenantQueryOptions(), enabled });
