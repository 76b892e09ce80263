/** The ticket panel: groups with counts, selection, a mass close in batches of 10 with per-ticket results, cancel. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { tenantFixture } from '../../../test/tenants';
import { ticketDtoFixture } from '../../../test/tickets';
import { TicketPanelPage } from './TicketPanelPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
const puts = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT')
    .map(([input, init]) => ({
      path: new URL(String(input), 'http://localhost').pathname,
      body: JSON.parse(String(init?.body)) as unknown,
    }));

const tickets = [
  ...Array.from({ length: 12 }, (_, i) =>
    ticketDtoFixture(100 + i, {
      queueId: 1,
      queue: 'Vendas',
      status: i % 2 ? 'pending' : 'open',
      unreadMessages: i === 1 ? 7 : 0,
    }),
  ),
  ticketDtoFixture(200, { queueId: 2, queue: 'Suporte', status: 'open', unreadMessages: 150 }),
];

function serve(options: { failId?: number; gate?: Promise<void>; tenantZone?: string } = {}) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname.endsWith('/tenants/undefined')) {
      return jsonResponse(options.tenantZone ? [tenantFixture({ timezone: options.tenantZone })] : []);
    }
    if (url.pathname.endsWith('/dash-tickets-queues')) return jsonResponse(tickets);
    if (url.pathname.endsWith('/queue/')) return jsonResponse([{ id: 1, queue: 'Vendas', isActive: true }]);
    if (init?.method === 'PUT') {
      await options.gate;
      if (url.pathname.endsWith(`/tickets/${options.failId}`)) {
        return jsonResponse({ error: 'ERR_REASON_REQUIRED' }, 400);
      }
      return jsonResponse({});
    }
    return jsonResponse([]);
  });
}

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('ticket panel', { timeout: 20_000 }, () => {
  it('groups the period’s tickets by queue with their counts and asks for the period in the tenant zone', async () => {
    serve();
    renderWithProviders(<TicketPanelPage />);
    const groups = await screen.findAllByTestId('panel-group');
    expect(groups).toHaveLength(2);
    expect(within(groups[1]!).getByRole('heading', { name: 'Vendas' })).toBeInTheDocument();
    expect(within(groups[1]!).getByText(/Aberto: 6/)).toBeInTheDocument();
    expect(within(groups[1]!).getByText(/Pendente: 6/)).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([input]) => String(input).includes('/dash-tickets-queues'))!;
    const url = new URL(String(call[0]), 'http://localhost');
    expect(url.searchParams.get('dateStart')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(url.searchParams.get('status')).toBe('open,pending');
  });

  it('opens on today in the tenant’s zone, the one the server reads the period in, not the browser’s', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    // 12:00 UTC on 27 November is already 02:00 on the 28th at UTC+14.
    vi.setSystemTime(new Date(Date.UTC(2026, 10, 27, 12, 0)));
    serve({ tenantZone: 'Pacific/Kiritimati' });
    renderWithProviders(<TicketPanelPage />);
    await screen.findAllByTestId('panel-group');
    const asked = fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://localhost'))
      .filter((url) => url.pathname.endsWith('/dash-tickets-queues'));
    expect(asked.map((url) => [url.searchParams.get('dateStart'), url.searchParams.get('dateEnd')])).toEqual([
      ['2026-11-28', '2026-11-28'],
    ]);
    expect((screen.getByTestId('panel-date-start') as HTMLInputElement).value).toBe('28/11/2026');
  });

  it('shows the period as dd/MM/yyyy (product-spec §5) and sends a typed day as yyyy-MM-dd', async () => {
    serve();
    renderWithProviders(<TicketPanelPage />);
    await screen.findAllByTestId('panel-group');
    const start = screen.getByTestId('panel-date-start') as HTMLInputElement;
    expect(start.value).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    fireEvent.change(start, { target: { value: '01/02/2026' } });
    fireEvent.blur(start);
    await waitFor(() => {
      const asked = fetchMock.mock.calls
        .map(([input]) => new URL(String(input), 'http://localhost'))
        .filter((url) => url.pathname.endsWith('/dash-tickets-queues'));
      expect(asked.at(-1)!.searchParams.get('dateStart')).toBe('2026-02-01');
    });
  });

  it('closes the selected tickets in batches of 10 and lists each ticket’s result, failures with their text', async () => {
    serve({ failId: 105 });
    renderWithProviders(<TicketPanelPage />);
    const groups = await screen.findAllByTestId('panel-group');
    fireEvent.click(within(groups[1]!).getByTestId('panel-group-select'));
    expect(screen.getByTestId('panel-selected')).toHaveTextContent('Selecionados: 12 de 13');
    fireEvent.click(screen.getByTestId('panel-action-close'));
    fireEvent.click(await screen.findByTestId('panel-confirm-close'));
    await waitFor(() => expect(screen.getByTestId('panel-run-progress')).toHaveTextContent('12 de 12'));
    expect(puts()).toHaveLength(12);
    expect(puts()[0]).toEqual({ path: '/api/tickets/100', body: { status: 'closed' } });
    expect(within(screen.getByTestId('panel-result-105')).getByText(/motivo|reason/i)).toBeInTheDocument();
    expect(within(screen.getByTestId('panel-result-104')).getByText('Concluído')).toBeInTheDocument();
    // The failed ticket stays selected for another try.
    fireEvent.click(screen.getByTestId('panel-run-close'));
    await waitFor(() => expect(screen.getByTestId('panel-selected')).toHaveTextContent('Selecionados: 1 de 13'));
  });

  it('cancels between batches: the first 10 finish, the rest are not sent', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    serve({ gate });
    renderWithProviders(<TicketPanelPage />);
    const groups = await screen.findAllByTestId('panel-group');
    fireEvent.click(within(groups[1]!).getByTestId('panel-group-select'));
    fireEvent.click(screen.getByTestId('panel-action-read'));
    fireEvent.click(await screen.findByTestId('panel-run-cancel'));
    release();
    await waitFor(() =>
      expect(screen.getByTestId('panel-run-progress')).toHaveTextContent('10 de 12 tickets processados · cancelado'),
    );
    expect(puts()).toHaveLength(10);
    expect(puts()[0]!.body).toEqual({ unreadMessages: 0 });
  });

  it('shows an unread count past 99 as 99+, naming the exact count', async () => {
    serve();
    renderWithProviders(<TicketPanelPage />);
    const many = await screen.findByTestId('panel-unread-200');
    expect(many).toHaveTextContent(/^99\+$/);
    expect(many).toHaveAccessibleName('150 mensagens não lidas');
    expect(screen.getByTestId('panel-unread-101')).toHaveTextContent(/^7$/);
    expect(screen.queryByTestId('panel-unread-100')).not.toBeInTheDocument();
  });
});
