/**
 * The channel form for the official types (issue 15): WhatsApp Cloud API credentials and their verification before
 * saving, Messenger/Instagram page credentials and the Facebook-login connection, the webhook panel of a saved Meta
 * channel, and a hub channel's read-only credentials.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { channelInputSchema, type ChannelDto, type ChannelType } from '@conversa/shared';
import { resetApiState } from '../../../lib/api';
import { channelFixture } from '../../../test/channels';
import { jsonResponse, renderWithProviders, typeInto } from '../../../test/render';
import { ChannelFormModal } from './ChannelFormModal';

vi.mock('../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../lib/notify');

const fetchMock = vi.fn<typeof fetch>();
type Handler = (path: string, body: Record<string, unknown>) => Response | undefined;
let handler: Handler = () => undefined;
const writes = () =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method && init.method !== 'GET')
    .map(([input, init]) => ({
      call: `${init?.method} ${new URL(String(input), 'http://localhost').pathname}`,
      body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>,
    }));
const saves = () => writes().filter(({ call }) => call.includes('/whatsapp'));

beforeEach(() => {
  resetApiState();
  fetchMock.mockReset();
  handler = () => undefined;
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  fetchMock.mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    if ((init?.method ?? 'GET') === 'GET') {
      if (url.pathname === '/api/queue/') return jsonResponse([]);
      if (url.pathname === '/api/users/') return jsonResponse({ users: [], count: 0, hasMore: false });
    }
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    return handler(url.pathname, body) ?? jsonResponse({ error: 'unexpected' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  localStorage.setItem('token', 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

const OTHER_TYPES: ChannelType[] = ['telegram', 'baileys'];
function open(type: ChannelType, props: { channel?: ChannelDto; onMetaCreated?: (c: ChannelDto) => void } = {}) {
  const onClose = vi.fn();
  // The form starts on the first supported type.
  renderWithProviders(<ChannelFormModal opened onClose={onClose} supportedTypes={[type, ...OTHER_TYPES]} {...props} />);
  return onClose;
}
const submit = () => fireEvent.click(screen.getByTestId('channel-form-submit'));
const credentialsTab = () => screen.getByTestId('channel-tab-credentials');

const verifyOk = () => jsonResponse({ ok: true, number: '+55 11 98888-7777', verifiedName: 'Acme Vendas' });

describe('WhatsApp Cloud API channel form', { timeout: 20_000 }, () => {
  it('asks for a verification before saving; a refusal shows the WABA text, a success fills the number', async () => {
    const created = channelFixture(31, { type: 'waba', name: 'Oficial', wabaId: '1098', number: '5511988887777' });
    let verifyAnswer = jsonResponse({ error: 'ERR_WABA_DATA_INVALID' }, 400);
    handler = (path) => {
      if (path === '/api/wabametaVerifyPhone') return verifyAnswer;
      if (path === '/api/whatsapp') return jsonResponse(created, 201);
      return undefined;
    };
    const onMetaCreated = vi.fn();
    const onClose = open('waba', { onMetaCreated });
    expect(screen.getByTestId('channel-form-type')).toHaveValue('WhatsApp Cloud API (WABA)');
    typeInto('channel-form-name', 'Oficial');
    fireEvent.click(credentialsTab());
    expect(screen.getByTestId('channel-form-meta-version')).toHaveValue('20.0');
    // The phone number id is required, digits only.
    submit();
    expect(await screen.findByText('ID do número de telefone é obrigatório')).toBeInTheDocument();
    typeInto('channel-form-meta-id', '10a');
    submit();
    expect(await screen.findByText('Informe somente números.')).toBeInTheDocument();
    typeInto('channel-form-meta-id', ' 1098 ');
    typeInto('channel-form-meta-token', ' EAAG-token ');
    typeInto('channel-form-meta-bm', '2233');
    typeInto('channel-form-meta-app-secret', 'app-secret');
    // Not verified yet: nothing is saved, and the tab says why.
    submit();
    expect(await screen.findByTestId('channel-form-waba-verify-required')).toHaveTextContent(
      'Verifique os dados do WhatsApp Cloud API antes de salvar.',
    );
    expect(saves()).toEqual([]);
    // Graph refuses: the catalogue text shows next to the fields, and saving stays blocked.
    fireEvent.click(screen.getByTestId('channel-form-waba-verify'));
    expect(await screen.findByTestId('channel-form-waba-verify-error')).toHaveTextContent(
      'Ops! Dados WABA incorretos.',
    );
    expect(writes()[0]).toEqual({
      call: 'POST /api/wabametaVerifyPhone',
      body: { wabaId: '1098', wabaVersion: '20.0', tokenAPI: 'EAAG-token', bmToken: '2233' },
    });
    submit();
    await waitFor(() => expect(screen.getByTestId('channel-form-waba-verify-error')).toBeInTheDocument());
    expect(saves()).toEqual([]);
    // Graph accepts: the number and the verified name show, and the save goes through with the number.
    verifyAnswer = verifyOk();
    fireEvent.click(screen.getByTestId('channel-form-waba-verify'));
    expect(await screen.findByTestId('channel-form-waba-verified')).toHaveTextContent(
      'Número +55 11 98888-7777 — Acme Vendas.',
    );
    submit();
    await waitFor(() => expect(saves()).toHaveLength(1));
    const [save] = saves();
    expect(save?.call).toBe('POST /api/whatsapp');
    expect(channelInputSchema.strict().safeParse(save?.body).success).toBe(true);
    expect(save?.body).toMatchObject({
      name: 'Oficial',
      type: 'waba',
      wabaId: '1098',
      tokenAPI: 'EAAG-token',
      bmToken: '2233',
      wabaVersion: '20.0',
      metaAppSecret: 'app-secret',
      number: '5511988887777',
    });
    // A new Meta channel reopens on its webhook instead of closing.
    await waitFor(() => expect(onMetaCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 31 })));
    expect(onClose).not.toHaveBeenCalled();
    expect(notifySuccess).toHaveBeenCalledWith('Conexão criada!');
  });

  it('asks again when the credentials change after a successful verification', async () => {
    handler = (path) => (path === '/api/wabametaVerifyPhone' ? verifyOk() : undefined);
    open('waba');
    typeInto('channel-form-name', 'Oficial');
    fireEvent.click(credentialsTab());
    typeInto('channel-form-meta-id', '1098');
    fireEvent.click(screen.getByTestId('channel-form-waba-verify'));
    await screen.findByTestId('channel-form-waba-verified');
    typeInto('channel-form-meta-id', '1099');
    expect(screen.queryByTestId('channel-form-waba-verified')).not.toBeInTheDocument();
    submit();
    expect(await screen.findByTestId('channel-form-waba-verify-required')).toBeInTheDocument();
    expect(saves()).toEqual([]);
  });

  it('a saved channel keeps its write-only secrets, saves unchanged credentials and verifies with its id', async () => {
    const channel = channelFixture(12, {
      type: 'waba',
      name: 'Oficial',
      wabaId: '1098',
      wabaVersion: '19.0',
      number: '5511988887777',
      configuredSecrets: ['tokenAPI', 'bmToken', 'metaAppSecret'],
    });
    handler = (path) => {
      if (path === '/api/wabametaVerifyPhone') return verifyOk();
      if (path === '/api/whatsapp/12') return jsonResponse(channel);
      return undefined;
    };
    const onClose = open('waba', { channel });
    fireEvent.click(credentialsTab());
    for (const id of ['channel-form-meta-token', 'channel-form-meta-bm', 'channel-form-meta-app-secret']) {
      expect(screen.getByTestId(id)).toHaveValue('');
    }
    expect(screen.getAllByText('Configurado — deixe em branco para manter.')).toHaveLength(3);
    expect(screen.getByTestId('channel-form-waba-number')).toHaveTextContent('Número verificado: 5511988887777');
    // The stored secrets are used by the server: the check sends the channel id and no secret.
    fireEvent.click(screen.getByTestId('channel-form-waba-verify'));
    await screen.findByTestId('channel-form-waba-verified');
    expect(writes()[0]).toEqual({
      call: 'POST /api/wabametaVerifyPhone',
      body: { wabaId: '1098', wabaVersion: '19.0', whatsappId: 12 },
    });
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = saves()[0]?.body;
    expect(body).toMatchObject({ type: 'waba', wabaId: '1098', wabaVersion: '19.0', number: '5511988887777' });
    for (const secret of ['tokenAPI', 'bmToken', 'metaAppSecret']) expect(body).not.toHaveProperty(secret);
  });

  it('an unchanged saved channel saves without a new verification; a server refusal lands on the verify step', async () => {
    const channel = channelFixture(12, { type: 'waba', wabaId: '1098', configuredSecrets: ['tokenAPI'] });
    let answer = jsonResponse(channel);
    handler = (path) => (path === '/api/whatsapp/12' ? answer : undefined);
    const onClose = open('waba', { channel });
    typeInto('channel-form-name', 'Renomeado');
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(saves()).toHaveLength(1);
    answer = jsonResponse({ error: 'ERR_WABA_DATA_INVALID' }, 400);
    submit();
    expect(await screen.findByTestId('channel-form-waba-verify-required')).toHaveTextContent(
      'Ops! Dados WABA incorretos.',
    );
    expect(credentialsTab()).toHaveAttribute('aria-selected', 'true');
  });

  it('refuses a malformed API version', async () => {
    open('waba');
    typeInto('channel-form-name', 'Oficial');
    fireEvent.click(credentialsTab());
    typeInto('channel-form-meta-id', '1098');
    typeInto('channel-form-meta-version', 'v20');
    fireEvent.click(screen.getByTestId('channel-form-waba-verify'));
    expect(await screen.findByText('Informe a versão como 20.0.')).toBeInTheDocument();
    expect(writes()).toEqual([]);
  });
});

describe('Messenger and Instagram channel form', { timeout: 20_000 }, () => {
  it('a new page channel needs the token with its id, or neither (Facebook login after saving)', async () => {
    handler = (path) => (path === '/api/whatsapp' ? jsonResponse(undefined, 201) : undefined);
    const onClose = open('messenger');
    typeInto('channel-form-name', 'Página');
    fireEvent.click(credentialsTab());
    expect(screen.getByTestId('channel-form-fb-save-first')).toBeInTheDocument();
    typeInto('channel-form-meta-id', '5566');
    submit();
    expect(await screen.findByText(/Informe o token de acesso da página/)).toBeInTheDocument();
    expect(saves()).toEqual([]);
    typeInto('channel-form-meta-id', '');
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(saves()[0]?.body).toMatchObject({ type: 'messenger', wabaId: null });
    expect(saves()[0]?.body).not.toHaveProperty('tokenAPI');
  });

  it('sends the page id, token and app secret typed by hand', async () => {
    handler = (path) => (path === '/api/whatsapp' ? jsonResponse(undefined, 201) : undefined);
    const onClose = open('instagram');
    typeInto('channel-form-name', 'Insta');
    fireEvent.click(credentialsTab());
    expect(screen.getByLabelText('ID da conta do Instagram')).toBe(screen.getByTestId('channel-form-meta-id'));
    typeInto('channel-form-meta-id', '17841400');
    typeInto('channel-form-meta-token', 'page-token');
    typeInto('channel-form-meta-app-secret', 'secret');
    submit();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const body = saves()[0]?.body;
    expect(channelInputSchema.strict().safeParse(body).success).toBe(true);
    expect(body).toMatchObject({
      type: 'instagram',
      wabaId: '17841400',
      tokenAPI: 'page-token',
      metaAppSecret: 'secret',
    });
    expect(body).not.toHaveProperty('bmToken');
  });

  it('connects a saved page with Facebook login data and disconnects it', async () => {
    const channel = channelFixture(7, { type: 'messenger', name: 'Página', wabaId: null });
    const stored = { ...channel, wabaId: '5566', configuredSecrets: ['tokenAPI'] };
    let registerAnswer = jsonResponse({ error: 'ERR_WABA_DATA_INVALID' }, 400);
    handler = (path) => {
      if (path === '/api/fb/register-pages') return registerAnswer;
      if (path === '/api/fb/logout-pages') return jsonResponse({ ok: true });
      return undefined;
    };
    open('messenger', { channel });
    fireEvent.click(credentialsTab());
    const section = screen.getByRole('region', { name: 'Conectar com os dados de login do Facebook' });
    // Both fields are needed; nothing is called without them.
    fireEvent.click(within(section).getByRole('button', { name: 'Conectar página' }));
    expect(await within(section).findByText('ID do usuário do Facebook é obrigatório')).toBeInTheDocument();
    expect(writes()).toEqual([]);
    typeInto('channel-form-fb-account', ' 1001 ');
    typeInto('channel-form-fb-token', 'user-token');
    fireEvent.click(screen.getByTestId('channel-form-fb-connect'));
    expect(await screen.findByTestId('channel-form-fb-error')).toHaveTextContent('Ops! Dados WABA incorretos.');
    registerAnswer = jsonResponse({
      page_details: [{ id: '5566', name: 'Loja Acme', instagramId: null }],
      channel: stored,
    });
    // Enter in the login fields connects instead of saving the channel.
    fireEvent.keyDown(screen.getByTestId('channel-form-fb-token'), { key: 'Enter' });
    expect(await screen.findByTestId('channel-form-fb-pages')).toHaveTextContent('Loja Acme (ID 5566)');
    expect(writes()[1]).toEqual({
      call: 'POST /api/fb/register-pages',
      body: { whatsapp: 7, accountId: '1001', userToken: 'user-token' },
    });
    expect(saves()).toEqual([]);
    expect(screen.getByTestId('channel-form-meta-id')).toHaveValue('5566');
    expect(screen.getByTestId('channel-form-fb-token')).toHaveValue('');
    fireEvent.click(screen.getByRole('button', { name: 'Desconectar página' }));
    await waitFor(() => expect(writes()[2]).toEqual({ call: 'POST /api/fb/logout-pages', body: { whatsapp: 7 } }));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith('Página desconectada.'));
  });
});

describe('webhook panel and hub channels', { timeout: 20_000 }, () => {
  it('shows the webhook URL and verify token of a saved Meta channel with named copy buttons', async () => {
    const channel = channelFixture(12, {
      type: 'waba',
      wabaId: '1098',
      metaWebhook: { url: 'https://conversa.example.com/api/webhooks/waba/12', verifyToken: 'vt-123' },
    });
    open('waba', { channel });
    fireEvent.click(credentialsTab());
    const panel = screen.getByRole('region', { name: 'Webhook' });
    expect(within(panel).getByLabelText('URL de callback')).toHaveValue(
      'https://conversa.example.com/api/webhooks/waba/12',
    );
    expect(within(panel).getByLabelText('Token de verificação')).toHaveValue('vt-123');
    expect(within(panel).getByRole('button', { name: 'Copiar URL de callback' })).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Copiar Token de verificação' })).toBeInTheDocument();
    expect(within(panel).getByText(/WhatsApp > Configuração/)).toBeInTheDocument();
  });

  it('a Meta channel whose webhook the server has not given says it will show', async () => {
    open('messenger', { channel: channelFixture(8, { type: 'messenger' }) });
    fireEvent.click(credentialsTab());
    expect(screen.getByTestId('channel-webhook-pending')).toBeInTheDocument();
  });

  it('a hub channel opens read-only credentials with a link to the hub settings, its type locked', async () => {
    const channel = channelFixture(40, { type: 'hub_instagram', wabaId: 'hub-ch-1', number: 'acme.store' });
    open('telegram', { channel });
    expect(screen.getByTestId('channel-form-type')).toHaveValue('NotificaMe Hub – Instagram');
    expect(screen.getByTestId('channel-form-type')).toHaveAttribute('readonly');
    fireEvent.click(credentialsTab());
    expect(screen.getByTestId('channel-form-hub-id')).toHaveValue('hub-ch-1');
    expect(screen.getByTestId('channel-form-hub-id')).toHaveAttribute('readonly');
    expect(screen.getByRole('link', { name: 'Abrir as configurações do Hub' })).toHaveAttribute(
      'href',
      '#/configuracoes/hub',
    );
  });
});
