/**
 * Organisation events: `{T}:queue` and `{T}:tag` refresh the queue and tag lists; a tag changed in place also the
 * loaded contacts and tickets that show it. A contact's `contact:update` gives its loaded tickets its tags.
 */
import { QueryClient, type InfiniteData } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { TicketListResponse } from '@conversa/shared';
import { contactFixture, contactPage } from '../test/contacts';
import { fakeSocket } from '../test/socket';
import { ticketFixture, ticketPage } from '../test/tickets';
import { queryKeys } from './query-keys';
import { startRealtimeSync } from './realtime-sync';

// lib/ imports no feature: a loaded ticket list as the cache holds it (any filter: lib works on the lists' prefix).
type TicketPages = InfiniteData<TicketListResponse, number>;
const VIP = { id: 9, tag: 'VIP', color: '#c92a2a', isActive: true };

function setup() {
  const queryClient = new QueryClient();
  const listKey = queryKeys.ticketsList({ status: ['open', 'pending'], searchParam: '' });
  const contactsKey = queryKeys.contactsList('', 1, 20);
  queryClient.setQueryData(queryKeys.queues, [{ id: 1, queue: 'Vendas', isActive: true }]);
  queryClient.setQueryData(queryKeys.tags, [VIP]);
  queryClient.setQueryData(contactsKey, contactPage([contactFixture(4)]));
  queryClient.setQueryData<TicketPages>(listKey, {
    pages: [ticketPage([ticketFixture(7, { contactId: 4 }), ticketFixture(8, { contactId: 5 })])],
    pageParams: [1],
  });
  const { socket, emit } = fakeSocket();
  const stop = startRealtimeSync(socket, queryClient, 3);
  const stale = (key: readonly unknown[]) => queryClient.getQueryState(key)?.isInvalidated ?? false;
  return { queryClient, emit, stop, stale, listKey, contactsKey };
}

describe('realtime sync of queues and tags', () => {
  it('{T}:queue refreshes the queue list only', () => {
    const { emit, stale, listKey, contactsKey, stop } = setup();
    emit('3:queue', { action: 'update', queue: { id: 1, queue: 'Comercial', isActive: true } });
    expect(stale(queryKeys.queues)).toBe(true);
    expect([stale(queryKeys.tags), stale(listKey), stale(contactsKey)]).toEqual([false, false, false]);
    stop();
  });

  it('{T}:tag create refreshes the tag lists; an update also the contacts and tickets that show tags', () => {
    const { emit, stale, listKey, contactsKey, stop } = setup();
    emit('3:tag', { action: 'create', tag: { ...VIP, id: 10 } });
    expect(stale(queryKeys.tags)).toBe(true);
    expect([stale(listKey), stale(contactsKey), stale(queryKeys.queues)]).toEqual([false, false, false]);
    emit('3:tag', { action: 'update', tag: { ...VIP, color: '#000000' } });
    expect([stale(listKey), stale(contactsKey)]).toEqual([true, true]);
    stop();
  });

  it('contact:update gives the contact’s loaded tickets its tags, not other contacts’ tickets', () => {
    const { queryClient, emit, listKey, stop } = setup();
    const tags = [{ id: VIP.id, tag: VIP.tag, color: VIP.color }];
    emit('3:contactList', { type: 'contact:update', payload: contactFixture(4, { tags }) });
    const rows = queryClient.getQueryData<TicketPages>(listKey)!.pages[0]!.tickets;
    expect(rows.map((row) => [row.id, row.tags])).toEqual([
      [7, tags],
      [8, []],
    ]);
    stop();
  });
});
