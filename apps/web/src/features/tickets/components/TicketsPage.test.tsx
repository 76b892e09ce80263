import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoginResponse, Profile, TicketListItem } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { contactFixture } from '../../../test/contacts';
import { jsonResponse, renderRoutes } from '../../../test/render';
import { channelFixture, ticketDtoFixture, ticketFixture, ticketPage } from '../../../test/tickets';
import { TicketsPage } from './TicketsPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response> | undefined;

/** The tab badges' count requests (`isGroup` set) are answered by counting the rows the list answer holds. */
function serve(handler: Handler) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const response = (await handler(url, init)) ?? jsonResponse({ error: 'ERR_NOT_FOUND' }, 404);
    if (!isCountRequest(url) || !response.ok) return response;
    const { tickets } = (await response.json()) as { tickets: TicketListItem[] };
    const isGroup = url.searchParams.get('isGroup') === 'true';
    const status = url.searchParams.get('status');
    const count = tickets.filter((t) => t.isGroup === isGroup && t.status === status).length;
    return jsonResponse(ticketPage([], false, count));
  });
}

const isCountRequest = (url: URL) => url.pathname === '/api/tickets' && url.searchParams.has('isGroup');

function logIn(profile: Profile, filtrosAtendimento?: Record<string, unknown>) {
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', profile);
  localStorage.setItem('userId', '5');
  localStorage.setItem('tenantId', '1');
  const login = {
    token: 'jwt',
    username: 'Ana',
    profile,
    userId: 5,
    tenantId: 1,
    configs: { isDark: true, filtrosAtendimento },
  };
  localStorage.setItem('usuario', JSON.stringify(login as Partial<LoginResponse>));
}

/** The calls of one method and path, the tab badges' count requests left out. */
const calls = (method: string, path: string) =>
  fetchMock.mock.calls.filter(([input, init]) => {
    const url = new URL(String(input), 'http://localhost');
    return (init?.method ?? 'GET') === method && url.pathname === path && !isCountRequest(url);
  });
const queryOf = (call: Parameters<typeof fetch> | undefined) =>
  Object.fromEntries(new URL(String(call?.[0]), 'http://localhost').searchParams);

const routes = [{ path: '/atendimento', element: <TicketsPage />, children: [{ path: ':ticketId' }] }];

const rows: TicketListItem[] = [
  ticketFixture(1, { status: 'open', unreadMessages: 2 }),
  ticketFixture(2, { status: 'pending', userId: null, username: null, name: 'Bruno Lima' }),
  ticketFixture(3, { status: 'pending', userId: null, username: null }),
  ticketFixture(4, { status: 'open', isGroup: true, unreadMessages: 1, name: 'Grupo Vendas' }),
];

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

