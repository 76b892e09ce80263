/** The chat histories and ticket details the tickets feature's handlers (realtime.ts) keep live in the session. */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { queryKeys } from '../../../lib/query-keys';
import { fakeSocket } from '../../../test/socket';
import { historyOf, messageFixture, pageOf, ticketFixture } from '../components/chat/chat-fixtures';
import { flattenHistory, type MessagesData } from '../hooks/messages-cache';
import { startTicketsLive, stopTicketsLive } from './realtime.fixtures';

afterEach(() => stopTicketsLive());

function setup() {
  const queryClient = new QueryClient();
  queryClient.setQueryData<MessagesData>(
    queryKeys.messages(10),
    historyOf(pageOf([messageFixture(1), messageFixture(2, { fromMe: true, ack: 1 })])),
  );
  const { socket, emit, handlers } = fakeSocket();
  const stop = startTicketsLive(socket, queryClient, 4);
  const items = () => flattenHistory(queryClient.getQueryData<MessagesData>(queryKeys.messages(10))).items;
  return { queryClient, emit, handlers, stop, items };
}

describe('realtime sync of the chat', () => {
  it('appends chat:create to the loaded history of its ticket, once', () => {
    const { emit, items } = setup();
    emit('4:ticketList', { type: 'chat:create', payload: messageFixture(3) });
    emit('4:ticketList', { type: 'chat:create', payload: messageFixture(3) });
    expect(items().map((m) => m.id)).toEqual([1, 2, 3]);
  });

  it('replaces the message on chat:ack, chat:update and chat:delete', () => {
    const { emit, items } = setup();
    emit('4:ticketList', { type: 'chat:ack', payload: messageFixture(2, { fromMe: true, ack: 3 }) });
    emit('4:ticketList', { type: 'chat:update', payload: messageFixture(1, { edition: 'novo texto' }) });
    emit('4:ticketList', {
      type: 'chat:delete',
      payload: messageFixture(1, { edition: 'novo texto', isDeleted: true }),
    });
    expect(items().map((m) => [m.id, m.ack, m.edition, m.isDeleted])).toEqual([
      [1, 0, 'novo texto', true],
      [2, 3, null, false],
    ]);
  });

  it('leaves histories that are not loaded alone, and refreshes a cached ticket on ticket:update', () => {
    const { queryClient, emit, stop, handlers } = setup();
    emit('4:ticketList', {
      type: 'chat:create',
      payload: messageFixture(7, { ticketId: 11, ticket: { ...messageFixture(7).ticket, id: 11 } }),
    });
    expect(queryClient.getQueryData(queryKeys.messages(11))).toBeUndefined();
    queryClient.setQueryData(queryKeys.ticket(10), ticketFixture(10));
    emit('4:ticketList', { type: 'ticket:update', payload: ticketFixture(10, { status: 'closed' }) });
    expect(queryClient.getQueryData<{ status: string }>(queryKeys.ticket(10))?.status).toBe('closed');
    emit('4:ticketList', { type: 'ticket:update', payload: ticketFixture(12) });
    expect(queryClient.getQueryData(queryKeys.ticket(12))).toBeUndefined();
    stop();
    expect(handlers.size).toBe(0);
  });
});
