/** POST /groups/sync (client-contract §6, admins): the WhatsApp sessions' groups become group contacts. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { syncCountsSchema, type SyncCounts } from './sync-phone-contacts';

export function useSyncGroups() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<SyncCounts> =>
      syncCountsSchema.parse(await api.post('/groups/sync', undefined, { timeoutMs: 120_000 })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.contactsLists }),
    meta: { handlesErrors: true },
  });
}
