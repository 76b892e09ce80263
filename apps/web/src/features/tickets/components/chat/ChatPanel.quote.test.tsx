/** Quotes and the reply banner name the quoted message's author: the contact, "Você", or the colleague who wrote it. */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MessageDto, TicketDto } from '@conversa/shared';
import { fakeApi, logInAs } from './chat-harness';
import { messageFixture, ticketFixture } from './chat-fixtures';

vi.mock('../../../../lib/notify', () => ({
  notifyError: vi.fn(),
  notifyWarning: vi.fn(),
  notifySuccess: vi.fn(),
  notifyInfo: vi.fn(),
}));

const ME = 7;
const { reset, renderChatPanel } = fakeApi();
const setup = (ticket: TicketDto, messages: MessageDto[]) => renderChatPanel(ticket, messages);

const quoteOf = (quoted: MessageDto): MessageDto['quotedMsg'] => ({
  id: quoted.id,
  messageId: quoted.messageId,
  body: quoted.body,
  mediaType: quoted.mediaType,
  mediaUrl: null,
  mediaName: null,
  fromMe: quoted.fromMe,
  isDeleted: false,
  // In a private chat the server names no sender of a quote (it does in groups).
  contact: null,
});

beforeEach(() => {
  reset();
  logInAs('admin', ME, 'Ana');
});
afterEach(() => vi.unstubAllGlobals());

describe('chat panel: quote authors', { timeout: 30_000 }, () => {
  it("names the customer's quote by the contact, ours by 'Você' or the colleague", async () => {
    const fromCustomer = messageFixture(1, { body: 'Qual o prazo?' });
    const mine = messageFixture(2, { body: 'Cinco dias', fromMe: true, user: { id: ME, name: 'Ana' } });
    const colleague = messageFixture(3, { body: 'Enviado hoje', fromMe: true, user: { id: 9, name: 'Bruno' } });
    const replies = [
      messageFixture(4, { fromMe: true, body: 'r1', quotedMsg: quoteOf(fromCustomer) }),
      messageFixture(5, { body: 'r2', quotedMsg: quoteOf(mine) }),
      messageFixture(6, { body: 'r3', quotedMsg: quoteOf(colleague) }),
    ];
    setup(ticketFixture(10), [fromCustomer, mine, colleague, ...replies]);
    const quote = async (id: number) =>
      within(await screen.findByTestId(`message-${id}`)).getByTestId(/message-quote-/);
    expect(await quote(4)).toHaveTextContent(/^Maria SouzaQual o prazo\?$/);
    expect(await quote(5)).toHaveTextContent(/^VocêCinco dias$/);
    expect(await quote(6)).toHaveTextContent(/^BrunoEnviado hoje$/);
    // Named by what it shows (axe label-content-name-mismatch), where it leads is its description.
    // Virtuoso keeps its list visibility:hidden until it reaches the initial scroll position (no name while hidden).
    const first = await quote(4);
    await waitFor(() => expect(first).toHaveAccessibleName('Maria Souza Qual o prazo?'));
    expect(await quote(4)).toHaveAccessibleDescription('Ir para a mensagem citada de Maria Souza');
  });

  it('the reply banner names the contact too', async () => {
    setup(ticketFixture(10), [messageFixture(1, { body: 'Qual o prazo?' })]);
    fireEvent.click(await screen.findByTestId('message-menu-1'));
    fireEvent.click(await screen.findByTestId('message-action-reply'));
    expect(screen.getByTestId('chat-reply-preview')).toHaveTextContent('Maria Souza');
    expect(screen.getByTestId('chat-reply-preview')).not.toHaveTextContent('Contato');
  });
});
