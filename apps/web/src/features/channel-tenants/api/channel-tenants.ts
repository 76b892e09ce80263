/**
 * The superadmin's channels of every company (client-contract §7.1): `GET /whatsappTenantsAll/` lists them, and
 * `/whatsappTenants[/{id}]` creates one in a named company, reads, edits and deletes it with that company's rules.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { channelDtoSchema, tenantChannelSummarySchema, type ChannelDto, type ChannelInput } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

const allKey = ['channels-tenants', 'all'] as const;
const oneKey = (id: number) => ['channels-tenants', 'detail', id] as const;

/** Sessions change status in their own companies' rooms, which the superadmin is not in: the list is re-read. */
const REFRESH_MS = 15_000;

export const useAllTenantsChannels = () =>
  useQuery({
    queryKey: allKey,
    queryFn: async () =>
      z.array(tenantChannelSummarySchema).parse(await api.get('/whatsappTenantsAll/', { background: true })),
    refetchInterval: REFRESH_MS,
  });

/** GET /whatsappTenants/{id}: the whole channel, for its edit form. */
export const useTenantChannel = (id: number | undefined) =>
  useQuery({
    queryKey: oneKey(id ?? 0),
    queryFn: async () => channelDtoSchema.parse(await api.get(`/whatsappTenants/${id}`, { background: true })),
    enabled: id !== undefined,
  });

function useInvalidate() {
  const queryClient = useQueryClient();
  return (id?: number) => {
    void queryClient.invalidateQueries({ queryKey: allKey, exact: true });
    if (id !== undefined) void queryClient.invalidateQueries({ queryKey: oneKey(id), exact: true });
    // The superadmin's own company's channels, when the channel is one of theirs.
    void queryClient.invalidateQueries({ queryKey: queryKeys.channels, exact: true });
  };
}

/** POST /whatsappTenants with the company's `tenantId`, or PUT /whatsappTenants/{id} (the company stays). */
export function useSaveTenantChannel() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async ({
      id,
      tenantId,
      input,
    }: {
      id?: number;
      tenantId: number;
      input: ChannelInput;
    }): Promise<ChannelDto> =>
      channelDtoSchema.parse(
        id === undefined
          ? await api.post('/whatsappTenants', { ...input, tenantId })
          : await api.put(`/whatsappTenants/${id}`, input),
      ),
    onSuccess: (channel) => invalidate(channel.id),
    meta: { handlesErrors: true },
  });
}

/** DELETE /whatsappTenants/{id}. */
export function useDeleteTenantChannel() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`/whatsappTenants/${id}`),
    onSuccess: (_data, id) => invalidate(id),
  });
}
