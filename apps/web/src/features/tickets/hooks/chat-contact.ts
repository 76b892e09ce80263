/** Contact calls of the chat (client-contract §6): the contact search of "forward" and the contact drawer's edits. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  contactDtoSchema,
  contactListResponseSchema,
  type ContactDto,
  type ContactInput,
  type TicketDto,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { patchCachedContact } from '../../../lib/contacts-cache';
import { queryKeys } from '../../../lib/query-keys';

/** The forward search starts at 2 letters (product-spec §5 "Forwarding"). */
export const CONTACT_SEARCH_MIN = 2;

/** GET /contacts/?searchParam= (first page). */
export const useContactSearch = (searchParam: string) =>
  useQuery({
    queryKey: queryKeys.contactsList(searchParam, 1, 20),
    queryFn: async ({ signal }) =>
      contactListResponseSchema.parse(
        await api.get('/contacts/', {
          query: { searchParam, pageNumber: 1, rowsPerPage: 20 },
          signal,
          background: true,
        }),
      ),
    enabled: searchParam.trim().length >= CONTACT_SEARCH_MIN,
    placeholderData: keepPreviousData,
  });

/**
 * PUT /contacts/{id} (a partial body: the edit form or `{ blocked }`). The saved contact replaces the one inside the
 * cached ticket and in the loaded contact lists.
 */
export function useUpdateContact(ticketId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input }: { id: number; input: Partial<ContactInput> }) =>
      contactDtoSchema.parse(await api.put(`/contacts/${id}`, input)),
    onSuccess: (contact: ContactDto) => {
      queryClient.setQueryData<TicketDto>(queryKeys.ticket(ticketId), (ticket) =>
        ticket && ticket.contact.id === contact.id
          ? { ...ticket, contact, name: contact.name, profilePicUrl: contact.profilePicUrl }
          : ticket,
      );
      patchCachedContact(queryClient, contact);
    },
  });
}
