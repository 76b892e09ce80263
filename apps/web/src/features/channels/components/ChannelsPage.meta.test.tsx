/**
 * Meta channels on the connections screen (issue 15): their cards connect and disconnect through the usual session
 * paths without a QR code, and a new Meta channel opens again on its credentials, where its webhook is copied.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { ChannelsPage } from './ChannelsPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response>;
const serve = (handler: Handler) =>
  fetchMock.mockImplementation(async (input, init) => handler(new URL(String(input), 'http://localhost'), init));
const calls = () =>
  fetchMock.mock.calls
    .map(([input, init]) => `${init?.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`)
    .filter((call) => !call.startsWith('GET /api/queue') && !call.startsWith('GET /api/users'));

const waba = channelFixture(5, {
  name: 'Oficial',
  type: 'waba',
  number: '5511988887777',
  wabaId: '1098',
  status: 'CONNECTED',
});
const insta = channelFixture(6, { name: 'Insta', type: 'instagram', number: null, status: 'DISCONNECTED' });

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', 'admin');
  localStorage.setItem('userId', '5');
  localStorage.setItem('tenantId', '1');
});
afterEach(() => vi.unstubAllGlobals());

describe('Meta channels on the connections screen', { timeout: 20_000 }, () => {
  it('a Meta card shows its type and number, and connects or disconnects with no QR code', async () => {
    serve((url) =>
      url.pathname === '/api/whatsapp/'
        ? jsonResponse([waba, insta])
        : jsonResponse({ ...insta, status: 'OPENING', qrcode: null }),
    );
    renderWithProviders(<ChannelsPage />);
    const card = await screen.findByTestId('channel-card-5');
    expect(within(card).getByText('WhatsApp Cloud API (WABA)')).toBeInTheDocument();
    expect(within(card).getByText('5511988887777')).toBeInTheDocument();
    expect(screen.getByTestId('channel-status-5')).toHaveTextContent('Conectado');
    // No QR code action for official channels, and none after connecting.
    expect(screen.queryByTestId('channel-qrcode-6')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('channel-connect-6'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Iniciando a conexão Insta…'));
    expect(screen.queryByTestId('channel-qrcode-modal')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('channel-disconnect-5'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Conexão Oficial desconectada.'));
    expect(calls()).toEqual(['GET /api/whatsapp/', 'POST /api/whatsappsession/6', 'DELETE /api/whatsappsession/5']);
    // The history import is a WhatsApp-session tool: not offered on a connected Cloud API channel.
    expect(screen.queryByTestId('channel-import-old-5')).not.toBeInTheDocument();
  });

  it('a new Meta channel opens again on its credentials tab, to copy its webhook', async () => {
    const created = channelFixture(9, { name: 'Página', type: 'messenger' });
    serve((url, init) => {
      if (url.pathname === '/api/whatsapp/') return jsonResponse([waba]);
      if (url.pathname === '/api/queue/') return jsonResponse([]);
      if (url.pathname === '/api/users/') return jsonResponse({ users: [], count: 0, hasMore: false });
      if (url.pathname === '/api/whatsapp' && init?.method === 'POST') return jsonResponse(created, 201);
      return jsonResponse({ error: 'unexpected' }, 404);
    });
    renderWithProviders(<ChannelsPage />);
    fireEvent.click(await screen.findByTestId('channels-add'));
    await waitFor(() => expect(screen.getByTestId('channel-form-name')).toHaveFocus());
    fireEvent.click(screen.getByTestId('channel-form-type'));
    const listbox = await waitFor(() => {
      const id = screen.getByTestId('channel-form-type').getAttribute('aria-controls');
      const element = id ? document.getElementById(id) : null;
      if (!element) throw new Error('no listbox');
      return element;
    });
    const option = within(listbox)
      .getAllByRole('option', { hidden: true })
      .find((item) => item.textContent === 'Messenger');
    fireEvent.click(option!);
    typeInto('channel-form-name', 'Página');
    fireEvent.click(screen.getByTestId('channel-form-submit'));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Conexão criada!'));
    expect(await screen.findByRole('dialog', { name: 'Editar conexão' })).toBeInTheDocument();
    expect(screen.getByTestId('channel-tab-credentials')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('region', { name: 'Webhook' })).toBeInTheDocument();
    expect(await screen.findByTestId('channel-card-9')).toBeInTheDocument();
  });
});
