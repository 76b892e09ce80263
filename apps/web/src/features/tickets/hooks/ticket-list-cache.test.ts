import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../../lib/query-keys';
import { fakeSocket } from '../../../test/socket';
import { messageFixture, ticketDtoFixture, ticketFixture, ticketPage } from '../../../test/tickets';
import { startTicketsLive, stopTicketsLive } from '../api/realtime.fixtures';
import { DEFAULT_FILTER, toListFilter } from './attendance-filter';
import {
  applyMessageToPages,
  flattenPages,
  matchesListFilter,
  removeTicketFromPages,
  upsertTicketInPages,
  type TicketPages,
} from './ticket-list-cache';

vi.mock('./ticket-alerts', () => ({ alertTicketActivity: vi.fn() }));
const { alertTicketActivity } = await import('./ticket-alerts');

const filter = toListFilter(DEFAULT_FILTER, '');
const pages = (...lists: ReturnType<typeof ticketFixture>[][]): TicketPages => ({
  pages: lists.map((tickets, i) => ticketPage(tickets, i < lists.length - 1, 10)),
  pageParams: lists.map((_, i) => i + 1),
});
const ids = (data: TicketPages | undefined) => flattenPages(data).map((t) => t.id);

describe('ticket list cache helpers', () => {
  it('matches the server filter a row can answer', () => {
    const row = ticketFixture(1, { status: 'pending', queueId: null, userId: null, unreadMessages: 2 });
    expect(matchesListFilter(row, filter)).toBe(true);
    expect(matchesListFilter(row, { ...filter, status: ['open'] })).toBe(false);
    expect(matchesListFilter(row, { ...filter, includeNotQueueDefined: false })).toBe(false);
    expect(matchesListFilter(ticketFixture(2, { queueId: 3 }), { ...filter, queuesIds: [1, 2] })).toBe(false);
    expect(matchesListFilter(ticketFixture(2, { queueId: 2 }), { ...filter, queuesIds: [1, 2] })).toBe(true);
    expect(matchesListFilter(ticketFixture(2, { whatsappId: 8 }), { ...filter, whatsappIds: [7] })).toBe(false);
    expect(matchesListFilter(ticketFixture(2, { userId: 6 }), { ...filter, selectedUser: [5] })).toBe(false);
    expect(matchesListFilter(ticketFixture(2, { unreadMessages: 0 }), { ...filter, withUnreadMessages: true })).toBe(
      false,
    );
    expect(matchesListFilter(ticketFixture(2, { userId: 5 }), { ...filter, isNotAssignedUser: true })).toBe(false);
    expect(matchesListFilter(ticketFixture(2, { name: 'João Araújo' }), { ...filter, searchParam: 'joao' })).toBe(true);
    expect(matchesListFilter(ticketFixture(2, { name: 'Maria' }), { ...filter, searchParam: 'joao' })).toBe(false);
  });

  it('inserts a new matching ticket at the top and counts it', () => {
    const data = pages([ticketFixture(1), ticketFixture(2)], [ticketFixture(3)]);
    const next = upsertTicketInPages(data, ticketFixture(9), filter);
    expect(ids(next)).toEqual([9, 1, 2, 3]);
    expect(next?.pages[0]?.count).toBe(11);
    expect(upsertTicketInPages(data, ticketFixture(9, { status: 'closed' }), filter)).toBeUndefined();
  });

  it('moves a ticket to the top when its updatedAt is newer, else replaces it in place', () => {
    const data = pages([ticketFixture(1), ticketFixture(2)], [ticketFixture(3)]);
    const newer = upsertTicketInPages(data, ticketFixture(3, { updatedAt: '2025-01-05T00:00:00.000Z' }), filter);
    expect(ids(newer)).toEqual([3, 1, 2]);
    expect(newer?.pages[0]?.count).toBe(10);
    const same = upsertTicketInPages(data, ticketFixture(2, { username: 'Bruno' }), filter);
    expect(ids(same)).toEqual([1, 2, 3]);
    expect(flattenPages(same)[1]?.username).toBe('Bruno');
  });

  it('removes a ticket that no longer matches, or is deleted', () => {
    const data = pages([ticketFixture(1), ticketFixture(2)]);
    expect(ids(upsertTicketInPages(data, ticketFixture(1, { status: 'closed' }), filter))).toEqual([2]);
    const removed = removeTicketFromPages(data, 2);
    expect(ids(removed)).toEqual([1]);
    expect(removed?.pages[0]?.count).toBe(9);
    expect(removeTicketFromPages(data, 42)).toBeUndefined();
  });

  it('a new message updates the preview, unread count and answered flag and moves the row up', () => {
    const data = pages([ticketFixture(1), ticketFixture(2, { answered: true })]);
    const message = messageFixture(50, { id: 2, unreadMessages: 3 }, { body: 'Oi', mediaName: null });
    const next = applyMessageToPages(data, message);
    const row = flattenPages(next)[0];
    expect(row).toMatchObject({ id: 2, lastMessage: 'Oi', unreadMessages: 3, answered: false });
    expect(row?.lastMessageAt).toBe(Date.parse('2025-01-03T12:00:00.000Z'));
    const media = applyMessageToPages(data, messageFixture(51, { id: 1, unreadMessages: 1 }, { mediaName: 'a.pdf' }));
    expect(flattenPages(media)[0]?.lastMessage).toBe('a.pdf');
    expect(applyMessageToPages(data, messageFixture(52, { id: 99, unreadMessages: 1 }))).toBeUndefined();
  });
});

