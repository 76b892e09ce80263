import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessageDto, TicketDto } from '@conversa/shared';
import { MEDIA_MAX_BYTES } from '@conversa/shared';
import { jsonResponse } from '../../../../test/render';
import { fakeApi, logInAs } from './chat-harness';
import { messageFixture, ticketFixture } from './chat-fixtures';

vi.mock('../../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifyWarning } = await import('../../../../lib/notify');

const ME = 7;
const { fetchMock, routes, reset, renderChatPanel } = fakeApi();

/** Requests as `METHOD /path` (query dropped) with their parsed body. */
const calls = () =>
  fetchMock.mock.calls.map(([url, init]) => {
    const path = String(url)
      .replace(/^\/api/, '')
      .replace(/\?.*$/, '');
    const raw = init?.body;
    const body = raw instanceof FormData ? raw : typeof raw === 'string' ? (JSON.parse(raw) as unknown) : undefined;
    return { key: `${init?.method ?? 'GET'} ${path}`, body };
  });
const callsTo = (key: string) => calls().filter((c) => c.key === key);

const setup = (ticket: TicketDto, messages: MessageDto[] = [messageFixture(1), messageFixture(2, { fromMe: true })]) =>
  renderChatPanel(ticket, messages);

beforeEach(() => {
  reset();
  for (const fn of [notifyError, notifyWarning]) vi.mocked(fn).mockClear();
  logInAs('admin', ME, 'Ana');
});
afterEach(() => vi.unstubAllGlobals());

const input = () => screen.getByTestId('chat-input');
const typeAndEnter = (text: string) => {
  fireEvent.change(input(), { target: { value: text } });
  fireEvent.keyDown(input(), { key: 'Enter' });
};
const openMenu = async (id: number, action: string) => {
  fireEvent.click(await screen.findByTestId(`message-menu-${id}`));
  fireEvent.click(await screen.findByTestId(`message-action-${action}`));
};

describe('chat panel: sending', () => {
  it('sends text with idFront and shows a pending bubble until the server answers', async () => {
    let answer: (value: Response) => void = () => undefined;
    routes['POST /messages/10'] = () => new Promise<Response>((resolve) => (answer = resolve));
    setup(ticketFixture(10));
    await screen.findByTestId('message-1');
    fireEvent.change(input(), { target: { value: 'linha 1' } });
    fireEvent.keyDown(input(), { key: 'Enter', shiftKey: true });
    expect(callsTo('POST /messages/10')).toHaveLength(0);
    typeAndEnter('  Olá, tudo bem?  ');
    await waitFor(() => expect(callsTo('POST /messages/10')).toHaveLength(1));
    const body = callsTo('POST /messages/10')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ body: 'Olá, tudo bem?', fromMe: true, read: 1, quotedMsg: null });
    expect(body.idFront).toMatch(/^[0-9a-f-]{36}$/);
    const log = screen.getByRole('log');
    const pending = within(log).getByText('Olá, tudo bem?').closest('[data-testid^="message-"]') as HTMLElement;
    expect(within(pending).getByRole('img', { name: 'Pendente' })).toBeInTheDocument();
    expect(input()).toHaveValue('');
    await act(async () =>
      answer(jsonResponse(messageFixture(60, { body: 'Olá, tudo bem?', fromMe: true, ack: 1 }), 200)),
    );
    expect(await screen.findByTestId('message-60')).toBeInTheDocument();
    expect(within(log).getAllByText('Olá, tudo bem?')).toHaveLength(1);
  });

  it('replies with quotedMsg = the id, and Esc cancels the reply', async () => {
    routes['POST /messages/10'] = () => jsonResponse({ ok: true });
    setup(ticketFixture(10));
    await openMenu(1, 'reply');
    expect(screen.getByTestId('chat-reply-preview')).toHaveTextContent('Mensagem 1');
    fireEvent.keyDown(input(), { key: 'Escape' });
    expect(screen.queryByTestId('chat-reply-preview')).not.toBeInTheDocument();
    await openMenu(1, 'reply');
    typeAndEnter('resposta');
    await waitFor(() => expect(callsTo('POST /messages/10')).toHaveLength(1));
    expect(callsTo('POST /messages/10')[0]?.body).toMatchObject({ body: 'resposta', quotedMsg: 1 });
  });

  it('refuses a file over the size limit without calling the server, and uploads an accepted one as multipart', async () => {
    routes['POST /messages/10'] = () => jsonResponse({ ok: true });
    setup(ticketFixture(10));
    await screen.findByTestId('message-1');
    const big = new File(['x'], 'grande.mp4', { type: 'video/mp4' });
    Object.defineProperty(big, 'size', { value: MEDIA_MAX_BYTES + 1 });
    const odd = new File(['x'], 'programa.exe', { type: '' });
    fireEvent.change(screen.getByTestId('chat-attach-input'), { target: { files: [big, odd] } });
    expect(notifyWarning).toHaveBeenCalledWith('Arquivo rejeitado devido ao tamanho ou tipo incompatível.');
    expect(screen.queryByTestId('chat-file-chip')).not.toBeInTheDocument();

    const pdf = new File(['%PDF'], 'nota.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByTestId('chat-attach-input'), { target: { files: [pdf] } });
    expect(screen.getByTestId('chat-file-chip')).toHaveTextContent('nota.pdf');
    fireEvent.click(screen.getByTestId('chat-send'));
    await waitFor(() => expect(callsTo('POST /messages/10')).toHaveLength(1));
    const form = callsTo('POST /messages/10')[0]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('medias') as File).name).toBe('nota.pdf');
    expect(form.get('body')).toBe('nota.pdf');
    expect(form.get('fromMe')).toBe('true');
    expect(form.get('isSticker')).toBe('false');
    expect(form.get('idFront')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('edits own text through editMessage and deletes after confirming', async () => {
    routes['POST /messages/editMessage'] = () => jsonResponse({ ok: true });
    routes['DELETE /messages'] = () => jsonResponse({ error: 'ERR_DELETE_WAPP_MSG' }, 400);
    setup(ticketFixture(10));
    await openMenu(2, 'edit');
    expect(input()).toHaveValue('Mensagem 2');
    typeAndEnter('Mensagem corrigida');
    await waitFor(() => expect(callsTo('POST /messages/editMessage')).toHaveLength(1));
    expect(callsTo('POST /messages/editMessage')[0]?.body).toEqual({
      messageId: 2,
      ticketId: 10,
      body: 'Mensagem 2',
      newBody: 'Mensagem corrigida',
    });
    expect(await screen.findByText('Mensagem corrigida')).toBeInTheDocument();

    await openMenu(2, 'delete');
    fireEvent.click(await screen.findByTestId('confirm-delete'));
    await waitFor(() => expect(callsTo('DELETE /messages')).toHaveLength(1));
    expect(callsTo('DELETE /messages')[0]?.body).toEqual({ id: 2, messageId: 'wamid.2' });
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith(
        'Não foi possível apagar a mensagem (mensagens antigas não podem ser apagadas).',
      ),
    );
  });

  it('explains that audio cannot be recorded when the browser has no MediaRecorder', async () => {
    setup(ticketFixture(10));
    fireEvent.click(await screen.findByTestId('chat-record'));
    await waitFor(() => expect(notifyWarning).toHaveBeenCalledWith('Este navegador não permite gravar áudio.'));
    expect(screen.queryByTestId('chat-record-stop')).not.toBeInTheDocument();
  });

  it('does not offer edit or delete on messages from the contact', async () => {
    setup(ticketFixture(10));
    fireEvent.click(await screen.findByTestId('message-menu-1'));
    expect(await screen.findByTestId('message-action-reply')).toBeInTheDocument();
    expect(screen.queryByTestId('message-action-edit')).not.toBeInTheDocument();
    expect(screen.queryByTestId('message-action-delete')).not.toBeInTheDocument();
  });

  it('reacts through reactionMessage', async () => {
    routes['POST /messages/reactionMessage'] = () => jsonResponse({ ok: true });
    setup(ticketFixture(10));
    fireEvent.click(await screen.findByTestId('message-react-1'));
    fireEvent.click(await screen.findByRole('button', { name: 'Reagir com ❤️' }));
    await waitFor(() => expect(callsTo('POST /messages/reactionMessage')).toHaveLength(1));
    expect(callsTo('POST /messages/reactionMessage')[0]?.body).toEqual({ messageId: 1, ticketId: 10, reaction: '❤️' });
    expect(await screen.findByLabelText('Sua reação: ❤️')).toBeInTheDocument();
  });
});

