import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ContactImportProgress } from '@conversa/shared';
import { contactFixture, contactPage } from '../test/contacts';
import { fakeSocket } from '../test/socket';
import type { ContactDuplicatesResponse, ContactListResponse } from './contacts-cache';
import { queryKeys } from './query-keys';
import { startRealtimeSync, type OnlineTeamResponse } from './realtime-sync';

const member = (id: number, isOnline: boolean) => ({
  id,
  name: `User ${id}`,
  profile: 'user' as const,
  isOnline,
  count: 0,
  text: null,
  timestamp: null,
  read: null,
  senderId: null,
});

describe('realtime sync', () => {
  it('patches presence in the cached team without re-fetching', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData<OnlineTeamResponse>(queryKeys.onlineTeam, { users: [member(1, false), member(2, true)] });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { socket, emit } = fakeSocket();
    startRealtimeSync(socket, queryClient, 3);
    emit('3:user-online', { action: 'update', data: { userId: 1, isOnline: true, name: 'User 1' } });
    // The server's follow-up updateStatusUser brings nothing new: no re-fetch.
    emit('3:updateStatusUser');
    const team = queryClient.getQueryData<OnlineTeamResponse>(queryKeys.onlineTeam);
    expect(team?.users.map((u) => u.isOnline)).toEqual([true, true]);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('re-reads the team on updateStatusUser and updates settings in place', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(queryKeys.settings, [{ key: 'signed', value: 'disabled' }]);
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { socket, emit, handlers } = fakeSocket();
    const stop = startRealtimeSync(socket, queryClient, 3);
    emit('3:updateStatusUser');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.onlineTeam, exact: true });
    emit('3:settings', { action: 'update', setting: { key: 'signed', value: 'enabled' } });
    expect(queryClient.getQueryData(queryKeys.settings)).toEqual([{ key: 'signed', value: 'enabled' }]);
    stop();
    expect(handlers.size).toBe(0);
  });
});

describe('realtime sync of contacts', () => {
  afterEach(() => vi.useRealTimers());

  const page1 = queryKeys.contactsList('', 1, 20);
  const page2 = queryKeys.contactsList('', 2, 20);
  const search = queryKeys.contactsList('ana', 1, 20);

  function setup() {
    const queryClient = new QueryClient();
    queryClient.setQueryData<ContactListResponse>(page1, contactPage([contactFixture(1), contactFixture(2)], 42));
    queryClient.setQueryData<ContactListResponse>(page2, contactPage([contactFixture(3)], 42));
    queryClient.setQueryData<ContactListResponse>(search, contactPage([contactFixture(2)], 1));
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { socket, emit } = fakeSocket();
    startRealtimeSync(socket, queryClient, 7);
    const names = (key: readonly unknown[]) =>
      queryClient.getQueryData<ContactListResponse>(key)?.contacts.map((c) => c.name);
    return { queryClient, invalidate, emit, names };
  }

  it('patches an updated contact in every loaded page that holds it, without re-fetching', () => {
    const { queryClient, invalidate, emit, names } = setup();
    const before = queryClient.getQueryData(page2);
    emit('7:contactList', { type: 'contact:update', payload: contactFixture(2, { name: 'Ana Lima', blocked: true }) });
    expect(names(page1)).toEqual(['Contact 1', 'Ana Lima']);
    expect(names(search)).toEqual(['Ana Lima']);
    expect(queryClient.getQueryData<ContactListResponse>(page1)?.contacts[1]?.blocked).toBe(true);
    expect(queryClient.getQueryData(page2)).toBe(before);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('removes a deleted contact from the pages (one less in their count) and from duplicate groups', () => {
    const { queryClient, invalidate, emit, names } = setup();
    queryClient.setQueryData<ContactDuplicatesResponse>(queryKeys.contactDuplicates, {
      groups: [{ key: '551190000002', contacts: [contactFixture(2), contactFixture(9)] }],
    });
    emit('7:contactList', { type: 'contact:delete', payload: { id: 2 } });
    expect(names(page1)).toEqual(['Contact 1']);
    expect(queryClient.getQueryData<ContactListResponse>(page1)?.count).toBe(41);
    expect(names(search)).toEqual([]);
    expect(queryClient.getQueryData<ContactListResponse>(page2)?.count).toBe(42);
    expect(queryClient.getQueryData<ContactDuplicatesResponse>(queryKeys.contactDuplicates)?.groups).toEqual([]);
    // The same delete again (the own mutation already removed it) changes nothing.
    emit('7:contactList', { type: 'contact:delete', payload: { id: 2 } });
    expect(queryClient.getQueryData<ContactListResponse>(page1)?.count).toBe(41);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('refreshes the lists once for a burst of new contacts no loaded page shows', () => {
    vi.useFakeTimers();
    const { invalidate, emit } = setup();
    for (let id = 100; id < 150; id += 1) {
      emit('7:contactList', { type: 'contact:create', payload: contactFixture(id) });
    }
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.contactsLists });
  });

  it('records import progress per import id; the end refreshes the lists once', () => {
    const { queryClient, invalidate, emit } = setup();
    const event = (action: ContactImportProgress['action'], processed: number): ContactImportProgress => ({
      action,
      importId: 'imp-1',
      total: 10,
      processed,
      created: processed,
      updated: 0,
      failed: 0,
    });
    emit('7:contactImport', event('progress', 4));
    emit('7:contactImport', event('progress', 2));
    const progress = () => queryClient.getQueryData<ContactImportProgress>(queryKeys.contactImport('imp-1'));
    expect(progress()?.processed).toBe(4);
    expect(invalidate).not.toHaveBeenCalled();
    emit('7:contactImport', event('done', 10));
    emit('7:contactImport', event('progress', 9));
    expect(progress()).toMatchObject({ action: 'done', processed: 10 });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.contactsLists });
    expect(invalidate).toHaveBeenCalledTimes(2);
  });
});
