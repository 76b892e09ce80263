/**
 * The session's feature handlers: the shell's live session (useLiveSession) registers the tickets feature's handlers
 * for the whole session, whatever screen is mounted, and its reconnection catch-up re-reads their data.
 */
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { historyOf, pageOf, messageFixture as chatMessage } from '../features/tickets/components/chat/chat-fixtures';
import { DEFAULT_FILTER, toListFilter } from '../features/tickets/hooks/attendance-filter';
import { alertTicketActivity } from '../features/tickets/hooks/ticket-alerts';
import { flattenHistory, type MessagesData } from '../features/tickets/hooks/messages-cache';
import { flattenPages, type TicketPages } from '../features/tickets/hooks/ticket-list-cache';
import { ticketsRealtimeHandlers } from '../features/tickets/api/realtime';
import { queryKeys } from '../lib/query-keys';
import { startRealtimeSync } from '../lib/realtime-sync';
import { connectSocket } from '../lib/socket';
import type { StoredSession } from '../lib/storage';
import { Providers } from '../test/render';
import type * as SocketModule from '../lib/socket';
import { fakeSocket } from '../test/socket';
import { messageFixture, ticketDtoFixture, ticketFixture, ticketPage } from '../test/tickets';
import { SESSION_REALTIME_HANDLERS, startLiveSync } from './realtime-handlers';
import { useLiveSession } from './shell/use-live-session';

vi.mock('../lib/socket', async (importOriginal) => ({
  ...(await importOriginal<typeof SocketModule>()),
  connectSocket: vi.fn(),
  disconnectSocket: vi.fn(),
}));
vi.mock('../features/tickets/hooks/ticket-alerts', () => ({ alertTicketActivity: vi.fn() }));

const session: StoredSession = { token: 'jwt', username: 'Ana', profile: 'user', userId: 5, tenantId: 3 };
const listKey = queryKeys.ticketsList(toListFilter(DEFAULT_FILTER, ''));
const countKey = queryKeys.ticketsCount(toListFilter(DEFAULT_FILTER, ''), false, 'open');

function LiveSession() {
  useLiveSession(session);
  return null;
}

function loadedTicketsData() {
  const queryClient = new QueryClient();
  queryClient.setQueryData<TicketPages>(listKey, {
    pages: [ticketPage([ticketFixture(1)], false, 1)],
    pageParams: [1],
  });
  queryClient.setQueryData(countKey, { count: 1, countCapped: false });
  queryClient.setQueryData(queryKeys.ticket(1), ticketDtoFixture(1));
  queryClient.setQueryData<MessagesData>(queryKeys.messages(1), historyOf(pageOf([chatMessage(1, { ticketId: 1 })])));
  return queryClient;
}

beforeEach(() => {
  vi.mocked(alertTicketActivity).mockClear();
  // The tenant check's read stays pending: only the socket matters here.
  vi.stubGlobal(
    'fetch',
    vi.fn(() => new Promise<Response>(() => undefined)),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the live session of the shell', () => {
  it('runs the tickets handlers from any screen: list row, history and alert follow a new message', () => {
    const queryClient = loadedTicketsData();
    const { socket, emit, handlers } = fakeSocket();
    vi.mocked(connectSocket).mockReturnValue(socket);
    const { unmount } = render(
      <Providers queryClient={queryClient}>
        <MemoryRouter initialEntries={['/contatos']}>
          <LiveSession />
        </MemoryRouter>
      </Providers>,
    );
    expect(connectSocket).toHaveBeenCalledWith(3);
    emit('3:ticketList', { type: 'chat:create', payload: messageFixture(9, { id: 1, unreadMessages: 1 }) });
    expect(flattenPages(queryClient.getQueryData<TicketPages>(listKey))[0]?.lastMessage).toBe('Olá 9');
    const history = flattenHistory(queryClient.getQueryData<MessagesData>(queryKeys.messages(1))).items;
    expect(history.map((m) => m.id).sort()).toEqual([1, 9]);
    expect(alertTicketActivity).toHaveBeenCalledWith({ ticketId: 1, title: expect.any(String), body: 'Olá 9' });
    unmount();
    expect(handlers.size).toBe(0);
    // Ended with the session: a later sync alone no longer starts them.
    const next = fakeSocket();
    const stopNext = startRealtimeSync(next.socket, new QueryClient(), 3);
    expect(next.handlers.has('3:ticketList')).toBe(false);
    stopNext();
  });
});

describe('startLiveSync', () => {
  it('registers every handler of the tickets feature, in its order', () => {
    expect(SESSION_REALTIME_HANDLERS.filter((handler) => ticketsRealtimeHandlers.includes(handler))).toEqual(
      ticketsRealtimeHandlers,
    );
  });

  it('re-reads the ticket lists, totals, details and chat histories on every connection', () => {
    const queryClient = loadedTicketsData();
    const { socket, emit } = fakeSocket();
    const stop = startLiveSync(socket, queryClient, 3);
    const stale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated ?? false;
    const keys = [listKey, countKey, queryKeys.ticket(1), queryKeys.messages(1)];
    expect(keys.map(stale)).toEqual([false, false, false, false]);
    emit('connect');
    expect(keys.map(stale)).toEqual([true, true, true, true]);
    stop();
  });
});