describe('chat panel: reading', () => {
  it('marks the ticket read (unreadMessages: 0) when it opens with unread messages', async () => {
    routes['PUT /tickets/10'] = () => jsonResponse({ ok: true });
    setup(ticketFixture(10, { unreadMessages: 3 }));
    await screen.findByTestId('message-1');
    await waitFor(() => expect(callsTo('PUT /tickets/10')).toHaveLength(1), { timeout: 3000 });
    expect(callsTo('PUT /tickets/10')[0]?.body).toEqual({ unreadMessages: 0 });
  });
});

describe('chat panel: forwarding', () => {
  it('selects at most 10 messages and forwards them to one contact found from 2 letters', async () => {
    const messages = Array.from({ length: 11 }, (_, i) => messageFixture(i + 1));
    routes['GET /contacts/'] = () =>
      jsonResponse({
        contacts: [ticketFixture(1).contact],
        count: 1,
        countCapped: false,
        hasMore: false,
      });
    routes['POST /forward-messages/'] = () => jsonResponse({ ok: true });
    setup(ticketFixture(10), messages);
    await openMenu(1, 'forward');
    for (let id = 2; id <= 10; id += 1) fireEvent.click(screen.getByTestId(`message-select-${id}`));
    expect(screen.getByTestId('chat-forward-bar')).toHaveTextContent('Selecionadas: 10 de 10');
    fireEvent.click(screen.getByTestId('message-select-11'));
    expect(notifyWarning).toHaveBeenCalledWith('Você pode encaminhar no máximo 10 mensagens.');
    expect(screen.getByTestId('message-select-11')).not.toBeChecked();

    fireEvent.click(screen.getByTestId('chat-forward-open'));
    fireEvent.change(await screen.findByTestId('chat-forward-search'), { target: { value: 'M' } });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(callsTo('GET /contacts/')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('chat-forward-search'), { target: { value: 'Ma' } });
    fireEvent.click(await screen.findByTestId('chat-forward-contact-5'));
    fireEvent.click(screen.getByTestId('chat-forward-submit'));
    await waitFor(() => expect(callsTo('POST /forward-messages/')).toHaveLength(1));
    expect(callsTo('POST /forward-messages/')[0]?.body).toEqual({
      messages: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
      contact: 5,
    });
  }, 20_000);
});

