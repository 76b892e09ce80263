import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { contactFixture } from '../../../../test/contacts';
import { jsonResponse } from '../../../../test/render';
import { fakeApi, logInAs } from './chat-harness';
import { messageFixture, ticketFixture } from './chat-fixtures';

vi.mock('../../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));
const { notifyError, notifyInfo } = await import('../../../../lib/notify');

const { fetchMock, routes, reset, renderChatPanel } = fakeApi();

const calls = () =>
  fetchMock.mock.calls.map(([url, init]) => {
    const path = String(url)
      .replace(/^\/api/, '')
      .replace(/\?.*$/, '');
    const raw = init?.body;
    return {
      key: `${init?.method ?? 'GET'} ${path}`,
      body: typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw,
    };
  });
const callsTo = (key: string) => calls().filter((c) => c.key === key);

const setup = (ticket: TicketDto) => renderChatPanel(ticket, [messageFixture(1, { ticketId: ticket.id })]);

beforeEach(() => {
  reset();
  vi.mocked(notifyError).mockClear();
  vi.mocked(notifyInfo).mockClear();
  logInAs('admin', 7, 'Ana');
});
afterEach(() => vi.unstubAllGlobals());

const groupContact = contactFixture(9, { name: 'Grupo Vendas', number: '120363012345678901', isGroup: true });
const groupTicket = (overrides: Partial<TicketDto> = {}) =>
  ticketFixture(20, { isGroup: true, contact: groupContact, contactId: 9, ...overrides });
const participants = [
  { id: '5511911110000@c.us', number: '5511911110000', name: 'Bruno Lima', isAdmin: true, userId: null },
  { id: '5511922220000@c.us', number: '5511922220000', name: 'Carla Dias', isAdmin: false, userId: null },
  { id: '5511933330000@c.us', number: '5511933330000', name: null, isAdmin: false, userId: null },
];
const stored = (body: string) => messageFixture(50, { ticketId: 20, fromMe: true, body });

const openSyncHistory = async () => {
  fireEvent.click(await screen.findByTestId('chat-action-more'));
  fireEvent.click(await screen.findByTestId('chat-action-sync-history'));
  return screen.findByTestId('chat-sync-history-limit');
};
const submitLimit = (value: string) => {
  fireEvent.change(screen.getByTestId('chat-sync-history-limit'), { target: { value } });
  fireEvent.click(screen.getByTestId('chat-sync-history-submit'));
};

describe('chat: sync history', () => {
  it.each(['0', '-1', '1.5', '', 'dez'])('refuses the limit %j with the spec text and sends nothing', async (value) => {
    setup(ticketFixture(10));
    await openSyncHistory();
    submitLimit(value);
    expect(await screen.findByText('O limite deve ser um número positivo.')).toBeInTheDocument();
    expect(screen.getByTestId('chat-sync-history-limit')).toHaveAttribute('aria-invalid', 'true');
    expect(callsTo('POST /messages/syncOldByUser')).toHaveLength(0);
  });

  it('asks the channel for the last N messages of a person (@c.us), locked while running, then closes', async () => {
    let answer: (value: Response) => void = () => undefined;
    routes['POST /messages/syncOldByUser'] = () => new Promise<Response>((resolve) => (answer = resolve));
    setup(ticketFixture(10));
    await openSyncHistory();
    submitLimit(' 50 ');
    await waitFor(() => expect(callsTo('POST /messages/syncOldByUser')).toHaveLength(1));
    expect(callsTo('POST /messages/syncOldByUser')[0]?.body).toEqual({
      whatsappId: 1,
      limit: 50,
      contactId: '5511900000005@c.us',
    });
    expect(screen.getByTestId('chat-sync-history-limit')).toBeDisabled();
    expect(screen.getByTestId('chat-sync-history-submit')).toHaveAttribute('data-loading', 'true');
    answer(jsonResponse({ requested: 50 }));
    await waitFor(() => expect(screen.queryByTestId('chat-sync-history-limit')).not.toBeInTheDocument());
    expect(notifyInfo).toHaveBeenCalledWith('Importação iniciada. O progresso aparece em uma notificação.');
  });

  it('uses the group id (@g.us) for a group and shows the catalogue text of a refusal in the dialog', async () => {
    routes['POST /messages/syncOldByUser'] = () => jsonResponse({ error: 'ERR_WAPP_NOT_INITIALIZED' }, 409);
    setup(
      groupTicket({ whatsapp: { id: 1, name: 'Loja', type: 'evo', status: 'CONNECTED', sendEvaluation: 'disabled' } }),
    );
    await openSyncHistory();
    submitLimit('200');
    const alert = await screen.findByTestId('chat-sync-history-error');
    expect(alert).toHaveTextContent('Sessão não inicializada.');
    expect(alert).toHaveAttribute('role', 'alert');
    expect(callsTo('POST /messages/syncOldByUser')[0]?.body).toMatchObject({ contactId: '120363012345678901@g.us' });
    // Still open to try again.
    expect(screen.getByTestId('chat-sync-history-limit')).not.toBeDisabled();
  });

  it('is offered to admins only, and only on the live WhatsApp channel types', async () => {
    localStorage.setItem('profile', 'super');
    setup(ticketFixture(10));
    await screen.findByTestId('chat-action-logs');
    expect(screen.queryByTestId('chat-action-more')).not.toBeInTheDocument();
  });

  it('is not offered on a WhatsApp Cloud (waba) ticket', async () => {
    setup(
      ticketFixture(11, {
        whatsapp: { id: 1, name: 'Cloud', type: 'waba', status: 'CONNECTED', sendEvaluation: 'disabled' },
      }),
    );
    await screen.findByTestId('chat-action-logs');
    expect(screen.queryByTestId('chat-action-more')).not.toBeInTheDocument();
  });
});

const input = () => screen.getByTestId('chat-input');
const type = (value: string) => fireEvent.change(input(), { target: { value } });
const key = (name: string) => fireEvent.keyDown(input(), { key: name });
const activeOption = () => {
  const id = input().getAttribute('aria-activedescendant');
  return id ? document.getElementById(id) : null;
};

describe('chat: mentions in a group', () => {
  beforeEach(() => {
    routes['POST /messages/listParticipants'] = () => jsonResponse({ participants });
  });

  it('opens a listbox on @, filters as the agent types, and moves with the arrows', async () => {
    setup(groupTicket());
    await screen.findByTestId('message-1');
    type('Oi @');
    const listbox = await screen.findByRole('listbox', { name: 'Participantes do grupo' });
    expect(callsTo('POST /messages/listParticipants')[0]?.body).toEqual({ ticket: 20 });
    expect(await within(listbox).findAllByRole('option')).toHaveLength(3);
    expect(input()).toHaveAttribute('aria-controls', listbox.id);
    expect(input()).toHaveAttribute('aria-autocomplete', 'list');
    expect(activeOption()).toHaveTextContent('Bruno Lima');
    expect(activeOption()).toHaveAttribute('aria-selected', 'true');
    key('ArrowDown');
    expect(activeOption()).toHaveTextContent('Carla Dias');
    key('ArrowDown');
    key('ArrowDown');
    expect(activeOption()).toHaveTextContent('Bruno Lima');
    key('ArrowUp');
    expect(activeOption()).toHaveTextContent('5511933330000');
    type('Oi @cár');
    await waitFor(() => expect(within(listbox).getAllByRole('option')).toHaveLength(1));
    expect(activeOption()).toHaveTextContent('Carla Dias');
    type('Oi @zz');
    expect(await screen.findByText('Nenhum participante encontrado.')).toBeInTheDocument();
    expect(input()).not.toHaveAttribute('aria-activedescendant');
  });

  it('Enter inserts @number instead of sending; Escape closes the list without touching the text', async () => {
    setup(groupTicket());
    await screen.findByTestId('message-1');
    type('Oi @car');
    await screen.findByTestId('chat-mention-option-5511922220000');
    key('Enter');
    await waitFor(() => expect(input()).toHaveValue('Oi @5511922220000 '));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(callsTo('POST /messages/20')).toHaveLength(0);
    type('Oi @5511922220000 e @');
    await screen.findByRole('listbox');
    key('Escape');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(input()).toHaveValue('Oi @5511922220000 e @');
  });

  it('sends a text that mentions someone through /messages/mentionMessage, and nothing twice', async () => {
    routes['POST /messages/mentionMessage'] = () => jsonResponse(stored('Oi @5511922220000 tudo bem?'));
    setup(groupTicket());
    await screen.findByTestId('message-1');
    type('Oi @car');
    fireEvent.click(await screen.findByTestId('chat-mention-option-5511922220000'));
    await waitFor(() => expect(input()).toHaveValue('Oi @5511922220000 '));
    type('Oi @5511922220000 tudo bem?');
    key('Enter');
    await waitFor(() => expect(callsTo('POST /messages/mentionMessage')).toHaveLength(1));
    expect(callsTo('POST /messages/mentionMessage')[0]?.body).toEqual({
      body: 'Oi @5511922220000 tudo bem?',
      ticket: 20,
      participants: ['5511922220000'],
    });
    expect(callsTo('POST /messages/20')).toHaveLength(0);
    await waitFor(() => expect(input()).toHaveValue(''));
    // The stored message arrives by chat:create: no bubble is added from the answer.
    expect(screen.queryByTestId('message-50')).not.toBeInTheDocument();
  });

  it('does not send the half-typed @name while the participants are loading', async () => {
    let answer: (value: Response) => void = () => undefined;
    routes['POST /messages/listParticipants'] = () => new Promise<Response>((resolve) => (answer = resolve));
    setup(groupTicket());
    await screen.findByTestId('message-1');
    type('@car');
    expect(await screen.findByText('Carregando participantes…')).toBeInTheDocument();
    key('Enter');
    expect(callsTo('POST /messages/20')).toHaveLength(0);
    answer(jsonResponse({ participants }));
    await screen.findByTestId('chat-mention-option-5511922220000');
    key('Enter');
    await waitFor(() => expect(input()).toHaveValue('@5511922220000 '));
  });

  it('sends a text without mentions the normal way', async () => {
    routes['POST /messages/20'] = () => jsonResponse(stored('bom dia'));
    setup(groupTicket());
    await screen.findByTestId('message-1');
    type('bom dia');
    key('Enter');
    await waitFor(() => expect(callsTo('POST /messages/20')).toHaveLength(1));
    expect(callsTo('POST /messages/mentionMessage')).toHaveLength(0);
  });

  it('keeps the text and shows the catalogue text when the mention send is refused', async () => {
    routes['POST /messages/mentionMessage'] = () => jsonResponse({ error: 'ERR_WAPP_NOT_INITIALIZED' }, 409);
    setup(groupTicket());
    await screen.findByTestId('message-1');
    type('@bru');
    await screen.findByTestId('chat-mention-option-5511911110000');
    key('Enter');
    await waitFor(() => expect(input()).toHaveValue('@5511911110000 '));
    type('@5511911110000 reunião às 10');
    key('Enter');
    await waitFor(() =>
      expect(notifyError).toHaveBeenCalledWith('Sessão não inicializada.', 'A mensagem com menção não foi enviada.'),
    );
    expect(input()).toHaveValue('@5511911110000 reunião às 10');
  });

  it('shows why the participants could not be read', async () => {
    routes['POST /messages/listParticipants'] = () => jsonResponse({ error: 'ERR_CHANNEL_TYPE_UNSUPPORTED' }, 400);
    setup(groupTicket());
    await screen.findByTestId('message-1');
    type('@');
    expect(
      await screen.findByText(
        'Não foi possível carregar os participantes: Este tipo de conexão ainda não está disponível.',
      ),
    ).toBeInTheDocument();
  });

  it.each([
    ['chat-mention-all', 'POST /messages/mentionAllMessage'],
    ['chat-mention-ghost', 'POST /messages/ghostMessage'],
  ])('%s sends the typed text to %s', async (item, route) => {
    routes[route] = () => jsonResponse(stored('Reunião agora'));
    setup(groupTicket());
    await screen.findByTestId('message-1');
    type('  Reunião agora ');
    fireEvent.click(screen.getByTestId('chat-mention-menu'));
    fireEvent.click(await screen.findByTestId(item));
    await waitFor(() => expect(callsTo(route)).toHaveLength(1));
    expect(callsTo(route)[0]?.body).toEqual({ body: 'Reunião agora', ticket: 20 });
    await waitFor(() => expect(input()).toHaveValue(''));
  });

  it('disables the mention-everyone entries while nothing is typed', async () => {
    setup(groupTicket());
    await screen.findByTestId('message-1');
    fireEvent.click(screen.getByTestId('chat-mention-menu'));
    expect(await screen.findByTestId('chat-mention-all')).toBeDisabled();
    expect(screen.getByTestId('chat-mention-ghost')).toBeDisabled();
  });

  it('has no picker nor mention menu outside groups', async () => {
    setup(ticketFixture(10));
    await screen.findByTestId('message-1');
    type('mail @');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.queryByTestId('chat-mention-menu')).not.toBeInTheDocument();
    expect(callsTo('POST /messages/listParticipants')).toHaveLength(0);
  });
});
