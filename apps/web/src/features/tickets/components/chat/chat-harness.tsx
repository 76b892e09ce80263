/** The chat tests' set-up: the API faked by routes, the logged-in user in localStorage, and the ChatPanel rendered. */
import { VirtuosoMockContext } from 'react-virtuoso';
import { vi } from 'vitest';
import type { MessageDto, TicketDto } from '@conversa/shared';
import { resetApiState } from '../../../../lib/api';
import { jsonResponse, renderWithProviders } from '../../../../test/render';
import { pageOf } from './chat-fixtures';
import { ChatPanel } from './ChatPanel';

/** The answer to one request, by the request's init. */
export type Route = (init: RequestInit) => Response | Promise<Response>;
export type Routes = Record<string, Route>;
type KeyOf = (url: unknown, init?: RequestInit) => string;

/** A request as `METHOD /path`, the /api prefix and the query dropped: `GET /messages/10`. */
export const requestKey: KeyOf = (url, init) =>
  `${init?.method ?? 'GET'} ${String(url)
    .replace(/^\/api/, '')
    .replace(/\?.*$/, '')}`;

/**
 * A fetch stub answering each request from `routes` by its key (`requestKey` unless told), 404 ERR_NOT_MOCKED where
 * no route is set. `routes` is one object for the whole file: a test sets its own before `renderChatPanel`.
 */
export function fakeApi(keyOf: KeyOf = requestKey) {
  const fetchMock = vi.fn<typeof fetch>();
  const routes: Routes = {};

  /** For beforeEach: a fresh API client state, only the `initial` routes, and fetch stubbed by them. */
  const reset = (initial: Routes = {}) => {
    resetApiState();
    for (const key of Object.keys(routes)) delete routes[key];
    Object.assign(routes, initial);
    fetchMock.mockReset();
    fetchMock.mockImplementation(async (url, init) => {
      const route = routes[keyOf(url, init)];
      return route ? route(init ?? {}) : jsonResponse({ error: 'ERR_NOT_MOCKED' }, 404);
    });
    vi.stubGlobal('fetch', fetchMock);
  };

  /**
   * Renders the ChatPanel of `ticket` in Virtuoso's mock viewport, GET /tickets/:id answering `ticket` and
   * GET /messages/:id one page of `messages`, with `extraRoutes`; the routes the test set before win over both.
   */
  const renderChatPanel = (ticket: TicketDto, messages: MessageDto[], extraRoutes: Routes = {}) => {
    const preset = { ...routes };
    Object.assign(routes, {
      [`GET /tickets/${ticket.id}`]: () => jsonResponse(ticket),
      [`GET /messages/${ticket.id}`]: () => jsonResponse(pageOf(messages)),
      ...extraRoutes,
      ...preset,
    });
    renderWithProviders(
      <VirtuosoMockContext.Provider value={{ viewportHeight: 3000, itemHeight: 60 }}>
        <ChatPanel ticketId={ticket.id} />
      </VirtuosoMockContext.Provider>,
    );
  };

  return { fetchMock, routes, reset, renderChatPanel };
}

/** Logs the app in as it reads a session from localStorage: token `jwt`, the profile, the user's id and name. */
export function logInAs(profile: string, userId: number, name?: string) {
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', profile);
  localStorage.setItem('userId', String(userId));
  if (name !== undefined) localStorage.setItem('username', name);
}
