/**
 * The general settings screen (issue 23): settings nothing reads are not shown; the three visibility switches never
 * all go on (the third is disabled and says why); switching auto-close on, or changing its time while on, shows what
 * the server counts and saves only once confirmed.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { GeneralSettingsPage } from './GeneralSettingsPage';
import { NOT_YET_ACTING_FLAGS, NOT_YET_ACTING_SETTINGS } from './hidden-settings';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();
let stored: Record<string, string>;
let preview: Record<string, unknown>;
const pathOf = (input: unknown) => new URL(String(input), 'http://localhost').pathname;
const puts = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method === 'PUT' && !pathOf(fetchMock.mock.calls[0]?.[0]).includes('tenants'))
    .map(([input, init]) => ({ path: pathOf(input), body: JSON.parse(String(init?.body)) as unknown }))
    .filter((call) => call.path.startsWith('/api/settings'));
const previews = () =>
  fetchMock.mock.calls
    .map(([input]) => new URL(String(input), 'http://localhost'))
    .filter((url) => url.pathname === '/api/settings/auto-close-preview')
    .map((url) => url.searchParams.get('minutes'));

beforeEach(() => {
  resetApiState();
  stored = {};
  preview = { minutes: 10, enabled: false, closeNow: 0, awaitingCustomer: 7 };
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input, init) => {
    const path = pathOf(input);
    if (init?.method === 'PUT') {
      const body = JSON.parse(String(init.body)) as { key: string; value: string };
      stored[body.key] = body.value;
      return jsonResponse(body);
    }
    if (path === '/api/settings/auto-close-preview') return jsonResponse(preview);
    if (path === '/api/settings/') return jsonResponse(Object.entries(stored).map(([key, value]) => ({ key, value })));
    if (path.startsWith('/api/tenants/')) return jsonResponse([{ id: 3, name: 'Acme' }]);
    return jsonResponse([]);
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('general settings', { timeout: 30_000 }, () => {
  it('shows only settings something reads: integrations, webhooks and the other keys nothing reads are hidden', async () => {
    renderWithProviders(<GeneralSettingsPage />);
    expect(await screen.findByTestId('setting-spyticket')).toBeInTheDocument();
    for (const key of ['autoClose', 'autoCloseTime', 'NotViewAssignedTickets', 'rejectCalls', 'botTicketActive']) {
      expect(screen.getByTestId(`setting-${key}`)).toBeInTheDocument();
    }
    expect(await screen.findByTestId('tenant-flag-ticketLimit', {}, { timeout: 10_000 })).toBeInTheDocument();
    for (const key of Object.keys(NOT_YET_ACTING_SETTINGS)) {
      expect(screen.queryByTestId(`setting-${key}`), key).not.toBeInTheDocument();
    }
    for (const key of Object.keys(NOT_YET_ACTING_FLAGS)) {
      expect(screen.queryByTestId(`tenant-flag-${key}`), key).not.toBeInTheDocument();
    }
    // Shown toggles on the company cards.
    for (const key of ['nullTickets', 'supervisorAdmin', 'forceAdmin', 'serviceTransfer', 'forceOpenChatWindow']) {
      expect(screen.getByTestId(`tenant-flag-${key}`), key).toBeInTheDocument();
    }
    expect(screen.queryByRole('heading', { name: 'Integrações' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Webhook' })).not.toBeInTheDocument();
  });

  it('the campaigns card edits the opt-out words and saves them on blur', async () => {
    stored.campaignStopWords = 'SAIR,STOP';
    renderWithProviders(<GeneralSettingsPage />);
    expect(await screen.findByRole('heading', { name: 'Campanhas' })).toBeInTheDocument();
    const input = await screen.findByLabelText(/Palavras de descadastro/);
    await waitFor(() => expect(input).toHaveValue('SAIR,STOP'));
    fireEvent.change(input, { target: { value: 'SAIR, PARAR ' } });
    fireEvent.blur(input);
    await waitFor(() =>
      expect(puts()).toContainEqual({
        path: '/api/settings/campaignStopWords/',
        body: { key: 'campaignStopWords', value: 'SAIR, PARAR' },
      }),
    );
  });

  it('with two visibility switches on, the third is disabled and says why; switching one off frees it', async () => {
    stored = { NotViewAssignedTickets: 'enabled', NotViewTicketsChatBot: 'enabled' };
    renderWithProviders(<GeneralSettingsPage />);
    const third = await screen.findByTestId('setting-DirectTicketsToWallets');
    expect(third).toBeDisabled();
    expect(screen.getByText(/Não pode ficar ligado junto com os outros dois/)).toBeInTheDocument();
    expect(screen.getByTestId('setting-NotViewAssignedTickets')).toBeEnabled();
    fireEvent.click(screen.getByTestId('setting-NotViewTicketsChatBot'));
    await waitFor(() => expect(screen.getByTestId('setting-DirectTicketsToWallets')).toBeEnabled());
    expect(screen.queryByText(/Não pode ficar ligado junto com os outros dois/)).not.toBeInTheDocument();
  });

  it('switching auto-close on shows the preview and saves nothing until confirmed', async () => {
    stored = { autoCloseTime: '10' };
    renderWithProviders(<GeneralSettingsPage />);
    fireEvent.click(await screen.findByTestId('setting-autoClose'));
    const dialog = await screen.findByRole('dialog', { name: 'Ativar o encerramento automático?' });
    expect(previews()).toEqual(['10']);
    const text = within(dialog).getByTestId('auto-close-preview');
    expect(text).toHaveTextContent('Encerrados agora: 0.');
    expect(text).toHaveTextContent('A inatividade passa a contar a partir de agora');
    expect(text).toHaveTextContent('Aguardando resposta do cliente: 7.');
    expect(text).toHaveTextContent('se o cliente ficar 10 minutos sem responder');
    expect(dialog).toHaveTextContent('Tickets que aguardam resposta da equipe nunca são encerrados automaticamente.');
    fireEvent.click(within(dialog).getByTestId('auto-close-cancel'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(puts()).toEqual([]);
    expect(screen.getByTestId('setting-autoClose')).not.toBeChecked();

    fireEvent.click(screen.getByTestId('setting-autoClose'));
    fireEvent.click(await screen.findByTestId('auto-close-confirm'));
    await waitFor(() =>
      expect(puts()).toEqual([{ path: '/api/settings/autoClose/', body: { key: 'autoClose', value: 'enabled' } }]),
    );
  });

  it('changing the time while on says how many close now, at the new time', async () => {
    stored = { autoClose: 'enabled', autoCloseTime: '1440' };
    preview = { minutes: 60, enabled: true, closeNow: 12, awaitingCustomer: 30 };
    renderWithProviders(<GeneralSettingsPage />);
    fireEvent.click(await screen.findByTestId('setting-autoCloseTime'));
    fireEvent.click(await screen.findByRole('option', { name: '1 hora', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Alterar o tempo de inatividade?' });
    expect(previews()).toEqual(['60']);
    expect(within(dialog).getByTestId('auto-close-preview')).toHaveTextContent(
      'Encerrados agora: 12. Tickets em que o cliente não responde à nossa última mensagem há mais de 1 hora.',
    );
    fireEvent.click(within(dialog).getByTestId('auto-close-confirm'));
    await waitFor(() =>
      expect(puts()).toEqual([{ path: '/api/settings/autoCloseTime/', body: { key: 'autoCloseTime', value: '60' } }]),
    );
  });

  it('changing the time while off saves at once: nothing closes', async () => {
    stored = { autoCloseTime: '1440' };
    renderWithProviders(<GeneralSettingsPage />);
    fireEvent.click(await screen.findByTestId('setting-autoCloseTime'));
    fireEvent.click(await screen.findByRole('option', { name: '1 hora', hidden: true }));
    await waitFor(() =>
      expect(puts()).toEqual([{ path: '/api/settings/autoCloseTime/', body: { key: 'autoCloseTime', value: '60' } }]),
    );
    expect(previews()).toEqual([]);
  });
});
