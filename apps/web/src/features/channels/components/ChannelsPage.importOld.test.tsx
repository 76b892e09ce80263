import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderWithProviders } from '../../../test/render';
import { ChannelsPage } from './ChannelsPage';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyInfo } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
let syncOld: (init: RequestInit | undefined) => Response | Promise<Response>;
const syncOldCalls = () =>
  fetchMock.mock.calls
    .filter(([input]) => new URL(String(input), 'http://localhost').pathname === '/api/messages/syncOld')
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);

const baileys = channelFixture(1, { name: 'Loja', type: 'baileys', number: '5511999990000', status: 'CONNECTED' });
const offline = channelFixture(2, { name: 'Filial', type: 'evo', number: '5511888880000', status: 'DISCONNECTED' });
const telegram = channelFixture(3, { name: 'Bot', type: 'telegram', status: 'CONNECTED' });
const cloud = channelFixture(4, { name: 'Cloud', type: 'waba', number: '5511777770000', status: 'CONNECTED' });

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyInfo).mockClear();
  syncOld = () => jsonResponse({ requested: 10 });
  fetchMock.mockImplementation(async (input, init) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    if (path === '/api/messages/syncOld') return syncOld(init);
    return jsonResponse([baileys, offline, telegram, cloud]);
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
  localStorage.setItem('profile', 'admin');
  localStorage.setItem('userId', '5');
  localStorage.setItem('tenantId', '1');
});
afterEach(() => vi.unstubAllGlobals());

const openImport = async () => {
  fireEvent.click(await screen.findByRole('button', { name: 'Importar mensagens antigas de Loja' }));
  return screen.findByTestId('channel-import-old-limit');
};
const submit = (value: string) => {
  fireEvent.change(screen.getByTestId('channel-import-old-limit'), { target: { value } });
  fireEvent.click(screen.getByTestId('channel-import-old-submit'));
};

describe('channels page: import old messages', () => {
  it('is offered on connected WhatsApp session cards only', async () => {
    renderWithProviders(<ChannelsPage />);
    await screen.findByTestId('channel-card-1');
    expect(screen.getByTestId('channel-import-old-1')).toBeInTheDocument();
    for (const id of [2, 3, 4]) expect(screen.queryByTestId(`channel-import-old-${id}`)).not.toBeInTheDocument();
  });

  it.each(['0', '-1', '1.5', '   '])('refuses the limit %j with the spec text', async (value) => {
    renderWithProviders(<ChannelsPage />);
    await openImport();
    submit(value);
    expect(await screen.findByText('O limite deve ser um número positivo.')).toBeInTheDocument();
    expect(syncOldCalls()).toHaveLength(0);
  });

  it('refuses more than the server accepts', async () => {
    renderWithProviders(<ChannelsPage />);
    await openImport();
    submit('100001');
    expect(await screen.findByText('O limite máximo é 100.000 mensagens.')).toBeInTheDocument();
    expect(syncOldCalls()).toHaveLength(0);
  });

  it('sends { whatsappId, limit }, locked while running, then closes and says the import started', async () => {
    let answer: (value: Response) => void = () => undefined;
    syncOld = () => new Promise<Response>((resolve) => (answer = resolve));
    renderWithProviders(<ChannelsPage />);
    await openImport();
    submit('300');
    await waitFor(() => expect(syncOldCalls()).toEqual([{ whatsappId: 1, limit: 300 }]));
    expect(screen.getByTestId('channel-import-old-limit')).toBeDisabled();
    expect(screen.getByTestId('channel-import-old-submit')).toHaveAttribute('data-loading', 'true');
    answer(jsonResponse({ requested: 300 }));
    await waitFor(() => expect(screen.queryByTestId('channel-import-old-limit')).not.toBeInTheDocument());
    expect(notifyInfo).toHaveBeenCalledWith('Importação iniciada. O progresso aparece em uma notificação.');
  });

  it('shows the catalogue text of a refusal in the dialog', async () => {
    syncOld = () => jsonResponse({ error: 'ERR_WAPP_NOT_INITIALIZED' }, 409);
    renderWithProviders(<ChannelsPage />);
    await openImport();
    submit('10');
    expect(await screen.findByTestId('channel-import-old-error')).toHaveTextContent('Sessão não inicializada.');
  });
});
