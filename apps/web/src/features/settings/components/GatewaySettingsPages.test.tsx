/** The Wuzapi and Evolution settings tabs (issue 13): load, check, save, loading and error states. */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { jsonResponse, renderRoutes, typeInto } from '../../../test/render';
import { SettingsLayout } from './SettingsLayout';
import { EvolutionSettingsPage, WuzapiSettingsPage } from './GatewaySettingsPages';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;
const serve = (handler: Handler) =>
  fetchMock.mockImplementation(async (input, init) => handler(new URL(String(input), 'http://localhost'), init));
const writes = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method && init.method !== 'GET')
    .map(([input, init]) => ({
      call: `${init?.method} ${new URL(String(input), 'http://localhost').pathname}`,
      body: JSON.parse(String(init?.body)) as unknown,
    }));

const tenant = (extra: Record<string, unknown> = {}) => [
  { id: 3, name: 'Acme', status: 'active', wuzapiHost: 'https://wz.example.com', evoHost: null, ...extra },
];

const routes = [
  {
    path: '/configuracoes',
    element: <SettingsLayout />,
    children: [
      { path: 'wuzapi', element: <WuzapiSettingsPage /> },
      { path: 'evolution', element: <EvolutionSettingsPage /> },
    ],
  },
];

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

describe('gateway settings tabs', { timeout: 20_000 }, () => {
  it('lists the wuzapi and evolution tabs and moves between them by keyboard-reachable tabs', async () => {
    serve(() => jsonResponse(tenant()));
    const { router } = renderRoutes(routes, '/configuracoes/wuzapi');
    expect(await screen.findByRole('tab', { name: 'Wuzapi' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.click(screen.getByRole('tab', { name: 'Evolution' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/configuracoes/evolution'));
    expect(await screen.findByRole('heading', { name: 'Evolution API' })).toBeInTheDocument();
  });

  it('Wuzapi: loads the host, refuses an invalid URL, saves the new one', async () => {
    serve((_url, init) => (init?.method === 'PUT' ? jsonResponse(undefined, 204) : jsonResponse(tenant())));
    renderRoutes(routes, '/configuracoes/wuzapi');
    expect(screen.getByLabelText('Carregando…')).toHaveAttribute('aria-busy', 'true');
    const host = await screen.findByRole('textbox', { name: 'URL da API Wuzapi' });
    expect(host).toHaveValue('https://wz.example.com');
    typeInto('settings-wuzapi-host', 'wz.example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Informe uma URL válida (http:// ou https://).')).toBeInTheDocument();
    expect(writes()).toEqual([]);
    typeInto('settings-wuzapi-host', ' https://wuzapi.acme.com ');
    fireEvent.submit(host.closest('form')!);
    await waitFor(() =>
      expect(writes()).toEqual([
        { call: 'PUT /api/tenantsWuzapiHost/3', body: { wuzapiHost: 'https://wuzapi.acme.com' } },
      ]),
    );
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Configuração salva!'));
  });

  it('Wuzapi: an emptied host clears the default', async () => {
    serve((_url, init) => (init?.method === 'PUT' ? jsonResponse(undefined, 204) : jsonResponse(tenant())));
    renderRoutes(routes, '/configuracoes/wuzapi');
    await screen.findByRole('textbox', { name: 'URL da API Wuzapi' });
    typeInto('settings-wuzapi-host', '');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() =>
      expect(writes()).toEqual([{ call: 'PUT /api/tenantsWuzapiHost/3', body: { wuzapiHost: null } }]),
    );
  });

  it('Evolution: the key is write-only; empty keeps it, a typed one is sent; the stored state is told', async () => {
    serve((_url, init) =>
      init?.method === 'PUT' ? jsonResponse(undefined, 204) : jsonResponse(tenant({ evoTokenConfigured: true })),
    );
    renderRoutes(routes, '/configuracoes/evolution');
    const host = await screen.findByRole('textbox', { name: 'URL da Evolution API' });
    expect(host).toHaveValue('');
    const token = screen.getByLabelText('Chave global da API (apikey)');
    expect(token).toHaveValue('');
    expect(screen.getByText('Uma chave está salva — deixe em branco para mantê-la.')).toBeInTheDocument();
    typeInto('settings-evolution-host', 'https://evo.acme.com');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toEqual({
      call: 'PUT /api/tenantsEvolutionHost/3',
      body: { evoHost: 'https://evo.acme.com' },
    });
    typeInto('settings-evolution-token', ' secret-key ');
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(writes()).toHaveLength(2));
    expect(writes()[1]?.body).toEqual({ evoHost: 'https://evo.acme.com', evoToken: 'secret-key' });
  });

  it('Evolution: says when no key is stored, and never shows a key the server might send', async () => {
    serve(() => jsonResponse(tenant({ configuredSecrets: [], evoToken: 'leaked' })));
    renderRoutes(routes, '/configuracoes/evolution');
    expect(await screen.findByText('Nenhuma chave salva.')).toBeInTheDocument();
    expect(screen.getByLabelText('Chave global da API (apikey)')).toHaveValue('');
    expect(document.body.innerHTML).not.toContain('leaked');
  });

  it('shows a refused save with the catalogue text and a failed load with a retry', async () => {
    let fail = true;
    serve((_url, init) => {
      if (init?.method === 'PUT') return jsonResponse({ error: 'ERR_VALIDATION' }, 400);
      if (fail) return jsonResponse({ error: 'ERR_NO_PERMISSION' }, 403);
      return jsonResponse(tenant());
    });
    renderRoutes(routes, '/configuracoes/wuzapi');
    expect(await screen.findByRole('alert')).toHaveTextContent('Não foi possível carregar');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    await screen.findByRole('textbox', { name: 'URL da API Wuzapi' });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith(expect.any(String), 'Erro ao salvar a configuração.'));
  });
});