describe('chat panel: ticket actions', () => {
  const put = (path: string) => callsTo(`PUT ${path}`).map((c) => c.body);

  it('accepts a pending ticket and explains why the input is closed', async () => {
    routes['PUT /tickets/10'] = () => jsonResponse({ ok: true });
    setup(ticketFixture(10, { status: 'pending', userId: null, user: null }));
    expect(await screen.findByTestId('chat-input-blocked')).toHaveTextContent('Atenda o ticket para responder');
    expect(screen.queryByTestId('chat-input')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('chat-action-accept'));
    await waitFor(() => expect(put('/tickets/10')).toEqual([{ status: 'open', userId: ME }]));
  });

  it('names the campaign a conversation answers, and nothing for other conversations', async () => {
    setup(ticketFixture(10, { campaign: { id: 4, name: 'Black Friday' } }));
    expect(await screen.findByTestId('chat-campaign')).toHaveTextContent('Campanha: Black Friday');
    cleanup();
    setup(ticketFixture(11));
    await screen.findByTestId('message-1');
    expect(screen.queryByTestId('chat-campaign')).not.toBeInTheDocument();
  });

  it('returns an open ticket to the queue, resolves with and without farewell, and force-closes', async () => {
    routes['PUT /tickets/10'] = () => jsonResponse({ ok: true });
    routes['PUT /ticketsForce/10'] = () => jsonResponse({ ok: true });
    routes['GET /farewellPrivateMessage/'] = () => jsonResponse({ farewellPrivateMessage: [] });
    routes['GET /reasons/'] = () => jsonResponse({ reasons: [] });
    routes['GET /settings/'] = () => jsonResponse([]);
    setup(ticketFixture(10, { status: 'open', userId: 3, user: { id: 3, name: 'Bia' } }));
    fireEvent.click(await screen.findByTestId('chat-action-return'));
    await waitFor(() => expect(put('/tickets/10')).toHaveLength(1));
    // The resolve dialog: the channel's closing message (the default), then none.
    for (const mode of ['channel', 'none']) {
      await waitFor(() => expect(screen.getByTestId('chat-action-resolve')).not.toHaveAttribute('data-loading'));
      fireEvent.click(screen.getByTestId('chat-action-resolve'));
      fireEvent.click(await screen.findByTestId(`resolve-farewell-${mode}`));
      fireEvent.click(screen.getByTestId('resolve-confirm'));
      await waitFor(() => expect(screen.queryByTestId('resolve-confirm')).not.toBeInTheDocument());
    }
    fireEvent.click(screen.getByTestId('chat-action-resolve-menu'));
    fireEvent.click(await screen.findByTestId('chat-action-force-close'));
    await waitFor(() => expect(put('/ticketsForce/10')).toHaveLength(1));
    await waitFor(() => expect(put('/tickets/10')).toHaveLength(3));
    expect(put('/tickets/10')).toEqual([
      { status: 'pending', userId: null },
      { status: 'closed', userId: 3, sendFarewell: true },
      { status: 'closed', userId: 3, sendFarewell: false },
    ]);
    expect(put('/ticketsForce/10')).toEqual([{ status: 'closed', userId: 3 }]);
  });

  it('reopens a closed ticket, whose input asks to reopen first', async () => {
    routes['PUT /tickets/10'] = () => jsonResponse({ ok: true });
    setup(ticketFixture(10, { status: 'closed' }));
    expect(await screen.findByTestId('chat-input-blocked')).toHaveTextContent('Reabra o ticket para responder');
    expect(screen.queryByTestId('chat-action-transfer')).not.toBeInTheDocument();
    fireEvent.click(screen.getByTestId('chat-action-reopen'));
    await waitFor(() => expect(put('/tickets/10')).toEqual([{ status: 'open', userId: ME }]));
  });

  it('transfers and shows the catalogue text when the server refuses', async () => {
    routes['GET /queue/'] = () => jsonResponse([{ id: 2, queue: 'Vendas', isActive: true }]);
    routes['GET /users/'] = () =>
      jsonResponse({
        users: [
          {
            id: 8,
            name: 'Bruno',
            email: 'ana@x.test',
            profile: 'user',
            tenantId: 1,
            isOnline: true,
            blockWavoip: false,
            queues: [],
            whatsappAllowed: [],
            configs: {},
            createdAt: '2025-01-01T00:00:00.000Z',
            updatedAt: '2025-01-01T00:00:00.000Z',
          },
        ],
        count: 1,
        hasMore: false,
      });
    routes['PUT /tickets/10'] = () => jsonResponse({ error: 'ERR_TICKET_SAME_ASSIGNEE' }, 400);
    setup(ticketFixture(10));
    fireEvent.click(await screen.findByTestId('chat-action-transfer'));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(callsTo('GET /users/')).toHaveLength(1));
    fireEvent.click(within(dialog).getByTestId('chat-transfer-user'));
    // The dropdown is still in its opening transition in jsdom.
    fireEvent.click(await screen.findByRole('option', { name: 'Bruno', hidden: true }));
    fireEvent.click(within(dialog).getByTestId('chat-transfer-submit'));
    expect(await screen.findByTestId('chat-transfer-error')).toHaveTextContent(
      'Ticket já pertence ao usuário selecionado.',
    );
    expect(put('/tickets/10')).toEqual([{ userId: 8, queueId: 2, status: 'open', isTransference: 1 }]);
  });

  it('lists the logs with the translated type, who and when', async () => {
    routes['GET /tickets/10/logs'] = () =>
      jsonResponse([
        { id: 1, type: 'transfered', createdAt: '2025-03-01T14:30:00', user: { id: 7, name: 'Ana' }, details: {} },
        { id: 2, type: 'autoClose', createdAt: '2025-03-02T08:05:00', user: null, details: {} },
      ]);
    setup(ticketFixture(10));
    fireEvent.click(await screen.findByTestId('chat-action-logs'));
    const table = await screen.findByTestId('chat-logs-table');
    expect(within(table).getByText('Transferiu o ticket')).toBeInTheDocument();
    expect(within(table).getByText('01/03/2025 14:30:00')).toBeInTheDocument();
    expect(within(table).getByText('Fechado por inatividade')).toBeInTheDocument();
    expect(within(table).getByText('Sistema')).toBeInTheDocument();
  });
});
