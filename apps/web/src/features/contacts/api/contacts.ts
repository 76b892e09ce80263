/** Contact calls (client-contract §6): list, create, update, block toggles, wallets, delete; and the wallet owners. */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  contactDtoSchema,
  contactListResponseSchema,
  userListResponseSchema,
  type ContactDto,
  type ContactInput,
} from '@conversa/shared';
import { api } from '../../../lib/api';
import { patchCachedContact, removeCachedContact } from '../../../lib/contacts-cache';
import { queryKeys } from '../../../lib/query-keys';

export const CONTACTS_PAGE_SIZE = 20;

/** GET /contacts/?searchParam&pageNumber&rowsPerPage -> { contacts, count, countCapped, hasMore }. */
export const useContactsList = (searchParam: string, pageNumber: number) =>
  useQuery({
    queryKey: queryKeys.contactsList(searchParam, pageNumber, CONTACTS_PAGE_SIZE),
    queryFn: async ({ signal }) =>
      contactListResponseSchema.parse(
        await api.get('/contacts/', {
          query: { searchParam, pageNumber, rowsPerPage: CONTACTS_PAGE_SIZE },
          signal,
          background: true,
        }),
      ),
    placeholderData: keepPreviousData,
  });

/** Wallet owners are users: GET /users/?rowsPerPage=200 (only for profiles that may list users). */
export const useWalletOwners = (enabled: boolean) =>
  useQuery({
    queryKey: queryKeys.usersOptions,
    queryFn: async () =>
      userListResponseSchema.parse(await api.get('/users/', { query: { rowsPerPage: 200 }, background: true })).users,
    enabled,
    staleTime: 60_000,
  });

const parseContact = (body: unknown): ContactDto => contactDtoSchema.parse(body);

export interface SaveContactVariables {
  /** Absent: create. */
  id?: number;
  input: ContactInput;
  /** User ids; undefined leaves the wallets as they are. */
  wallets?: number[];
  /** Tag ids; undefined leaves the tags as they are. */
  tags?: number[];
}

const sameIds = (a: number[], b: number[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/**
 * POST /contacts or PUT /contacts/{id}, then PUT /contact-wallet/{id} and PUT /contact-tags/{id} when the wallets or
 * tags differ from what the server holds. A new contact is not in any loaded page yet: the lists are read again.
 */
export function useSaveContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, input, wallets, tags }: SaveContactVariables): Promise<ContactDto> => {
      let contact = parseContact(
        id === undefined ? await api.post('/contacts', input) : await api.put(`/contacts/${id}`, input),
      );
      if (
        wallets !== undefined &&
        !sameIds(
          wallets,
          contact.wallets.map((w) => w.id),
        )
      ) {
        contact = parseContact(await api.put(`/contact-wallet/${contact.id}`, { wallets }));
      }
      if (
        tags !== undefined &&
        !sameIds(
          tags,
          contact.tags.map((tag) => tag.id),
        )
      ) {
        contact = parseContact(await api.put(`/contact-tags/${contact.id}`, { tags }));
      }
      return contact;
    },
    onSuccess: (contact, { id }) => {
      if (id === undefined) void queryClient.invalidateQueries({ queryKey: queryKeys.contactsLists });
      else patchCachedContact(queryClient, contact);
    },
    meta: { handlesErrors: true },
  });
}

export type ContactFlag = 'blocked' | 'chatbotBlocked';

/** PUT /contacts/{id} with the one flag (a partial body). */
export function useToggleContactFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, flag, value }: { id: number; flag: ContactFlag; value: boolean }) =>
      parseContact(await api.put(`/contacts/${id}`, { [flag]: value })),
    onSuccess: (contact) => patchCachedContact(queryClient, contact),
  });
}

/** DELETE /contacts/{id} (204). */
export function useDeleteContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<void>(`/contacts/${id}`),
    onSuccess: (_data, id) => {
      // Gone at once from the page; the page is then read again to fill the gap.
      removeCachedContact(queryClient, id);
      void queryClient.invalidateQueries({ queryKey: queryKeys.contactsLists });
    },
    meta: { handlesErrors: true },
  });
}
