/**
 * The tenant flag `forceOpenChatWindow` (client-contract §10): when enabled, a WhatsApp Cloud API chat keeps its
 * composer outside the 24-hour window (the server tries the send and Meta's refusal marks it undelivered). Read from
 * the own tenant (`GET /tenants/undefined`, which any staff user may read; the flags are fields of its one row).
 */
import { useQuery } from '@tanstack/react-query';
import { readTenantFlags } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export const useForceOpenChatWindow = (enabled: boolean): boolean => {
  const query = useQuery({
    // Under the current tenant's key, kept a minute: the flag changes rarely, and the server enforces it anyway.
    queryKey: [...queryKeys.currentTenant, 'forceOpenChatWindow'] as const,
    queryFn: async () => {
      const body = await api.get<unknown>('/tenants/undefined', { background: true });
      return readTenantFlags(Array.isArray(body) ? body[0] : body).forceOpenChatWindow === 'enabled';
    },
    enabled,
    staleTime: 60_000,
  });
  return query.data === true;
};
