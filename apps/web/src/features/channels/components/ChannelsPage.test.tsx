import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { startRealtimeSync } from '../../../lib/realtime-sync';
import { channelFixture } from '../../../test/channels';
import { createTestQueryClient, jsonResponse, renderWithProviders } from '../../../test/render';
import { fakeSocket } from '../../../test/socket';
import { ChannelsPage } from './ChannelsPage';

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
const calls = () =>
  fetchMock.mock.calls.map(
    ([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`,
  );

function logIn(profile: Profile) {
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', profile);
  localStorage.setItem('userId', '5');
  localStorage.setItem('tenantId', '1');
}

const vendas = channelFixture(1, {
  name: 'Vendas',
  number: 'vendas_bot',
  status: 'CONNECTED',
  isDefault: true,
  updatedAt: '2025-03-04T15:06:07',
});
const suporte = channelFixture(2, { name: 'Suporte', number: null, status: 'DISCONNECTED' });

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('channels page', () => {
  it('lists channels with icon type, number, live status, default flag and date', async () => {
    logIn('admin');
    serve(() => jsonResponse([vendas, suporte]));
    renderWithProviders(<ChannelsPage />);
    expect(screen.getByTestId('channels-loading')).toBeInTheDocument();
    const card = await screen.findByTestId('channel-card-1');
    expect(within(card).getByRole('heading', { name: 'Vendas' })).toBeInTheDocument();
    expect(within(card).getByText('@vendas_bot')).toBeInTheDocument();
    expect(within(card).getByText('Telegram')).toBeInTheDocument();
    expect(within(card).getByText('Padrão')).toBeInTheDocument();
    expect(within(card).getByText('Atualizado em 04/03/2025 15:06:07')).toBeInTheDocument();
    const status = screen.getByTestId('channel-status-1');
    expect(status).toHaveTextContent('Conectado');
    expect(status).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByTestId('channel-status-2')).toHaveTextContent('Desconectado');
    expect(within(screen.getByTestId('channel-card-2')).getByText('Sem número')).toBeInTheDocument();
    // Actions follow the status: a connected channel disconnects, a disconnected one connects.
    expect(screen.getByTestId('channel-disconnect-1')).toBeInTheDocument();
    expect(screen.queryByTestId('channel-connect-1')).not.toBeInTheDocument();
    expect(screen.getByTestId('channel-connect-2')).toBeInTheDocument();
    expect(screen.queryByTestId('channel-disconnect-2')).not.toBeInTheDocument();
    expect(screen.getByTestId('channels-add')).toBeInTheDocument();
    expect(calls()).toEqual(['GET /api/whatsapp/']);
  });

  it('shows the empty state with its call to action', async () => {
    logIn('admin');
    serve((url) => jsonResponse(url.pathname === '/api/users/' ? { users: [], count: 0, hasMore: false } : []));
    renderWithProviders(<ChannelsPage />);
    const empty = await screen.findByTestId('channels-empty');
    expect(within(empty).getByText('Nenhuma conexão ainda')).toBeInTheDocument();
    fireEvent.click(within(empty).getByTestId('channels-empty-add'));
    expect(await screen.findByTestId('channel-form-name')).toBeInTheDocument();
  });

  it('shows a failed load with a retry', async () => {
    logIn('admin');
    let count = 0;
    serve(() => {
      count += 1;
      return count === 1 ? jsonResponse({ error: 'ERR_NO_PERMISSION' }, 400) : jsonResponse([vendas]);
    });
    renderWithProviders(<ChannelsPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Você não tem permissão');
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByTestId('channel-card-1')).toBeInTheDocument();
  });

  it('connects, restarts and disconnects through the session paths', async () => {
    logIn('admin');
    serve((url) =>
      url.pathname === '/api/whatsapp/' ? jsonResponse([vendas, suporte]) : jsonResponse(undefined, 204),
    );
    renderWithProviders(<ChannelsPage />);
    fireEvent.click(await screen.findByTestId('channel-connect-2'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Iniciando a conexão Suporte…'));
    fireEvent.click(screen.getByTestId('channel-disconnect-1'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Conexão Vendas desconectada.'));
    fireEvent.click(screen.getByTestId('channel-restart-1'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledTimes(3));
    expect(calls()).toEqual([
      'GET /api/whatsapp/',
      'POST /api/whatsappsession/2',
      'DELETE /api/whatsappsession/1',
      'PUT /api/whatsappsession/1',
    ]);
    const restart = fetchMock.mock.calls[3]?.[1];
    expect(JSON.parse(String(restart?.body))).toEqual({ id: 1, isQrcode: true });
    // A Telegram restart never shows a QR code.
    expect(screen.queryByTestId('channel-qrcode-modal')).not.toBeInTheDocument();
  });

  it('opens the live QR modal when a QR channel is connected, and offers it again while pairing', async () => {
    logIn('admin');
    const zap = channelFixture(6, { name: 'Zap', type: 'baileys', number: null, status: 'DISCONNECTED' });
    const pairing = channelFixture(7, { name: 'Loja', type: 'evo', status: 'PAIRING', pairingCode: 'ABCD1234' });
    serve((url) => (url.pathname === '/api/whatsapp/' ? jsonResponse([zap, pairing]) : jsonResponse(undefined, 204)));
    renderWithProviders(<ChannelsPage />);
    fireEvent.click(await screen.findByTestId('channel-connect-6'));
    expect(await screen.findByTestId('channel-qrcode-modal')).toHaveAttribute('data-status', 'DISCONNECTED');
    expect(calls()).toContain('POST /api/whatsappsession/6');
    fireEvent.click(screen.getByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByTestId('channel-qrcode-modal')).not.toBeInTheDocument());
    fireEvent.click(screen.getByTestId('channel-qrcode-7'));
    expect(await screen.findByTestId('channel-pairing-code')).toHaveTextContent('ABCD-1234');
  });

  it('shows a provider refusal with the catalogue text', async () => {
    logIn('admin');
    serve((url) =>
      url.pathname === '/api/whatsapp/'
        ? jsonResponse([suporte])
        : jsonResponse({ error: 'ERR_WAPP_NOT_INITIALIZED' }, 400),
    );
    renderWithProviders(<ChannelsPage />);
    fireEvent.click(await screen.findByTestId('channel-connect-2'));
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith('Sessão não inicializada.', 'Erro ao conectar.'));
  });

  it('follows socket status updates without re-fetching, QR code included, and closes the QR code once connected', async () => {
    logIn('admin');
    serve(() => jsonResponse([vendas, suporte]));
    const queryClient = createTestQueryClient();
    const { socket, emit } = fakeSocket();
    startRealtimeSync(socket, queryClient, 1);
    renderWithProviders(<ChannelsPage />, queryClient);
    await screen.findByTestId('channel-card-2');
    const session = { id: 2, name: 'Suporte', number: null, retries: 0, updatedAt: '2025-03-05T08:00:00' };
    act(() =>
      emit('1:whatsappSession', { action: 'update', session: { ...session, status: 'OPENING', qrcode: null } }),
    );
    // Query observers are notified on the next tick.
    await waitFor(() => expect(screen.getByTestId('channel-status-2')).toHaveTextContent('Conectando'));
    expect(screen.getByTestId('channel-status-2')).toHaveAttribute('data-status', 'OPENING');
    act(() =>
      emit('1:whatsappSession', {
        action: 'update',
        session: { ...session, status: 'qrcode', qrcode: 'data:image/png;base64,iVBORw0KGgo=' },
      }),
    );
    fireEvent.click(await screen.findByTestId('channel-qrcode-2'));
    expect(screen.getByTestId('channel-status-2')).toHaveTextContent('Aguardando leitura do QR code');
    const image = await screen.findByTestId('channel-qrcode-image');
    expect(image).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    expect(image).toHaveAttribute('alt', 'QR code para conectar Suporte');
    // A raw QR string (as Baileys and the gateways send it) is drawn as an image in place of the previous one.
    act(() =>
      emit('1:whatsappSession', { action: 'update', session: { ...session, status: 'qrcode', qrcode: '2@abc,def' } }),
    );
    await waitFor(() =>
      expect(screen.getByTestId('channel-qrcode-image').getAttribute('src')).toMatch(/^data:image\/svg\+xml/),
    );
    act(() =>
      emit('1:whatsappSession', { action: 'update', session: { ...session, status: 'CONNECTED', qrcode: null } }),
    );
    await waitFor(() => expect(screen.getByTestId('channel-status-2')).toHaveTextContent('Conectado'));
    await waitFor(() => expect(screen.queryByTestId('channel-qrcode-modal')).not.toBeInTheDocument());
    act(() => emit('1:whatsapp', { action: 'delete', whatsappId: 1 }));
    await waitFor(() => expect(screen.queryByTestId('channel-card-1')).not.toBeInTheDocument());
    expect(calls()).toEqual(['GET /api/whatsapp/']);
  });

  it('deletes after a confirmation that names the channel', async () => {
    logIn('admin');
    serve((_url, init) => (init?.method === 'DELETE' ? jsonResponse(undefined, 204) : jsonResponse([vendas, suporte])));
    renderWithProviders(<ChannelsPage />);
    fireEvent.click(await screen.findByTestId('channel-delete-2'));
    expect(await screen.findByText(/Excluir a conexão Suporte\?/)).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('confirm-delete'));
    await waitFor(() => expect(screen.queryByTestId('channel-card-2')).not.toBeInTheDocument());
    expect(screen.getByTestId('channel-card-1')).toBeInTheDocument();
    expect(calls()).toEqual(['GET /api/whatsapp/', 'DELETE /api/whatsapp/2']);
  });

  it('gives a supervisor a read-only view: no write buttons', async () => {
    logIn('super');
    serve(() => jsonResponse([vendas, channelFixture(3, { status: 'qrcode', qrcode: 'data:image/png;base64,AA' })]));
    renderWithProviders(<ChannelsPage />);
    await screen.findByTestId('channel-card-1');
    expect(screen.getByTestId('channels-read-only')).toBeInTheDocument();
    expect(screen.getByTestId('channel-status-3')).toBeInTheDocument();
    for (const prefix of ['connect', 'disconnect', 'restart', 'edit', 'delete', 'qrcode']) {
      expect(screen.queryByTestId(`channel-${prefix}-1`)).not.toBeInTheDocument();
      expect(screen.queryByTestId(`channel-${prefix}-3`)).not.toBeInTheDocument();
    }
    expect(screen.queryByTestId('channels-add')).not.toBeInTheDocument();
    expect(screen.queryAllByRole('button')).toEqual([]);
  });
});
