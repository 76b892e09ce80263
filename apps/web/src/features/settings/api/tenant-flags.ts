/**
 * The tenant toggles (client-contract §10): read with the tenant (`GET /tenants/undefined`, one-element array) and
 * written one field per call (`PUT /tenants<Name>/{id} { id, <field>: value }`). Optimistic like the settings.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  readTenantFlags,
  TENANT_FLAG_PATHS,
  tenantFlagsResponseSchema,
  type TenantFlagKey,
  type TenantFlags,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

const FLAGS_KEY = [...queryKeys.currentTenant, 'flags'] as const;

export interface TenantFlagsState {
  id: number;
  flags: TenantFlags;
}

export const useTenantFlags = () =>
  useQuery({
    queryKey: FLAGS_KEY,
    queryFn: async (): Promise<TenantFlagsState> => {
      const body = await api.get<unknown>('/tenants/undefined', { background: true });
      const first = (Array.isArray(body) ? body[0] : body) as { id: number } & Record<string, unknown>;
      return { id: first.id, flags: readTenantFlags(first) };
    },
  });

const PATH_OF = Object.fromEntries(Object.entries(TENANT_FLAG_PATHS).map(([path, field]) => [field, path])) as Record<
  TenantFlagKey,
  string
>;

export function useUpdateTenantFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, field, value }: { id: number; field: TenantFlagKey; value: string | number }) =>
      tenantFlagsResponseSchema.parse(await api.put(`${PATH_OF[field]}/${id}`, { id, [field]: value })),
    onMutate: async ({ field, value }) => {
      await queryClient.cancelQueries({ queryKey: FLAGS_KEY, exact: true });
      const previous = queryClient.getQueryData<TenantFlagsState>(FLAGS_KEY);
      if (previous) {
        queryClient.setQueryData<TenantFlagsState>(FLAGS_KEY, {
          ...previous,
          flags: { ...previous.flags, [field]: value } as TenantFlags,
        });
      }
      return { previous };
    },
    onError: (_error, _input, context) => {
      if (context?.previous) queryClient.setQueryData(FLAGS_KEY, context.previous);
    },
    onSuccess: ({ id, ...flags }) => {
      queryClient.setQueryData<TenantFlagsState>(FLAGS_KEY, { id, flags });
      void queryClient.invalidateQueries({ queryKey: queryKeys.currentTenant, exact: true });
    },
    meta: { handlesErrors: true },
  });
}