// The first render loads the page's modules and now also reads the tenant's showChatBot flag: generous when busy.
describe('tickets page', { timeout: 30_000 }, () => {
  it('partitions one list into tabs with counts and unread badges', async () => {
    logIn('user');
    serve((url) => (url.pathname === '/api/tickets' ? jsonResponse(ticketPage(rows)) : undefined));
    renderRoutes(routes, '/atendimento');
    expect(await screen.findByTestId('ticket-row-1')).toBeInTheDocument();
    expect(screen.getByTestId('tickets-empty-chat')).toHaveTextContent('Selecione um ticket');
    expect(queryOf(calls('GET', '/api/tickets')[0])).toEqual({
      searchParam: '',
      pageNumber: '1',
      status: 'open,pending',
      showAll: 'false',
      withUnreadMessages: 'false',
      isNotAssignedUser: 'false',
      includeNotQueueDefined: 'true',
    });
    expect(screen.getByTestId('tickets-count-open')).toHaveTextContent('1');
    expect(screen.getByTestId('tickets-count-pending')).toHaveTextContent('2');
    expect(screen.getByTestId('tickets-count-closed')).toHaveTextContent('0');
    expect(within(screen.getByTestId('tickets-tab-private')).getByText('1')).toBeInTheDocument();
    expect(within(screen.getByTestId('tickets-tab-groups')).getByText('1')).toBeInTheDocument();
    expect(document.title).toBe('(2) Atendimento · Conversa');
    expect(screen.queryByTestId('ticket-row-4')).not.toBeInTheDocument();

    fireEvent.click(screen.getByTestId('tickets-subtab-pending'));
    expect(await screen.findByTestId('ticket-row-2')).toBeInTheDocument();
    expect(screen.getByTestId('ticket-row-3')).toBeInTheDocument();
    expect(screen.queryByTestId('ticket-row-1')).not.toBeInTheDocument();

    fireEvent.click(screen.getByTestId('tickets-tab-groups'));
    fireEvent.click(screen.getByTestId('tickets-subtab-open'));
    expect(await screen.findByTestId('ticket-row-4')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('tickets-subtab-closed'));
    expect(screen.getByText(/Os tickets resolvidos não estão no filtro/)).toBeInTheDocument();
  });

  it('loads the next page from the load-more button', async () => {
    logIn('user');
    serve((url) => {
      if (url.pathname !== '/api/tickets') return undefined;
      return url.searchParams.get('pageNumber') === '1'
        ? jsonResponse(ticketPage([ticketFixture(1)], true, 2))
        : jsonResponse(ticketPage([ticketFixture(2)], false, 2));
    });
    renderRoutes(routes, '/atendimento');
    await screen.findByTestId('ticket-row-1');
    fireEvent.click(screen.getByTestId('tickets-load-more'));
    expect(await screen.findByTestId('ticket-row-2')).toBeInTheDocument();
    expect(calls('GET', '/api/tickets').map((c) => queryOf(c).pageNumber)).toEqual(['1', '2']);
    expect(screen.queryByTestId('tickets-load-more')).not.toBeInTheDocument();
  });

  it('loads the next page by itself when the end of the list is visible', async () => {
    logIn('user');
    let observed: IntersectionObserverCallback | undefined;
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(callback: IntersectionObserverCallback) {
          observed = callback;
        }
        observe() {}
        disconnect() {}
      },
    );
    serve((url) => {
      if (url.pathname !== '/api/tickets') return undefined;
      const page = Number(url.searchParams.get('pageNumber'));
      return jsonResponse(ticketPage([ticketFixture(page)], page < 2, 2));
    });
    renderRoutes(routes, '/atendimento');
    await screen.findByTestId('ticket-row-1');
    expect(calls('GET', '/api/tickets')).toHaveLength(1);
    observed?.([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver);
    expect(await screen.findByTestId('ticket-row-2')).toBeInTheDocument();
  });

  it('restores the stored filter and saves a new one with PUT /users/{id}/configs', async () => {
    logIn('admin', { status: ['closed', 'open'], queuesIds: [3], includeNotQueueDefined: false });
    serve((url, init) => {
      if (url.pathname === '/api/tickets') return jsonResponse(ticketPage(rows));
      if (url.pathname === '/api/users/5/configs' && init?.method === 'PUT') return jsonResponse({});
      if (url.pathname === '/api/queue/') return jsonResponse([{ id: 3, queue: 'Vendas', isActive: true }]);
      if (url.pathname === '/api/whatsapp/' || url.pathname === '/api/tags/') return jsonResponse([]);
      if (url.pathname === '/api/kanban/') return jsonResponse({ kanban: [] });
      if (url.pathname === '/api/users/') return jsonResponse({ users: [], count: 0, hasMore: false });
      return undefined;
    });
    renderRoutes(routes, '/atendimento');
    await screen.findByTestId('ticket-row-1');
    expect(queryOf(calls('GET', '/api/tickets')[0])).toMatchObject({
      status: 'open,closed',
      queuesIds: '3',
      includeNotQueueDefined: 'false',
    });
    fireEvent.click(screen.getByTestId('tickets-filter-open'));
    fireEvent.click(await screen.findByTestId('tickets-filter-unread'));
    fireEvent.click(screen.getByTestId('tickets-filter-apply'));
    await waitFor(() => expect(calls('PUT', '/api/users/5/configs')).toHaveLength(1));
    const body = JSON.parse(String(calls('PUT', '/api/users/5/configs')[0]?.[1]?.body)) as {
      isDark: boolean;
      filtrosAtendimento: Record<string, unknown>;
    };
    expect(body.isDark).toBe(true);
    expect(body.filtrosAtendimento).toMatchObject({
      status: ['open', 'closed'],
      queuesIds: [3],
      withUnreadMessages: true,
      includeNotQueueDefined: false,
    });
    await waitFor(() =>
      expect(calls('GET', '/api/tickets').some((c) => queryOf(c).withUnreadMessages === 'true')).toBe(true),
    );
    const stored = JSON.parse(localStorage.getItem('usuario') ?? '{}') as LoginResponse;
    expect(stored.configs.filtrosAtendimento).toMatchObject({ withUnreadMessages: true });
  });

  it('accepts a pending ticket with PUT /tickets/{id} and opens it', async () => {
    logIn('user');
    serve((url, init) => {
      if (url.pathname === '/api/tickets') return jsonResponse(ticketPage(rows));
      if (url.pathname === '/api/tickets/2' && init?.method === 'PUT')
        return jsonResponse(ticketDtoFixture(2, { status: 'open', userId: 5, name: 'Bruno Lima' }));
      if (url.pathname === '/api/tickets/2') return jsonResponse(ticketDtoFixture(2, { name: 'Bruno Lima' }));
      return undefined;
    });
    const { router } = renderRoutes(routes, '/atendimento');
    await screen.findByTestId('ticket-row-1');
    fireEvent.click(screen.getByTestId('tickets-subtab-pending'));
    fireEvent.click(await screen.findByTestId('ticket-accept-2'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/atendimento/2'));
    expect(JSON.parse(String(calls('PUT', '/api/tickets/2')[0]?.[1]?.body))).toEqual({ status: 'open', userId: 5 });
    // The chat is a lazy chunk: its first load can take a while on a busy machine.
    expect(await screen.findByTestId('chat-contact-name', {}, { timeout: 10_000 })).toHaveTextContent('Bruno Lima');
    // Now open: it left the pending partition for the open one, without reading the list again.
    expect(screen.getByTestId('tickets-count-pending')).toHaveTextContent('1');
    expect(calls('GET', '/api/tickets')).toHaveLength(1);
    // The tabs follow the accepted ticket to "open", so its row stays in sight, selected.
    await waitFor(() => expect(screen.getByTestId('tickets-subtab-open')).toHaveAttribute('aria-selected', 'true'));
    expect(screen.getByTestId('ticket-row-2')).toHaveAttribute('aria-current', 'true');
  });

  it('offers the open ticket when POST /tickets answers 409', { timeout: 15_000 }, async () => {
    logIn('user');
    const maria = contactFixture(31, { name: 'Maria Souza', number: '5511912345678', telegramId: '4471002' });
    serve((url, init) => {
      if (url.pathname === '/api/tickets' && init?.method === 'POST')
        return jsonResponse({ error: 'ERR_OTHER_OPEN_TICKET', ticket: { id: 3 } }, 409);
      if (url.pathname === '/api/tickets') return jsonResponse(ticketPage(rows));
      if (url.pathname === '/api/tickets/3') return jsonResponse(ticketDtoFixture(3));
      if (url.pathname === '/api/contacts/')
        return jsonResponse({ contacts: [maria], count: 1, countCapped: false, hasMore: false });
      if (url.pathname === '/api/whatsapp/') return jsonResponse([channelFixture(7, { name: 'Bot' })]);
      return undefined;
    });
    const { router } = renderRoutes(routes, '/atendimento');
    await screen.findByTestId('ticket-row-1');
    fireEvent.click(screen.getByTestId('tickets-new'));
    const contact = await screen.findByTestId('new-ticket-contact');
    // Mantine takes a change of an unfocused input for autofill: focus it as a user typing would.
    contact.focus();
    fireEvent.change(contact, { target: { value: 'M' } });
    fireEvent.change(contact, { target: { value: 'Ma' } });
    fireEvent.click(await screen.findByRole('option', { name: /Maria Souza/, hidden: true }, { timeout: 3000 }));
    // Searched from 2 letters only.
    expect(calls('GET', '/api/contacts/').map((c) => queryOf(c).searchParam)).toEqual(['Ma']);
    // The only connection is chosen by itself.
    await waitFor(() => expect(screen.getByTestId('new-ticket-submit')).toBeEnabled());
    fireEvent.click(screen.getByTestId('new-ticket-submit'));
    expect(await screen.findByTestId('new-ticket-error')).toHaveTextContent(
      'Já existe um ticket aberto/pendente para esse contato.',
    );
    expect(JSON.parse(String(calls('POST', '/api/tickets')[0]?.[1]?.body))).toEqual({
      contactId: 31,
      channelId: 7,
      channel: 'telegram',
      status: 'open',
      userId: 5,
      isActiveDemand: true,
    });
    fireEvent.click(screen.getByTestId('new-ticket-open-existing'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/atendimento/3'));
    expect(screen.queryByTestId('new-ticket-submit')).not.toBeInTheDocument();
  });
});
