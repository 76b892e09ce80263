/**
 * Tags for the screens that apply them (contacts form, chat contact drawer): the active tags (GET /tags/?isActive=true,
 * the same query the ticket filter reads) and `PUT /contact-tags/{id}` (client-contract §6, §8).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { contactDtoSchema, tagDtoSchema, type ContactDto } from '@conversa/shared';
import { api } from './api';
import { patchCachedContact } from './contacts-cache';
import { queryKeys } from './query-keys';

export type TagOption = z.infer<typeof tagDtoSchema>;

/** GET /tags/?isActive=true -> [{ id, tag, color, isActive }]. */
export const useActiveTags = (enabled = true) =>
  useQuery({
    queryKey: queryKeys.tags,
    queryFn: async () =>
      z.array(tagDtoSchema).parse(await api.get('/tags/', { query: { isActive: true }, background: true })),
    enabled,
    staleTime: 60_000,
  });

export const sameIdSet = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && new Set(a).size === new Set([...a, ...b]).size;

/** PUT /contact-tags/{id} { tags: [ids] }: the saved contact replaces it in every loaded list and ticket. */
export function useSetContactTags() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ contactId, tags }: { contactId: number; tags: number[] }): Promise<ContactDto> =>
      contactDtoSchema.parse(await api.put(`/contact-tags/${contactId}`, { tags })),
    onSuccess: (contact) => patchCachedContact(queryClient, contact),
  });
}
