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
// The first render loads the page's modules: generous on a busy machine.
const SLOW = { timeout: 10_000 };
const routes = [{ path: '/atendimento', element: <TicketsPage />, children: [{ path: ':ticketId' }] }];
/** A first page of 40 open private tickets; more behind it. */
const loaded = Array.from({ length: 40 }, (_, i) => ticketFixture(i + 1, { status: 'open' }));

/** The list answers its page; the badges' count requests (status + isGroup) answer `count(status, isGroup)`. */
function serve(count: (status: string, isGroup: boolean) => { count: number; countCapped: boolean }) {
  fetchMock.mockImplementation(async (input) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname !== '/api/tickets') return jsonResponse({ error: 'ERR_NOT_FOUND' }, 404);
    if (!url.searchParams.has('isGroup')) return jsonResponse(ticketPage(loaded, true, 1000));
    const total = count(url.searchParams.get('status') ?? '', url.searchParams.get('isGroup') === 'true');
    return jsonResponse({ ...ticketPage([], total.count > 40, total.count), countCapped: total.countCapped });
  });
}

const countRequests = () =>
  fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost').searchParams)
    .filter((params) => params.has('isGroup'))
    .map((params) => `${params.get('status')}:${params.get('isGroup')}:${params.get('pageNumber')}`);

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', 'admin');
  localStorage.setItem('userId', '5');
});
afterEach(() => vi.unstubAllGlobals());

describe('tickets page tab totals', { timeout: 30_000 }, () => {
  it('shows the server total, not the loaded rows: a capped count as 1000+, else the number', async () => {
    serve((status) => (status === 'open' ? { count: 1000, countCapped: true } : { count: 57, countCapped: false }));
    renderRoutes(routes, '/atendimento');
    await screen.findByTestId('ticket-row-1', {}, SLOW);
    await waitFor(() => expect(screen.getByTestId('tickets-count-open')).toHaveTextContent('1000+'), SLOW);
    expect(screen.getByTestId('tickets-count-pending')).toHaveTextContent('57');
    // One count per status of the filter, for the top tab shown, on page 1, and "resolved" although the filter
    // leaves it out (its rows load only with "Incluir resolvidos").
    expect(countRequests().sort()).toEqual(['closed:false:1', 'open:false:1', 'pending:false:1']);
  });

  it('shows the resolved total while "Incluir resolvidos" is off, and loads no resolved rows', async () => {
    serve((status) => ({ count: status === 'closed' ? 23 : 5, countCapped: false }));
    renderRoutes(routes, '/atendimento');
    await screen.findByTestId('ticket-row-1', {}, SLOW);
    await waitFor(() => expect(screen.getByTestId('tickets-count-closed')).toHaveTextContent(/^23$/), SLOW);
    expect(screen.getByTestId('tickets-count-open')).toHaveTextContent(/^5$/);
    const listStatuses = fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost').searchParams)
      .filter((params) => !params.has('isGroup'))
      .map((params) => params.get('status'));
    expect(listStatuses.length).toBeGreaterThan(0);
    expect(listStatuses.join(' ')).not.toMatch(/closed/);
  });

  it('shows an uncapped total of 57 with 40 rows loaded', async () => {
    serve(() => ({ count: 57, countCapped: false }));
    renderRoutes(routes, '/atendimento');
    await screen.findByTestId('ticket-row-1', {}, SLOW);
    await waitFor(() => expect(screen.getByTestId('tickets-count-open')).toHaveTextContent(/^57$/), SLOW);
  });

  it('shows more than the cap as 1000+ even if a count comes back uncapped', async () => {
    serve(() => ({ count: 1500, countCapped: false }));
    renderRoutes(routes, '/atendimento');
    await screen.findByTestId('ticket-row-1', {}, SLOW);
    await waitFor(() => expect(screen.getByTestId('tickets-count-open')).toHaveTextContent('1000+'), SLOW);
  });

  it('counts the groups tab apart when it is shown', async () => {
    serve((_status, isGroup) => ({ count: isGroup ? 3 : 57, countCapped: false }));
    renderRoutes(routes, '/atendimento');
    await screen.findByTestId('ticket-row-1', {}, SLOW);
    fireEvent.click(screen.getByTestId('tickets-tab-groups'));
    await waitFor(() => expect(screen.getByTestId('tickets-count-open')).toHaveTextContent(/^3$/), SLOW);
    expect(countRequests()).toContain('open:true:1');
  });
});
