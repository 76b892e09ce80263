import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { channelInputSchema, type ChannelDto } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { queryKeys } from '../../../lib/query-keys';
import { channelFixture } from '../../../test/channels';
import { createTestQueryClient, jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { ChannelFormModal } from './ChannelFormModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
type Handler = (url: URL, init: RequestInit | undefined) => Response | Promise<Response> | undefined;
const writes = () => fetchMock.mock.calls.filter(([, init]) => init?.method && init.method !== 'GET');
const bodyOfWrite = (index = 0) =>
  JSON.parse(String(writes()[index]?.[1]?.body)) as Record<string, unknown> & { integrations?: Record<string, string> };

const queues = [
  { id: 3, queue: 'Vendas', isActive: true },
  { id: 4, queue: 'Antiga', isActive: false },
];
const users = { users: [], count: 0, hasMore: false };

/** Lists for the routing selects; `write` answers the POST/PUT. */
function serve(write: Handler) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if ((init?.method ?? 'GET') === 'GET') {
      if (url.pathname === '/api/queue/') return jsonResponse(queues);
      if (url.pathname === '/api/users/') return jsonResponse(users);
    }
    return (await write(url, init)) ?? jsonResponse({ error: 'unexpected' }, 404);
  });
}

async function chooseOption(testId: string, name: string) {
  await waitFor(() => expect(screen.getByTestId(testId)).toBeEnabled());
  fireEvent.click(screen.getByTestId(testId));
  fireEvent.click(await findOption(testId, name));
}

/**
 * The options of one select (its listbox is the input's aria-controls), by their text. jsdom lays nothing out, so
 * the dropdown's floating position counts as detached and is hidden once measured: options are looked up hidden too.
 */
/** The modal focuses the name field once open; a dropdown opened before would close on that move. */
const settle = () => waitFor(() => expect(screen.getByTestId('channel-form-name')).toHaveFocus());

async function optionsOf(testId: string): Promise<HTMLElement[]> {
  const listbox = await waitFor(() => {
    const id = screen.getByTestId(testId).getAttribute('aria-controls');
    const element = id ? document.getElementById(id) : null;
    if (!element) throw new Error(`${testId} has no open listbox`);
    return element;
  });
  return within(listbox).getAllByRole('option', { hidden: true });
}
async function findOption(testId: string, name: string): Promise<HTMLElement> {
  const options = await optionsOf(testId);
  const option = options.find((item) => item.textContent === name);
  if (!option) throw new Error(`no option ${name} in ${options.map((item) => item.textContent).join(', ')}`);
  return option;
}

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

