/**
 * Contacts in the TanStack Query cache: the contacts feature (after its own mutations) and realtime-sync.ts (on socket
 * events) patch loaded pages in place, so one changed contact never re-fetches the pages that hold it.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  ContactDto,
  ContactImportProgress,
  contactDuplicatesResponseSchema,
  contactListResponseSchema,
} from '@conversa/shared';
import { patchContactTickets } from './contact-tickets-cache';
import { queryKeys } from './query-keys';

export type ContactListResponse = z.infer<typeof contactListResponseSchema>;
export type ContactDuplicatesResponse = z.infer<typeof contactDuplicatesResponseSchema>;

/**
 * Replaces the contact in every loaded page, its detail and the duplicate groups, and its tags on its loaded tickets.
 * Returns whether a loaded page held it. Untouched queries are left alone (an updater returning undefined keeps them
 * as they are, stale or not).
 */
export function patchCachedContact(queryClient: QueryClient, contact: ContactDto): boolean {
  let found = false;
  queryClient.setQueriesData<ContactListResponse>({ queryKey: queryKeys.contactsLists }, (data) => {
    if (!data?.contacts.some((row) => row.id === contact.id)) return undefined;
    found = true;
    return { ...data, contacts: data.contacts.map((row) => (row.id === contact.id ? contact : row)) };
  });
  if (queryClient.getQueryData(queryKeys.contact(contact.id)) !== undefined) {
    queryClient.setQueryData(queryKeys.contact(contact.id), contact);
  }
  queryClient.setQueryData<ContactDuplicatesResponse>(queryKeys.contactDuplicates, (data) => {
    if (!data?.groups.some((group) => group.contacts.some((row) => row.id === contact.id))) return undefined;
    return {
      groups: data.groups.map((group) => ({
        ...group,
        contacts: group.contacts.map((row) => (row.id === contact.id ? contact : row)),
      })),
    };
  });
  patchContactTickets(queryClient, contact);
  return found;
}

/** Drops the contact from every loaded page (one less in the count), its detail and the duplicate groups. */
export function removeCachedContact(queryClient: QueryClient, id: number): void {
  queryClient.setQueriesData<ContactListResponse>({ queryKey: queryKeys.contactsLists }, (data) => {
    if (!data?.contacts.some((row) => row.id === id)) return undefined;
    return {
      ...data,
      contacts: data.contacts.filter((row) => row.id !== id),
      count: data.countCapped ? data.count : Math.max(0, data.count - 1),
    };
  });
  queryClient.removeQueries({ queryKey: queryKeys.contact(id), exact: true });
  queryClient.setQueryData<ContactDuplicatesResponse>(queryKeys.contactDuplicates, (data) => {
    if (!data?.groups.some((group) => group.contacts.some((row) => row.id === id))) return undefined;
    return {
      groups: data.groups
        .map((group) => ({ ...group, contacts: group.contacts.filter((row) => row.id !== id) }))
        .filter((group) => group.contacts.length > 1),
    };
  });
}

/**
 * The next state of an import: a finished import (done or failed) stays finished, and a progress event older than
 * the one already seen (events may overtake each other) is ignored.
 */
export function nextImportProgress(
  current: ContactImportProgress | undefined,
  event: ContactImportProgress,
): ContactImportProgress {
  if (!current) return event;
  if (current.action !== 'progress') return current;
  if (event.action === 'progress' && event.processed < current.processed) return current;
  return event;
}

export function recordImportProgress(queryClient: QueryClient, event: ContactImportProgress): ContactImportProgress {
  const key = queryKeys.contactImport(event.importId);
  const next = nextImportProgress(queryClient.getQueryData<ContactImportProgress>(key), event);
  queryClient.setQueryData(key, next);
  return next;
}
