/** Duplicate contacts (same number, ninth digit aside): GET /contacts/duplicates and POST /contacts/merge. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { contactDtoSchema, contactDuplicatesResponseSchema, type ContactDto } from '@conversa/shared';
import { api } from '../../../lib/api';
import { patchCachedContact, removeCachedContact } from '../../../lib/contacts-cache';
import { queryKeys } from '../../../lib/query-keys';

export const useContactDuplicates = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.contactDuplicates,
    queryFn: async () => contactDuplicatesResponseSchema.parse(await api.get('/contacts/duplicates')),
    enabled,
    staleTime: 0,
  });

/** Merges the sources into the target; the sources are gone afterwards. */
export function useMergeContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ targetId, sourceIds }: { targetId: number; sourceIds: number[] }): Promise<ContactDto> =>
      contactDtoSchema.parse(await api.post('/contacts/merge', { targetId, sourceIds })),
    onSuccess: (contact, { sourceIds }) => {
      for (const id of sourceIds) removeCachedContact(queryClient, id);
      patchCachedContact(queryClient, contact);
      void queryClient.invalidateQueries({ queryKey: queryKeys.contactsLists });
    },
  });
}
