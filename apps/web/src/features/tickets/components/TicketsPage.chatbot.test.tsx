/**
 * The "Chatbot" sub-tab (client-contract §4.2): with the tenant flag showChatBot, the private tab lists the pending
 * tickets the bot handles there and not under "pending" (tabs are partitions); groups never have it.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketListItem } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderRoutes } from '../../../test/render';
import { ticketFixture, ticketPage } from '../../../test/tickets';
import { TicketsPage } from './TicketsPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
const SLOW = { timeout: 10_000 };
const routes = [{ path: '/atendimento', element: <TicketsPage />, children: [{ path: ':ticketId' }] }];

const rows: TicketListItem[] = [
  ticketFixture(1, { status: 'open' }),
  ticketFixture(2, { status: 'pending', userId: null, username: null }),
  ticketFixture(3, {
    status: 'pending',
    userId: null,
    username: null,
    chatFlowId: 4,
    stepChatFlow: 'n1',
    name: 'Flow',
  }),
  ticketFixture(4, { status: 'pending', userId: null, username: null, autoReplyId: 2, stepAutoReplyId: 8 }),
  ticketFixture(5, { status: 'pending', userId: null, isGroup: true, chatFlowId: 4, stepChatFlow: 'n1' }),
];

/** The list answers `rows`; a badge's count request answers the server's count per status (bot tickets included). */
function serve(showChatBot: 'enabled' | 'disabled') {
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/tenants/undefined') return jsonResponse([{ id: 1, showChatBot }]);
    if (url.pathname !== '/api/tickets') return jsonResponse({ error: 'ERR_NOT_FOUND' }, 404);
    if (!url.searchParams.has('isGroup')) return jsonResponse(ticketPage(rows));
    const isGroup = url.searchParams.get('isGroup') === 'true';
    const status = url.searchParams.get('status');
    return jsonResponse(ticketPage([], false, rows.filter((t) => t.isGroup === isGroup && t.status === status).length));
  });
}

const rowIds = () =>
  screen.queryAllByTestId(/^ticket-row-\d+$/).map((row) => Number(row.getAttribute('data-testid')!.slice(11)));

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', 'admin');
  localStorage.setItem('userId', '5');
});
afterEach(() => vi.unstubAllGlobals());

describe('the Chatbot sub-tab', { timeout: 30_000 }, () => {
  it('with showChatBot, holds the bot tickets of the private tab, which leave pending and its count', async () => {
    serve('enabled');
    renderRoutes(routes, '/atendimento');
    fireEvent.click(await screen.findByTestId('tickets-subtab-chatbot', {}, SLOW));
    await waitFor(() => expect(rowIds()).toEqual([3, 4]), SLOW);
    expect(screen.getByTestId('tickets-subtab-chatbot')).toHaveTextContent('Chatbot');
    expect(screen.getByTestId('tickets-count-chatbot')).toHaveTextContent(/^2$/);
    // The server counts 3 pending private tickets; 2 of them are the bot's.
    await waitFor(() => expect(screen.getByTestId('tickets-count-pending')).toHaveTextContent(/^1$/), SLOW);
    fireEvent.click(screen.getByTestId('tickets-subtab-pending'));
    await waitFor(() => expect(rowIds()).toEqual([2]), SLOW);
    // Groups have no Chatbot tab: a group's bot ticket stays pending there.
    fireEvent.click(screen.getByTestId('tickets-tab-groups'));
    await waitFor(() => expect(rowIds()).toEqual([5]), SLOW);
    expect(screen.queryByTestId('tickets-subtab-chatbot')).toBeNull();
    expect(within(screen.getByTestId('tickets-subtab-pending')).getByTestId('tickets-count-pending')).toHaveTextContent(
      /^1$/,
    );
  });

  it('opens on the Chatbot tab when a bot ticket is the one selected', async () => {
    serve('enabled');
    renderRoutes(routes, '/atendimento/4');
    await waitFor(
      () => expect(screen.getByTestId('tickets-subtab-chatbot')).toHaveAttribute('aria-selected', 'true'),
      SLOW,
    );
    expect(rowIds()).toEqual([3, 4]);
  });

  it('without the flag, there is no Chatbot tab and the bot tickets are pending', async () => {
    serve('disabled');
    renderRoutes(routes, '/atendimento');
    fireEvent.click(await screen.findByTestId('tickets-subtab-pending', {}, SLOW));
    await waitFor(() => expect(rowIds()).toEqual([2, 3, 4]), SLOW);
    await waitFor(() => expect(screen.getByTestId('tickets-count-pending')).toHaveTextContent(/^3$/), SLOW);
    expect(screen.queryByTestId('tickets-subtab-chatbot')).toBeNull();
  });
});