describe('realtime sync of tickets', () => {
  const key = queryKeys.ticketsList(filter);
  const closedKey = queryKeys.ticketsList({ ...filter, status: ['closed'] });

  function setup() {
    const queryClient = new QueryClient();
    queryClient.setQueryData(key, pages([ticketFixture(1), ticketFixture(2, { status: 'pending', userId: null })]));
    queryClient.setQueryData(closedKey, pages([ticketFixture(8, { status: 'closed' })]));
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const refetch = vi.spyOn(queryClient, 'refetchQueries');
    const { socket, emit, handlers } = fakeSocket();
    const stop = startTicketsLive(socket, queryClient, 4);
    const list = (k: readonly unknown[] = key) => ids(queryClient.getQueryData<TicketPages>(k));
    return { queryClient, emit, stop, handlers, list, invalidate, refetch };
  }

  beforeEach(() => vi.mocked(alertTicketActivity).mockClear());
  afterEach(() => stopTicketsLive());

  it('ticket:create and ticket:update go into the lists they match, without a re-fetch', () => {
    const { queryClient, emit, list, invalidate, refetch } = setup();
    emit('4:ticketList', { type: 'ticket:create', payload: ticketDtoFixture(5) });
    expect(list()).toEqual([5, 1, 2]);
    expect(list(closedKey)).toEqual([8]);
    expect(flattenPages(queryClient.getQueryData<TicketPages>(key))[0]).not.toHaveProperty('tenantId');
    // Resolved elsewhere: out of the open/pending list, into the resolved one.
    queryClient.setQueryData(queryKeys.ticket(1), ticketDtoFixture(1));
    emit('4:ticketList', {
      type: 'ticket:update',
      payload: ticketDtoFixture(1, { status: 'closed', updatedAt: '2025-01-06T00:00:00.000Z' }),
    });
    expect(list()).toEqual([5, 2]);
    expect(list(closedKey)).toEqual([1, 8]);
    expect(queryClient.getQueryData<{ status: string }>(queryKeys.ticket(1))?.status).toBe('closed');
    emit('4:ticket', { action: 'update', ticket: ticketDtoFixture(2, { updatedAt: '2025-01-07T00:00:00.000Z' }) });
    expect(list()).toEqual([2, 5]);
    emit('4:ticketList', { type: 'ticket:delete', payload: { id: 5 } });
    expect(list()).toEqual([2]);
    expect(invalidate).not.toHaveBeenCalled();
    expect(refetch).not.toHaveBeenCalled();
  });

  it('chat:create updates the row and alerts for inbound messages only', () => {
    const { queryClient, emit, list } = setup();
    emit('4:ticketList', { type: 'chat:create', payload: messageFixture(60, { id: 2, unreadMessages: 4 }) });
    expect(list()).toEqual([2, 1]);
    expect(flattenPages(queryClient.getQueryData<TicketPages>(key))[0]).toMatchObject({
      unreadMessages: 4,
      lastMessage: 'Olá 60',
    });
    expect(alertTicketActivity).toHaveBeenCalledWith({ ticketId: 2, title: expect.any(String), body: 'Olá 60' });
    vi.mocked(alertTicketActivity).mockClear();
    emit('4:ticketList', {
      type: 'chat:create',
      payload: messageFixture(61, { id: 1, unreadMessages: 0 }, { fromMe: true }),
    });
    emit('4:ticketList', { type: 'chat:create', payload: messageFixture(62, { id: 77, unreadMessages: 1 }) });
    expect(alertTicketActivity).not.toHaveBeenCalled();
  });

  it('notification:new inserts a ticket the lists lack and alerts once', () => {
    const { emit, list, stop, handlers } = setup();
    emit('4:ticketList', { type: 'notification:new', payload: ticketDtoFixture(1, { username: 'changed' }) });
    expect(alertTicketActivity).not.toHaveBeenCalled();
    emit('4:ticketList', {
      type: 'notification:new',
      payload: ticketDtoFixture(12, { status: 'pending', userId: null }),
    });
    expect(list()).toEqual([12, 1, 2]);
    expect(alertTicketActivity).toHaveBeenCalledTimes(1);
    stop();
    expect(handlers.size).toBe(0);
  });
});
