/**
 * "Espiar pendentes" in the chat (issue 23 item 4): with `spyticket` off an agent clicking a pending ticket not
 * accepted sees an accept prompt instead of the conversation and its messages are not asked for; accepting opens
 * the chat. With the setting on, or for an admin, the conversation shows. A refusal the web could not foresee (a
 * supervisor acting as a user) shows the same prompt.
 */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TicketDto } from '@conversa/shared';
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
const keyOf = (url: unknown, init?: RequestInit) => requestKey(url, init).replace(/\/$/, '');
const { fetchMock, routes, reset, renderChatPanel } = fakeApi(keyOf);
const callsTo = (key: string) => fetchMock.mock.calls.filter(([url, init]) => keyOf(url, init) === key);

function setup(ticket: TicketDto, spyticket: 'enabled' | 'disabled', profile = 'user') {
  logInAs(profile, ME, 'Zé');
  renderChatPanel(ticket, [messageFixture(1, { body: 'segredo do cliente' })], {
    'GET /settings': () => jsonResponse([{ key: 'spyticket', value: spyticket }]),
    [`PUT /tickets/${ticket.id}`]: () => jsonResponse({ ...ticket, status: 'open', userId: ME }),
  });
}

beforeEach(() => reset());
afterEach(() => vi.unstubAllGlobals());

const pending = () => ticketFixture(10, { status: 'pending', userId: null });

describe('chat panel: spyticket', { timeout: 30_000 }, () => {
  it('off: an agent gets the accept prompt, no messages asked for; accepting opens the conversation', async () => {
    setup(pending(), 'disabled');
    expect(await screen.findByTestId('chat-spy-prompt')).toHaveTextContent('Atenda o ticket para ver a conversa');
    expect(screen.queryByText('segredo do cliente')).not.toBeInTheDocument();
    expect(screen.queryByTestId('chat-input-blocked')).not.toBeInTheDocument();
    expect(callsTo('GET /messages/10')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('chat-spy-accept'));
    await waitFor(() => expect(callsTo('PUT /tickets/10')).toHaveLength(1));
    expect(JSON.parse(String(callsTo('PUT /tickets/10')[0]![1]?.body))).toMatchObject({ status: 'open', userId: ME });
    expect(await screen.findByText('segredo do cliente')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-spy-prompt')).not.toBeInTheDocument();
  });

  it('on: the agent reads the pending conversation', async () => {
    setup(pending(), 'enabled');
    expect(await screen.findByText('segredo do cliente')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-spy-prompt')).not.toBeInTheDocument();
  });

  it('off: an admin reads it, and an open ticket is read as before', async () => {
    setup(pending(), 'disabled', 'admin');
    expect(await screen.findByText('segredo do cliente')).toBeInTheDocument();
    expect(screen.queryByTestId('chat-spy-prompt')).not.toBeInTheDocument();
  });

  it("the server's refusal (a supervisor acting as a user) shows the same prompt", async () => {
    routes['GET /messages/10'] = () => jsonResponse({ error: 'ERR_NO_PERMISSION' }, 403);
    routes['POST /auth/refresh_token'] = () => jsonResponse({ token: 'jwt2' });
    setup(pending(), 'disabled', 'super');
    expect(await screen.findByTestId('chat-spy-prompt')).toBeInTheDocument();
  });
});