// Mantine's modal, tabs and selects make these slow on a busy machine; the default 5 s would flake.
describe('channel form', { timeout: 20_000 }, () => {
  it('requires a name and, for Telegram, the token, without calling the server', async () => {
    serve(() => undefined);
    const onClose = vi.fn();
    renderWithProviders(<ChannelFormModal opened onClose={onClose} />);
    expect(screen.getByTestId('channel-form-type')).toHaveValue('Telegram');
    fireEvent.click(screen.getByTestId('channel-form-submit'));
    expect(await screen.findByText('Nome é obrigatório')).toBeInTheDocument();
    expect(screen.getByText('Informe o token do bot do Telegram.')).toBeInTheDocument();
    expect(writes()).toEqual([]);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('lists every type but the hub ones (added from the hub settings) and disables the ones not supported', async () => {
    serve(() => undefined);
    renderWithProviders(<ChannelFormModal opened onClose={vi.fn()} />);
    await settle();
    fireEvent.click(screen.getByTestId('channel-form-type'));
    const names = (await optionsOf('channel-form-type')).map((option) => option.textContent);
    expect(names).toHaveLength(8);
    expect(names.filter((name) => name?.includes('NotificaMe'))).toEqual([]);
    for (const name of ['Telegram', 'WhatsApp Cloud API (WABA)', 'Instagram', 'Messenger']) {
      expect(await findOption('channel-form-type', name)).not.toHaveAttribute('aria-disabled');
    }
  });

  it('offers a type the server does not support yet as disabled, "coming soon"', async () => {
    serve(() => undefined);
    renderWithProviders(<ChannelFormModal opened onClose={vi.fn()} supportedTypes={['telegram']} />);
    await settle();
    fireEvent.click(screen.getByTestId('channel-form-type'));
    expect(await findOption('channel-form-type', 'Messenger (em breve)')).toHaveAttribute('aria-disabled', 'true');
  });

  it('creates a Telegram channel with a body of input fields only', async () => {
    const created = channelFixture(9, { name: 'Bot' });
    serve(() => jsonResponse(created, 201));
    const queryClient = createTestQueryClient();
    queryClient.setQueryData<ChannelDto[]>(queryKeys.channels, []);
    const onClose = vi.fn();
    renderWithProviders(<ChannelFormModal opened onClose={onClose} />, queryClient);
    await settle();
    typeInto('channel-form-name', '  Bot  ');
    typeInto('channel-form-token', ' 123:ABC ');
    await chooseOption('channel-form-queue', 'Vendas');
    // An inactive queue is not offered.
    fireEvent.click(screen.getByTestId('channel-form-queue'));
    expect((await optionsOf('channel-form-queue')).map((option) => option.textContent)).toEqual(['Vendas']);
    fireEvent.click(screen.getByTestId('channel-form-default'));
    fireEvent.click(screen.getByTestId('channel-tab-messages'));
    typeInto('channel-form-wavoip', ' tok1, tok2 ,, tok3 ');
    await chooseOption('channel-form-birthday-hour', '09:00');
    fireEvent.click(screen.getByTestId('channel-tab-behaviour'));
    fireEvent.click(screen.getByTestId('channel-form-flag-sendEvaluation'));
    fireEvent.click(screen.getByTestId('channel-tab-integrations'));
    typeInto('channel-form-chatgptModel', 'gpt-4o');
    fireEvent.click(screen.getByTestId('channel-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes()[0]?.[0]).toBe('/api/whatsapp');
    expect(writes()[0]?.[1]?.method).toBe('POST');
    const body = bodyOfWrite();
    expect(channelInputSchema.strict().safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      name: 'Bot',
      type: 'telegram',
      tokenTelegram: '123:ABC',
      isDefault: true,
      queueId: 3,
      userId: null,
      birthdayDateHour: 9,
      wavoipToken: 'tok1,tok2,tok3',
      sendEvaluation: 'enabled',
      transcribeAudio: 'disabled',
    });
    // Empty settings and empty secrets are not sent on a new channel.
    expect(body.integrations).toEqual({ chatgptModel: 'gpt-4o' });
    expect(notifySuccess).toHaveBeenCalledWith('Conexão criada!');
    expect(queryClient.getQueryData<ChannelDto[]>(queryKeys.channels)?.map((c) => c.id)).toEqual([9]);
  });

  it('keeps the stored secrets when their fields stay empty on edit', async () => {
    const channel = channelFixture(7, {
      name: 'Atendimento',
      chatFlowId: 12,
      birthdayDateHour: 14,
      integrations: { chatgptModel: 'gpt-4o', typebotUrl: 'https://typebot.example' },
      configuredSecrets: ['tokenTelegram', 'chatgptApiKey', 'wavoipToken', 'transcribeAudioJson'],
    });
    serve((url, init) =>
      init?.method === 'PUT' && url.pathname === '/api/whatsapp/7' ? jsonResponse(channel) : undefined,
    );
    const onClose = vi.fn();
    renderWithProviders(<ChannelFormModal opened onClose={onClose} channel={channel} />);
    expect(screen.getByTestId('channel-form-name')).toHaveValue('Atendimento');
    expect(screen.getByTestId('channel-form-token')).toHaveValue('');
    expect(screen.getByTestId('channel-form-wavoip')).toHaveValue('');
    expect(screen.getByTestId('channel-form-transcribeAudioJson')).toHaveValue('');
    expect(screen.getAllByText('Configurado — deixe em branco para manter.')).toHaveLength(4);
    typeInto('channel-form-name', 'Atendimento 2');
    typeInto('channel-form-typebotUrl', '');
    fireEvent.click(screen.getByTestId('channel-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = bodyOfWrite();
    expect(writes()[0]?.[1]?.method).toBe('PUT');
    expect(channelInputSchema.strict().safeParse(body).success).toBe(true);
    expect(body).not.toHaveProperty('tokenTelegram');
    expect(body.integrations).not.toHaveProperty('chatgptApiKey');
    expect(body).not.toHaveProperty('wavoipToken');
    expect(body.integrations).not.toHaveProperty('transcribeAudioJson');
    // A cleared setting is sent empty; fields the form does not show go back as they were.
    expect(body.integrations).toEqual({ chatgptModel: 'gpt-4o', typebotUrl: '' });
    expect(body).toMatchObject({ name: 'Atendimento 2', chatFlowId: 12, wabaVersion: '20.0', birthdayDateHour: 14 });
    expect(notifySuccess).toHaveBeenCalledWith('Conexão atualizada!');
  });

  it('sends a new secret typed on edit', async () => {
    const channel = channelFixture(7, { configuredSecrets: ['tokenTelegram'] });
    serve(() => jsonResponse(channel));
    const onClose = vi.fn();
    renderWithProviders(<ChannelFormModal opened onClose={onClose} channel={channel} />);
    typeInto('channel-form-token', 'new-token');
    typeInto('channel-form-difyKey', 'dify-secret');
    fireEvent.click(screen.getByTestId('channel-form-submit'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(bodyOfWrite()).toMatchObject({ tokenTelegram: 'new-token', integrations: { difyKey: 'dify-secret' } });
  });

  it('shows the connection limit with the catalogue text and stays open', async () => {
    serve((url) =>
      url.pathname === '/api/auth/refresh_token'
        ? jsonResponse({ error: 'ERR_SESSION_EXPIRED' }, 401)
        : jsonResponse({ error: 'ERR_CONNECTION_LIMIT' }, 403),
    );
    const onClose = vi.fn();
    renderWithProviders(<ChannelFormModal opened onClose={onClose} />);
    typeInto('channel-form-name', 'Bot');
    typeInto('channel-form-token', '123:ABC');
    fireEvent.click(screen.getByTestId('channel-form-submit'));
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith('Limite de conexões atingidas.', 'Erro ao salvar a conexão.'),
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('puts a server token refusal under the token field', async () => {
    serve(() => jsonResponse({ error: 'ERR_TELEGRAM_TOKEN_REQUIRED' }, 400));
    renderWithProviders(<ChannelFormModal opened onClose={vi.fn()} />);
    typeInto('channel-form-name', 'Bot');
    typeInto('channel-form-token', 'bad');
    fireEvent.click(screen.getByTestId('channel-tab-messages'));
    fireEvent.click(screen.getByTestId('channel-form-submit'));
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith('Informe o token do bot do Telegram.', 'Erro ao salvar a conexão.'),
    );
    // The general tab comes back to show the field with its error.
    expect(screen.getByTestId('channel-tab-general')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('Informe o token do bot do Telegram.')).toBeInTheDocument();
  });
});
