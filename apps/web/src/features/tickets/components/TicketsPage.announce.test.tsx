/** The polite live region announces tickets that arrive by themselves, never the rows a new filter or search brings. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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
const liveRegion = () => document.querySelector<HTMLElement>('[aria-live="polite"]')!;

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', 'admin');
  localStorage.setItem('userId', '5');
});
afterEach(() => vi.unstubAllGlobals());

describe('new-ticket announcements', { timeout: 30_000 }, () => {
  it('says nothing when a search brings other rows (the previous rows stand in while it loads)', async () => {
    let release: () => void = () => undefined;
    const searched = new Promise<void>((resolve) => (release = resolve));
    fetchMock.mockImplementation(async (input) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname !== '/api/tickets') return jsonResponse({ error: 'ERR_NOT_FOUND' }, 404);
      if (url.searchParams.has('isGroup')) return jsonResponse(ticketPage([], false, 0));
      if (!url.searchParams.get('searchParam')) return jsonResponse(ticketPage([ticketFixture(1), ticketFixture(2)]));
      await searched;
      return jsonResponse(ticketPage([ticketFixture(7, { name: 'Maria Achada' }), ticketFixture(8)]));
    });
    renderRoutes(routes, '/atendimento');
    await screen.findByTestId('ticket-row-1', {}, SLOW);
    fireEvent.change(screen.getByTestId('tickets-search'), { target: { value: 'maria' } });
    await waitFor(() => {
      const searches = fetchMock.mock.calls.filter(([input]) => String(input).includes('searchParam=maria'));
      expect(searches.length).toBeGreaterThan(0);
    }, SLOW);
    // The previous list is still on screen (kept while the search loads): the new key with the old rows.
    expect(screen.getByTestId('ticket-row-1')).toBeInTheDocument();
    release();
    await screen.findByTestId('ticket-row-7', {}, SLOW);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(liveRegion().textContent).toBe('');
  });
});
