/** POST /contacts/sync (client-contract §6, admins): reads the WhatsApp sessions' phone books into the contacts. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

/** The answer of both syncs: how many were read, created and renamed. */
export const syncCountsSchema = z.object({ total: z.number(), created: z.number(), renamed: z.number() });
export type SyncCounts = z.infer<typeof syncCountsSchema>;

export function useSyncPhoneContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (): Promise<SyncCounts> =>
      syncCountsSchema.parse(await api.post('/contacts/sync', undefined, { timeoutMs: 120_000 })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.contactsLists }),
    meta: { handlesErrors: true },
  });
}
