/**
 * /configuracoes/meta and /configuracoes/hub (issue 15): write-only tokens (never shown, empty keeps, "remove" sends
 * null after a confirmation), the business accounts of the Meta token, and the hub account's channels.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderRoutes, typeInto } from '../../../test/render';
import { HubSettingsPage } from './HubSettingsPage';
import { MetaSettingsPage } from './MetaSettingsPage';
import { SettingsLayout } from './SettingsLayout';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
type Handler = (path: string, method: string, body: unknown) => Response | undefined;
let handler: Handler = () => undefined;
let tenant: Record<string, unknown> = {};
const writes = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method && init.method !== 'GET')
    .map(([input, init]) => ({
      call: `${init?.method} ${new URL(String(input), 'http://localhost').pathname}`,
      body: JSON.parse(String(init?.body)) as unknown,
    }));

const routes = [
  {
    path: '/configuracoes',
    element: <SettingsLayout />,
    children: [
      { path: 'meta', element: <MetaSettingsPage /> },
      { path: 'hub', element: <HubSettingsPage /> },
    ],
  },
];

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  handler = () => undefined;
  tenant = { id: 3, name: 'Acme', status: 'active', metaTokenConfigured: false, wabaTokenConfigured: true };
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  fetchMock.mockImplementation(async (input, init) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const method = init?.method ?? 'GET';
    const answer = handler(path, method, init?.body ? JSON.parse(String(init.body)) : undefined);
    if (answer) return answer;
    if (method === 'GET' && path === '/api/tenants/undefined') return jsonResponse([tenant]);
    return jsonResponse({ error: 'unexpected' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

const confirm = () => fireEvent.click(screen.getByTestId('confirm-delete'));

describe('Meta settings', { timeout: 20_000 }, () => {
  it('has its tab and keeps the tokens write-only: empty keeps, typed ones are sent, nothing typed is refused', async () => {
    tenant = { ...tenant, metaToken: 'leaked-meta', wabaToken: 'leaked-waba' };
    handler = (path, method) => {
      if (method !== 'PUT' || path !== '/api/tenantsMetaUpdate/3') return undefined;
      tenant = { ...tenant, metaTokenConfigured: true };
      return jsonResponse({ metaTokenConfigured: true, wabaTokenConfigured: true, hubTokenConfigured: false });
    };
    renderRoutes(routes, '/configuracoes/meta');
    expect(await screen.findByRole('tab', { name: 'Meta' })).toHaveAttribute('aria-selected', 'true');
    const metaToken = await screen.findByLabelText('Token de negócios da Meta');
    expect(metaToken).toHaveValue('');
    expect(screen.getByLabelText('Token padrão do WhatsApp Cloud API')).toHaveValue('');
    expect(document.body.innerHTML).not.toContain('leaked');
    // The stored state is told per token; only the stored one can be removed.
    expect(screen.getByText(/Nenhum token salvo\./)).toBeInTheDocument();
    expect(screen.getByText(/Um token está salvo/)).toBeInTheDocument();
    expect(screen.queryByTestId('settings-meta-token-remove')).not.toBeInTheDocument();
    expect(screen.getByTestId('settings-waba-token-remove')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('settings-meta-save'));
    expect(await screen.findByText('Digite um token novo para salvar.')).toBeInTheDocument();
    expect(writes()).toEqual([]);
    typeInto('settings-meta-token', ' EAAB-meta ');
    fireEvent.click(screen.getByTestId('settings-meta-save'));
    await waitFor(() =>
      expect(writes()).toEqual([{ call: 'PUT /api/tenantsMetaUpdate/3', body: { id: 3, metaToken: 'EAAB-meta' } }]),
    );
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Configuração salva!'));
    // Saved: the field empties and the token now shows as stored, removable.
    expect(metaToken).toHaveValue('');
    expect(await screen.findByTestId('settings-meta-token-remove')).toBeInTheDocument();
  });

  it('removes a token with null after a confirmation', async () => {
    handler = (path, method) => {
      if (method !== 'PUT' || path !== '/api/tenantsMetaUpdate/3') return undefined;
      tenant = { ...tenant, wabaTokenConfigured: false };
      return jsonResponse({ metaTokenConfigured: false, wabaTokenConfigured: false, hubTokenConfigured: false });
    };
    renderRoutes(routes, '/configuracoes/meta');
    fireEvent.click(await screen.findByRole('button', { name: 'Remover Token padrão do WhatsApp Cloud API' }));
    expect(await screen.findByText(/As conexões que dependem dele deixam de funcionar/)).toBeInTheDocument();
    expect(writes()).toEqual([]);
    confirm();
    await waitFor(() =>
      expect(writes()).toEqual([{ call: 'PUT /api/tenantsMetaUpdate/3', body: { id: 3, wabaToken: null } }]),
    );
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Token removido.'));
    await waitFor(() => expect(screen.queryByTestId('settings-waba-token-remove')).not.toBeInTheDocument());
  });

  it('lists the business accounts and their numbers, with the empty state', async () => {
    let accounts: unknown[] = [
      {
        id: '2233',
        name: 'Acme Ltda',
        phoneNumbers: [{ id: '1098', displayPhoneNumber: '+55 11 98888-7777', verifiedName: 'Acme Vendas' }],
      },
      { id: '4455', name: 'Acme Labs', phoneNumbers: [] },
    ];
    handler = (path, method) =>
      method === 'POST' && path === '/api/wabametaVerifyBms' ? jsonResponse({ data: accounts }) : undefined;
    renderRoutes(routes, '/configuracoes/meta');
    fireEvent.click(await screen.findByRole('button', { name: 'Verificar contas de negócio' }));
    const first = await screen.findByRole('region', { name: 'Acme Ltda' });
    const row = within(first).getByRole('row', { name: /Acme Vendas/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['+55 11 98888-7777', 'Acme Vendas', '1098']);
    expect(within(first).getByText('ID 2233')).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Acme Labs' })).getByText('Nenhum número nesta conta.'),
    ).toBeTruthy();
    expect(writes()).toEqual([{ call: 'POST /api/wabametaVerifyBms', body: {} }]);
    accounts = [];
    fireEvent.click(screen.getByRole('button', { name: 'Verificar contas de negócio' }));
    expect(await screen.findByText('Nenhuma conta encontrada')).toBeInTheDocument();
  });

  it('shows ERR_META_TOKEN_MISSING with its catalogue text', async () => {
    handler = (path) =>
      path === '/api/wabametaVerifyBms' ? jsonResponse({ error: 'ERR_META_TOKEN_MISSING' }, 400) : undefined;
    renderRoutes(routes, '/configuracoes/meta');
    fireEvent.click(await screen.findByRole('button', { name: 'Verificar contas de negócio' }));
    expect(await screen.findByTestId('settings-meta-bms-error')).toHaveTextContent(
      'Token da Meta não configurado. Verifique as configurações da Meta.',
    );
  });
});

const hubChannels = [
  { id: 'ch-1', name: 'Insta Acme', channel: 'instagram', connected: false, whatsappId: null },
  { id: 'ch-2', name: 'WhatsApp Acme', channel: 'whatsapp', connected: true, whatsappId: 41 },
  { id: 'ch-3', name: 'Outro', channel: 'rcs', connected: false, whatsappId: 42 },
];

describe('Hub settings', { timeout: 20_000 }, () => {
  it('without a token: saving one is write-only and the channels say the token is missing', async () => {
    tenant = { ...tenant, hubTokenConfigured: false, hubToken: 'leaked-hub' };
    handler = (path, method) => {
      if (path === '/api/hub-channel/') return jsonResponse({ status: 'ok', data: [] });
      if (method !== 'PUT' || path !== '/api/tenantsHubToken/3') return undefined;
      tenant = { ...tenant, hubTokenConfigured: true };
      return jsonResponse({ metaTokenConfigured: false, wabaTokenConfigured: true, hubTokenConfigured: true });
    };
    renderRoutes(routes, '/configuracoes/hub');
    expect(await screen.findByRole('tab', { name: 'Hub' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByTestId('settings-hub-token-missing')).toHaveTextContent(
      'Token do Hub não configurado. Verifique as configurações do Hub.',
    );
    expect(document.body.innerHTML).not.toContain('leaked');
    // No channel list is asked for without a token.
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('hub-channel'))).toBe(false);
    typeInto('settings-hub-token', ' hub-secret ');
    fireEvent.click(screen.getByTestId('settings-hub-save'));
    await waitFor(() =>
      expect(writes()).toEqual([{ call: 'PUT /api/tenantsHubToken/3', body: { id: 3, hubToken: 'hub-secret' } }]),
    );
    // Once stored, the account's channels are read: none yet.
    expect(await screen.findByTestId('settings-hub-channels-empty')).toHaveTextContent('Nenhum canal na conta');
    expect(screen.getByTestId('settings-hub-token')).toHaveValue('');
  });

  it('lists the channels; "Add" creates a connection, "Set webhook again" re-registers a connected one', async () => {
    tenant = { ...tenant, hubTokenConfigured: true };
    handler = (path, method) => {
      if (path === '/api/hub-channel/' && method === 'GET') return jsonResponse({ status: 'ok', data: hubChannels });
      if (path === '/api/hub-channel/' && method === 'POST') return jsonResponse({ data: { id: 50 } });
      if (path === '/api/hub-channel-setagain/') return jsonResponse({ ok: true });
      return undefined;
    };
    renderRoutes(routes, '/configuracoes/hub');
    const table = await screen.findByTestId('settings-hub-channels');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 3)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['Insta Acme', 'Instagram', 'Não conectado'],
      ['WhatsApp Acme', 'WhatsApp', 'Conectado'],
      ['Outro', 'rcs', 'Não conectado'],
    ]);
    expect(within(rows[2]!).getByText('Nas conexões')).toBeInTheDocument();
    expect(within(rows[1]!).queryByRole('button', { name: /Adicionar/ })).not.toBeInTheDocument();
    fireEvent.click(within(rows[0]!).getByRole('button', { name: 'Adicionar Insta Acme' }));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Insta Acme adicionado às conexões.'));
    fireEvent.click(within(rows[1]!).getByRole('button', { name: 'Refazer webhook de WhatsApp Acme' }));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Webhook de WhatsApp Acme registrado de novo.'));
    expect(writes()).toEqual([
      { call: 'POST /api/hub-channel/', body: { id: 'ch-1', name: 'Insta Acme', channel: 'instagram' } },
      { call: 'POST /api/hub-channel-setagain/', body: { whatsappId: 41 } },
    ]);
  });

  it('shows the hub refusals: a missing token from the server, a failed add, a failed load with a retry', async () => {
    tenant = { ...tenant, hubTokenConfigured: true };
    let list = jsonResponse({ error: 'ERR_HUB_TOKEN_MISSING' }, 400);
    handler = (path, method) => {
      if (path === '/api/hub-channel/' && method === 'GET') return list;
      if (path === '/api/hub-channel/' && method === 'POST')
        return jsonResponse({ error: 'ERR_HUB_DATA_INVALID' }, 400);
      return undefined;
    };
    const { unmount } = renderRoutes(routes, '/configuracoes/hub');
    expect(await screen.findByTestId('settings-hub-token-missing')).toBeInTheDocument();
    unmount();
    resetApiState();
    list = jsonResponse({ error: 'ERR_INTERNAL' }, 400);
    renderRoutes(routes, '/configuracoes/hub');
    expect(await screen.findByRole('alert')).toHaveTextContent('Não foi possível carregar');
    list = jsonResponse({ status: 'ok', data: hubChannels.slice(0, 1) });
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Adicionar Insta Acme' }));
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith('Ops! Dados do Hub incorretos.', 'Erro ao adicionar o canal.'),
    );
  });
});
