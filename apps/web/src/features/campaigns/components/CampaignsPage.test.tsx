/**
 * /campanhas: the list with its counts and progress in the company's clock, the start confirmation with the spam
 * warning (product-spec §9), cancel and edit by status, and the live refresh from `{T}:campaign`.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { startRegisteredHandlers } from '../../../lib/realtime-registry';
import { channelFixture } from '../../../test/channels';
import { createTestQueryClient, jsonResponse, renderRoutes } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { tenantFixture } from '../../../test/tenants';
import { campaignFixture } from '../campaigns.fixtures';
import { CampaignsPage } from './CampaignsPage';

const fetchMock = vi.fn<typeof fetch>();
const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);

const RUNNING = campaignFixture(5, {
  name: 'Black Friday',
  status: 'processing',
  start: '2026-11-27T12:00:00.000Z',
  contactsCount: 10,
  pendentesEnvio: 4,
  pendentesEntrega: 1,
  recebidas: 3,
  lidas: 2,
  failed: 1,
  skipped: 1,
});
const DRAFT = campaignFixture(6, { name: 'Natal', contactsCount: 2, pendentesEnvio: 2 });

function serve(list = [RUNNING, DRAFT]) {
  fetchMock.mockImplementation(async (url, init) => {
    const path = String(url);
    const method = init?.method ?? 'GET';
    if (path === '/api/tenants/undefined') return jsonResponse([tenantFixture({ timezone: 'America/Sao_Paulo' })]);
    if (path === '/api/whatsapp/') return jsonResponse([channelFixture(3, { name: 'Vendas' })]);
    if (path === '/api/campaigns' && method === 'GET') return jsonResponse(list);
    if (path === '/api/campaigns/start/6') return jsonResponse({ ...DRAFT, status: 'scheduled' });
    if (path === '/api/campaigns/cancel/5') return jsonResponse({ ...RUNNING, status: 'canceled' });
    return jsonResponse({ error: 'unexpected' }, 500);
  });
}

const render = () => renderRoutes([{ path: '/campanhas', element: <CampaignsPage /> }], '/campanhas');

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', 'super');
});
afterEach(() => vi.unstubAllGlobals());

describe('campaigns page', { timeout: 30_000 }, () => {
  it('lists each campaign with its start on the company clock, channel, status, counts and progress', async () => {
    serve();
    render();
    const row = await screen.findByTestId('campaign-row-5');
    expect(within(row).getByText('Black Friday')).toBeInTheDocument();
    await waitFor(() => expect(within(row).getByText('Vendas')).toBeInTheDocument());
    // 12:00 UTC is 09:00 in São Paulo.
    await waitFor(() => expect(screen.getByTestId('campaign-when-5')).toHaveTextContent('27/11/2026 09:00'));
    expect(screen.getByTestId('campaign-status-5')).toHaveTextContent('Enviando');
    expect(screen.getByTestId('campaign-recipients-5')).toHaveTextContent('10');
    expect(screen.getByTestId('campaign-pending-send-5')).toHaveTextContent('4');
    expect(screen.getByTestId('campaign-pending-delivery-5')).toHaveTextContent('1');
    expect(screen.getByTestId('campaign-received-5')).toHaveTextContent('3');
    expect(screen.getByTestId('campaign-read-5')).toHaveTextContent('2');
    expect(screen.getByTestId('campaign-failed-5')).toHaveTextContent('2');
    const bar = within(row).getByRole('progressbar', { hidden: true });
    expect(bar).toHaveAttribute('aria-valuenow', '60');
    expect(bar).toHaveAccessibleName('Progresso de Black Friday: 6 de 10 processados (60%)');
    expect(screen.getByRole('columnheader', { name: 'Pendentes de envio' })).toBeInTheDocument();
    // A running campaign can be canceled, not edited or started; a draft the other way round.
    expect(screen.getByTestId('campaign-edit-5')).toBeDisabled();
    expect(screen.getByTestId('campaign-cancel-5')).toBeEnabled();
    expect(screen.queryByTestId('campaign-start-5')).toBeNull();
    expect(screen.getByTestId('campaign-edit-6')).toBeEnabled();
    expect(screen.getByTestId('campaign-start-6')).toHaveAccessibleName('Iniciar a campanha Natal');
  });

  it('shows the empty state', async () => {
    serve([]);
    render();
    expect(await screen.findByText('Nenhuma campanha cadastrada.')).toBeInTheDocument();
  });

  it('start asks first, with the spam warning, then POSTs /campaigns/start/{id}', async () => {
    serve();
    render();
    fireEvent.click(await screen.findByTestId('campaign-start-6'));
    const warning = await screen.findByTestId('campaign-spam-warning');
    expect(warning).toHaveTextContent('Se 2% dos destinatários denunciarem a mensagem como spam');
    expect(calls()).not.toContain('POST /api/campaigns/start/6');
    fireEvent.click(screen.getByTestId('campaign-start-confirm'));
    await waitFor(() => expect(calls()).toContain('POST /api/campaigns/start/6'));
  });

  it('cancel confirms and POSTs /campaigns/cancel/{id}', async () => {
    serve();
    render();
    fireEvent.click(await screen.findByTestId('campaign-cancel-5'));
    fireEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(calls()).toContain('POST /api/campaigns/cancel/5'));
  });

  it('reads the list again on {T}:campaign while mounted', async () => {
    serve();
    const fake = fakeSocket();
    const live = createTestQueryClient();
    const invalidate = vi.spyOn(live, 'invalidateQueries');
    const stop = startRegisteredHandlers(fake.socket, live, 1);
    const view = render();
    await screen.findByTestId('campaign-row-5');
    expect(fake.handlers.has('1:campaign')).toBe(true);
    fake.emit('1:campaign', { action: 'update', id: 5 });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['campaigns'] });
    view.unmount();
    expect(fake.handlers.has('1:campaign')).toBe(false);
    stop();
  });
});
