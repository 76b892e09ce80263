/** POST /checkContacts (client-contract §7.1, admins): asks WhatsApp about every contact's number. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';

export const checkCountsSchema = z.object({
  checked: z.number(),
  valid: z.number(),
  invalid: z.number(),
  failed: z.number(),
});
export type CheckCounts = z.infer<typeof checkCountsSchema>;

export function useCheckContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    // It walks every contact: a long request, not the usual 20 s.
    mutationFn: async (): Promise<CheckCounts> =>
      checkCountsSchema.parse(await api.post('/checkContacts', undefined, { timeoutMs: 600_000 })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.contactsLists }),
    meta: { handlesErrors: true },
  });
}
