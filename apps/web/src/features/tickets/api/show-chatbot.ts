/**
 * The tenant flag `showChatBot` (client-contract §4.2, §10): when enabled, the private tab of the ticket list has a
 * "Chatbot" sub-tab with the tickets the bot handles. Read from the own tenant (`GET /tenants/undefined`, which any
 * staff user may read; the flags are fields of its one row).
 */
import { useQuery } from '@tanstack/react-query';
import { readTenantFlags } from '@conversa/shared';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export const useShowChatBot = (): boolean => {
  const query = useQuery({
    // Under the current tenant's key, kept a minute: the flag changes rarely.
    queryKey: [...queryKeys.currentTenant, 'showChatBot'] as const,
    queryFn: async () => {
      const body = await api.get<unknown>('/tenants/undefined', { background: true });
      return readTenantFlags(Array.isArray(body) ? body[0] : body).showChatBot === 'enabled';
    },
    staleTime: 60_000,
  });
  return query.data === true;
};
