import { notifications, notificationsStore } from '@mantine/notifications';
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

describe('realtime sync on connection', () => {
  it('reads the live data again on every connection, since events before it were never received', () => {
    const queryClient = new QueryClient();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { socket, emit, handlers } = fakeSocket();
    const own = vi.fn();
    socket.on('connect', own);
    const stop = startRealtimeSync(socket, queryClient, 3);
    emit('connect');
    const keys = invalidate.mock.calls.map(([filters]) => filters?.queryKey);
    expect(keys).toEqual(
      expect.arrayContaining([
        queryKeys.ticketsAll,
        queryKeys.messagesAll,
        queryKeys.contactsLists,
        queryKeys.channels,
        queryKeys.onlineTeam,
      ]),
    );
    invalidate.mockClear();
    emit('connect');
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.ticketsAll });
    stop();
    // Stopping removes only its own listener: the socket's own connect handler stays.
    expect([...(handlers.get('connect') ?? [])]).toEqual([own]);
  });
});

describe('realtime toasts of QR sessions', () => {
  const shown = () =>
    notificationsStore.getState().notifications.map(({ id, message, loading, color }) => ({
      id,
      message,
      loading: loading ?? false,
      color,
    }));
  afterEach(() => notifications.clean());

  it('shows one syncing toast per session, updated in place, then "connected" in the same toast', () => {
    const { socket, emit } = fakeSocket();
    const stop = startRealtimeSync(socket, new QueryClient(), 3);
    const session = { id: 8, name: 'Zap', number: null };
    emit('3:whatsappSession', { action: 'loadingscreen', session, percent: 10 });
    emit('3:whatsappSession', { action: 'loadingscreen', session, percent: 55.4 });
    expect(shown()).toEqual([
      { id: 'session-sync-3-8', message: 'Sincronizando… 55%', loading: true, color: undefined },
    ]);
    emit('3:whatsappSession', { action: 'readySession', session: { ...session, number: '5511912345678' } });
    expect(shown()).toEqual([
      { id: 'session-sync-3-8', message: 'Zap conectado (5511912345678).', loading: false, color: 'teal' },
    ]);
    // Malformed payloads are ignored.
    emit('3:whatsappSession', { action: 'loadingscreen', session: {}, percent: 'x' });
    expect(shown()).toHaveLength(1);
    stop();
  });

  it('warns about a phone battery below 20 % only', () => {
    const { socket, emit } = fakeSocket();
    const stop = startRealtimeSync(socket, new QueryClient(), 3);
    emit('3:change_battery', { batteryInfo: { sessionName: 'Zap', battery: 20 } });
    expect(shown()).toEqual([]);
    emit('3:change_battery', { batteryInfo: { sessionName: 'Zap', battery: '19' } });
    expect(shown()).toEqual([
      { id: 'battery-3-Zap', message: 'Bateria fraca no celular de Zap: 19%.', loading: false, color: 'yellow' },
    ]);
    stop();
  });

  it('shows the history import in one toast; -1/-1 finishes it', () => {
    const { socket, emit, handlers } = fakeSocket();
    const stop = startRealtimeSync(socket, new QueryClient(), 3);
    emit('3:importMessages', { action: 'update', status: { this: 3, all: 10, date: '2025-03-01' } });
    emit('3:importMessages', { action: 'update', status: { this: 7, all: 10, date: '2025-03-02' } });
    expect(shown()).toEqual([
      { id: 'import-messages-3', message: '7 de 10 mensagens importadas', loading: true, color: 'blue' },
    ]);
    emit('3:importMessages', { action: 'update', status: { this: -1, all: -1 } });
    expect(shown()).toEqual([
      { id: 'import-messages-3', message: 'Importação concluída.', loading: false, color: 'teal' },
    ]);
    stop();
    expect(handlers.has('3:importMessages')).toBe(false);
    expect(handlers.has('3:change_battery')).toBe(false);
    expect(handlers.has('3:whatsappSession')).toBe(false);
  });
});
