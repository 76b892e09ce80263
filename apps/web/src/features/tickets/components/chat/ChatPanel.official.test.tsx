import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketDto, WabaTemplateDto } from '@conversa/shared';
import { jsonResponse } from '../../../../test/render';
import { fakeApi, logInAs } from './chat-harness';
import { messageFixture, ticketFixture } from './chat-fixtures';

vi.mock('../../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifySuccess } = await import('../../../../lib/notify');

const { fetchMock, routes, reset, renderChatPanel } = fakeApi();

const calls = () =>
  fetchMock.mock.calls.map(([url, init]) => {
    const parsed = new URL(String(url), 'http://app.test');
    const raw = init?.body;
    return {
      key: `${init?.method ?? 'GET'} ${parsed.pathname.replace(/^\/api/, '')}`,
      query: parsed.searchParams,
      body: typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw,
    };
  });
const callsTo = (key: string) => calls().filter((c) => c.key === key);

const H = 3600_000;
const waba = (overrides: Partial<TicketDto> = {}) =>
  ticketFixture(10, {
    whatsappId: 3,
    whatsapp: { id: 3, name: 'Cloud API', type: 'waba', status: 'CONNECTED', sendEvaluation: 'disabled' },
    channel: 'waba',
    ...overrides,
  });
const closedWindow = { customerWindow: { open: false, until: new Date(Date.now() - H).toISOString() } };
const openWindow = () => ({ customerWindow: { open: true, until: new Date(Date.now() + 5 * H).toISOString() } });

const template = (id: number, name: string, components: unknown[], extra: Partial<WabaTemplateDto> = {}) => ({
  id,
  name,
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'UTILITY',
  components,
  ...extra,
});
const TEMPLATES = [
  template(1, 'pedido_enviado', [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Olá {{1}}, seu pedido {{2}} foi enviado.' },
    { type: 'FOOTER', text: 'Loja Exemplo' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Obrigado' }] },
  ]),
  template(2, 'boas_vindas', [{ type: 'BODY', text: 'Bem-vindo!' }], { language: 'en_US', category: 'MARKETING' }),
  template(3, 'rascunho', [{ type: 'BODY', text: 'x' }], { status: 'PENDING' }),
];

function setup(ticket: TicketDto, { forceOpen = false } = {}) {
  renderChatPanel(ticket, [messageFixture(1, { ticketId: ticket.id })], {
    'GET /tenants/undefined': () => jsonResponse([{ id: 1, forceOpenChatWindow: forceOpen ? 'enabled' : 'disabled' }]),
    'GET /wabametaTemplate/3': () => jsonResponse({ data: TEMPLATES }),
  });
}

beforeEach(() => {
  reset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifySuccess).mockClear();
  logInAs('admin', 7, 'Ana');
});
afterEach(() => vi.unstubAllGlobals());

const openPicker = async () => {
  const dialog = await screen.findByRole('dialog', { name: 'Enviar modelo (template)' });
  await within(dialog).findByTestId('template-option-pedido_enviado');
  return dialog;
};

describe('chat of a WhatsApp Cloud API ticket: the 24-hour window', () => {
  it('replaces the composer by a notice with "Enviar modelo" when the window is closed', async () => {
    setup(waba(closedWindow));
    const notice = await screen.findByTestId('chat-window-closed');
    expect(notice).toHaveTextContent('só entrega mensagens de modelo');
    expect(screen.queryByTestId('chat-input')).toBeNull();
    expect(screen.queryByTestId('chat-attach')).toBeNull();
    expect(screen.getByTestId('chat-window')).toHaveAttribute('data-state', 'closed');
    fireEvent.click(within(notice).getByRole('button', { name: 'Enviar modelo' }));
    await openPicker();
  });

  it('keeps the composer when the tenant forces the window open', async () => {
    setup(waba(closedWindow), { forceOpen: true });
    expect(await screen.findByTestId('chat-input')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-window-closed')).toBeNull();
    expect(screen.getByTestId('chat-templates')).toBeInTheDocument();
  });

  it('offers the picker from the composer tools while the window is open; other channels have neither', async () => {
    setup(waba(openWindow()));
    fireEvent.click(await screen.findByTestId('chat-templates'));
    await openPicker();
    expect(callsTo('GET /wabametaTemplate/3')[0]?.query.get('refresh')).toBe('false');
  });

  it('shows the catalogue text of a 409 ERR_WINDOW_CLOSED on send and offers the picker', async () => {
    routes['POST /messages/10'] = () => jsonResponse({ error: 'ERR_WINDOW_CLOSED' }, 409);
    setup(waba(openWindow()));
    fireEvent.change(await screen.findByTestId('chat-input'), { target: { value: 'Oi' } });
    fireEvent.click(screen.getByTestId('chat-send'));
    const alert = await screen.findByTestId('chat-window-refused');
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).toHaveTextContent('A janela de 24 horas de atendimento está fechada');
    fireEvent.click(within(alert).getByRole('button', { name: 'Enviar modelo' }));
    await openPicker();
  });

  it('is not shown on other channel types, which keep their composer', async () => {
    setup(ticketFixture(10));
    expect(await screen.findByTestId('chat-input')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-window')).toBeNull();
    expect(screen.queryByTestId('chat-templates')).toBeNull();
  });
});

describe('template picker', () => {
  it('lists approved templates with language and category, searches by name and syncs with refresh=true', async () => {
    setup(waba(closedWindow));
    fireEvent.click(await screen.findByTestId('chat-template-open'));
    const dialog = await openPicker();
    const options = within(dialog).getAllByRole('radio');
    expect(options.map((o) => o.textContent)).toEqual(['pedido_enviadopt_BRUTILITY', 'boas_vindasen_USMARKETING']);
    fireEvent.change(within(dialog).getByLabelText('Buscar modelo pelo nome'), { target: { value: 'BOAS' } });
    expect(within(dialog).getAllByRole('radio')).toHaveLength(1);
    fireEvent.change(within(dialog).getByLabelText('Buscar modelo pelo nome'), { target: { value: 'zzz' } });
    expect(within(dialog).getByTestId('template-no-match')).toBeInTheDocument();

    routes['GET /wabametaTemplate/3'] = () => jsonResponse({ data: [TEMPLATES[1]] });
    fireEvent.change(within(dialog).getByLabelText('Buscar modelo pelo nome'), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sincronizar' }));
    await waitFor(() => expect(within(dialog).getAllByRole('radio')).toHaveLength(1));
    expect(callsTo('GET /wabametaTemplate/3').at(-1)?.query.get('refresh')).toBe('true');
  });

  it('offers no forced sync to agents (the server keeps it for supervisors and up)', async () => {
    localStorage.setItem('profile', 'user');
    setup(waba(closedWindow));
    fireEvent.click(await screen.findByTestId('chat-template-open'));
    const dialog = await openPicker();
    expect(within(dialog).getAllByRole('radio')).toHaveLength(2);
    expect(within(dialog).queryByRole('button', { name: 'Sincronizar' })).toBeNull();
  });

  it('requires every variable, previews the filled template and sends Graph components', async () => {
    routes['POST /wabametaTemplateComponents'] = () =>
      jsonResponse({
        data: messageFixture(90, {
          fromMe: true,
          mediaType: 'templates',
          body: 'Olá Maria, seu pedido #981 foi enviado.',
        }),
      });
    setup(waba(closedWindow));
    fireEvent.click(await screen.findByTestId('chat-template-open'));
    const dialog = await openPicker();
    fireEvent.click(within(dialog).getByTestId('template-option-pedido_enviado'));

    const preview = within(dialog).getByTestId('template-preview');
    expect(within(preview).getByTestId('template-preview-body')).toHaveTextContent(
      'Olá {{1}}, seu pedido {{2}} foi enviado.',
    );
    expect(preview).toHaveTextContent('Loja Exemplo');
    expect(preview).toHaveTextContent('Obrigado');

    // Nothing filled: every field says so, focus goes to the first, nothing is sent.
    fireEvent.click(within(dialog).getByTestId('template-send'));
    expect(await within(dialog).findAllByText('Preencha esta variável.')).toHaveLength(3);
    expect(within(dialog).getByLabelText(/Cabeçalho: URL da imagem/)).toHaveFocus();
    expect(within(dialog).getByLabelText(/Corpo: variável \{\{1\}\}/)).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo('POST /wabametaTemplateComponents')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/Cabeçalho: URL da imagem/), { target: { value: 'ftp://x' } });
    fireEvent.change(within(dialog).getByLabelText(/Corpo: variável \{\{1\}\}/), { target: { value: 'Maria' } });
    fireEvent.change(within(dialog).getByLabelText(/Corpo: variável \{\{2\}\}/), { target: { value: '#981' } });
    expect(within(preview).getByTestId('template-preview-body')).toHaveTextContent(
      'Olá Maria, seu pedido #981 foi enviado.',
    );
    expect(within(dialog).getByText('Informe um endereço http(s) válido.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByTestId('template-send'));
    expect(callsTo('POST /wabametaTemplateComponents')).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText(/Cabeçalho: URL da imagem/), {
      target: { value: 'https://cdn.test/caixa.png' },
    });
    fireEvent.click(within(dialog).getByTestId('template-send'));
    await waitFor(() => expect(callsTo('POST /wabametaTemplateComponents')).toHaveLength(1));
    const body = callsTo('POST /wabametaTemplateComponents')[0]?.body as Record<string, unknown>;
    expect(body).toEqual({
      ticketId: 10,
      idFront: expect.any(String),
      templateName: 'pedido_enviado',
      language: 'pt_BR',
      components: [
        { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.test/caixa.png' } }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Maria' },
            { type: 'text', text: '#981' },
          ],
        },
      ],
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(notifySuccess).toHaveBeenCalledWith('Modelo enviado.');
    // The stored message shows at once as a template bubble.
    expect(await screen.findByTestId('message-template-90')).toHaveTextContent('Olá Maria, seu pedido #981');
  });

  it('keeps the dialog open with the catalogue text when the server refuses the template', async () => {
    routes['POST /wabametaTemplateComponents'] = () => jsonResponse({ error: 'ERR_NO_TEMPLATE_FOUND' }, 404);
    setup(waba(closedWindow));
    fireEvent.click(await screen.findByTestId('chat-template-open'));
    const dialog = await openPicker();
    fireEvent.click(within(dialog).getByTestId('template-option-boas_vindas'));
    expect(within(dialog).getByText('Este modelo não tem variáveis.')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByTestId('template-send'));
    expect(await within(dialog).findByTestId('template-send-error')).toHaveTextContent(
      'Modelo não encontrado ou não aprovado.',
    );
    expect(callsTo('POST /wabametaTemplateComponents')[0]?.body).toMatchObject({
      templateName: 'boas_vindas',
      language: 'en_US',
      components: [],
    });
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});
