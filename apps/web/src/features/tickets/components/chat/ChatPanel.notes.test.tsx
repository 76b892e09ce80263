/**
 * Notes in the chat: the ticket's notes merged into the history as "Nota interna" bubbles (edit/delete only on one's
 * own, for an agent), the note modal's @ user picker (arrows + Enter) and save, and the one-step protocol send.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketNoteDto } from '@conversa/shared';
import { jsonResponse } from '../../../../test/render';
import { fakeApi, logInAs, requestKey } from './chat-harness';
import { messageFixture, ticketFixture } from './chat-fixtures';

vi.mock('../../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const ME = 7;
const { fetchMock, routes, reset, renderChatPanel } = fakeApi();
const at = (second: number) => new Date(Date.UTC(2025, 2, 1, 10, 0, second)).toISOString();
const note = (id: number, second: number, userId: number, name: string, text = `nota ${id}`): TicketNoteDto => ({
  id,
  notes: text,
  ticketId: 5,
  userId,
  mentionedUserIds: [],
  createdAt: at(second),
  updatedAt: at(second),
  user: { name },
  ticket: { id: 5, contact: { name: 'Cliente' } },
});
const team = [
  { id: 8, name: 'Ana Paula' },
  { id: 9, name: 'Bruno' },
  { id: 10, name: 'Anderson' },
].map((u) => ({
  ...u,
  profile: 'user',
  isOnline: true,
  count: 0,
  text: null,
  timestamp: null,
  read: null,
  senderId: null,
}));

const bodiesOf = (key: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => requestKey(url, init) === key)
    .map(([, init]) => JSON.parse(String(init?.body)) as unknown);

function setup(notes: TicketNoteDto[]) {
  const ticket = ticketFixture(5, { status: 'open', userId: ME });
  renderChatPanel(ticket, [messageFixture(10), messageFixture(30, { fromMe: true })], {
    'GET /ticketNotes/5/logs': () => jsonResponse(notes),
    'GET /users/chat-privado/': () => jsonResponse({ users: team }),
  });
}

beforeEach(() => {
  reset();
  logInAs('user', ME, 'Eu');
});
afterEach(() => vi.unstubAllGlobals());

describe('chat notes', () => {
  it('shows the notes among the messages at their time, as internal notes, changeable only by their author', async () => {
    setup([note(1, 20, ME, 'Eu', 'Ligar para @Bruno amanhã'), note(2, 40, 99, 'Outra')]);
    const own = await screen.findByTestId('chat-note-1');
    const other = await screen.findByTestId('chat-note-2');
    const history = screen.getByTestId('chat-history');
    const order = [...history.querySelectorAll('[data-testid^="message-"], [data-testid^="chat-note-"]')]
      .map((el) => el.getAttribute('data-testid'))
      .filter((id) => /^(message-\d+|chat-note-\d+)$/.test(id ?? ''));
    expect(order).toEqual(['message-10', 'chat-note-1', 'message-30', 'chat-note-2']);
    expect(own.querySelector('[role="note"]')).toHaveAttribute('aria-label', 'Nota interna de Eu');
    expect(own).toHaveTextContent('Nota interna');
    // The note is not a message: no ticks, no message menu; edit and delete only on one's own note.
    expect(within(own).getByTestId('chat-note-edit-1')).toBeInTheDocument();
    expect(within(other).queryByTestId('chat-note-edit-2')).toBeNull();
    expect(within(other).queryByTestId('chat-note-delete-2')).toBeNull();
  });

  it('writes a note with an @ mention picked by keyboard, and shows it', async () => {
    routes['POST /ticketNotes'] = (init) => {
      const body = JSON.parse(String(init.body)) as { notes: string };
      return jsonResponse(note(3, 50, ME, 'Eu', body.notes), 201);
    };
    setup([]);
    fireEvent.click(await screen.findByTestId('chat-action-note'));
    const box = await screen.findByTestId('note-text');
    fireEvent.change(box, { target: { value: 'Falar com @an', selectionStart: 13 } });
    const picker = await screen.findByTestId('note-mention-picker');
    const options = await within(picker).findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Ana Paula', 'Anderson']);
    expect(box).toHaveAttribute('aria-activedescendant', options[0]!.id);
    fireEvent.keyDown(box, { key: 'ArrowDown' });
    expect(box).toHaveAttribute('aria-activedescendant', options[1]!.id);
    fireEvent.keyDown(box, { key: 'ArrowUp' });
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(box).toHaveValue('Falar com @Ana Paula ');
    expect(screen.queryByTestId('note-mention-picker')).toBeNull();
    fireEvent.click(screen.getByTestId('note-save'));
    await waitFor(() =>
      expect(bodiesOf('POST /ticketNotes')).toEqual([{ notes: 'Falar com @Ana Paula', ticketId: 5 }]),
    );
    expect(await screen.findByTestId('chat-note-3')).toHaveTextContent('Falar com @Ana Paula');
  });

  it('refuses an empty note with the required text and sends nothing', async () => {
    setup([]);
    fireEvent.click(await screen.findByTestId('chat-action-note'));
    fireEvent.click(await screen.findByTestId('note-save'));
    expect(await screen.findByText('Nota é obrigatório')).toBeInTheDocument();
    expect(bodiesOf('POST /ticketNotes')).toEqual([]);
  });

  it('sends the protocol after a confirmation, in one call', async () => {
    routes['POST /ticketProtocols/send'] = () =>
      jsonResponse(
        {
          id: 1,
          protocol: '20250301-00005',
          ticketId: 5,
          userId: ME,
          createdAt: at(1),
          user: { name: 'Eu' },
          ticket: { id: 5, contact: { name: 'Cliente', number: null } },
        },
        201,
      );
    setup([]);
    fireEvent.click(await screen.findByTestId('chat-action-protocol'));
    fireEvent.click(await screen.findByTestId('confirm-protocol'));
    await waitFor(() => expect(bodiesOf('POST /ticketProtocols/send')).toEqual([{ ticketId: 5 }]));
  });
});
