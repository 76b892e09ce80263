/**
 * A ticket shows its contact's tags (a ticket's tags are its contact's). When a contact changes (its own save, or
 * `{T}:contactList contact:update`), the loaded ticket rows and details of that contact take its tags and, in the
 * detail, the whole contact, so the ticket list, its tag filter and the chat follow at once.
 */
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ContactDto, TicketDto, TicketListResponse } from '@conversa/shared';
import { queryKeys } from './query-keys';

type TicketPages = InfiniteData<TicketListResponse, number>;

const tagsOf = (contact: ContactDto) => contact.tags.map(({ id, tag, color }) => ({ id, tag, color }));

export function patchContactTickets(queryClient: QueryClient, contact: ContactDto): void {
  const tags = tagsOf(contact);
  queryClient.setQueriesData<TicketPages>({ queryKey: queryKeys.ticketsLists }, (data) => {
    if (!data?.pages?.some((page) => page.tickets.some((row) => row.contactId === contact.id))) return data;
    return {
      ...data,
      pages: data.pages.map((page) => ({
        ...page,
        tickets: page.tickets.map((row) => (row.contactId === contact.id ? { ...row, tags } : row)),
      })),
    };
  });
  for (const query of queryClient.getQueryCache().findAll({ queryKey: ['tickets', 'detail'] })) {
    const ticket = query.state.data as TicketDto | undefined;
    if (ticket?.contactId === contact.id)
      queryClient.setQueryData<TicketDto>(query.queryKey, { ...ticket, tags, contact });
  }
}
