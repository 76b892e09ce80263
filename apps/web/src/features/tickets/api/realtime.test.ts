/**
 * The tickets feature's handlers (realtime.ts) as the session runs them: notification:new into the lists, and the tab
 * totals that follow ticket events.
 */
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../../lib/query-keys';
import { fakeSocket } from '../../../test/socket';
import { messageFixture, ticketDtoFixture, ticketFixture, ticketPage } from '../../../test/tickets';
import { DEFAULT_FILTER, toListFilter } from '../hooks/attendance-filter';
import { flattenPages, type TicketPages } from '../hooks/ticket-list-cache';
import { startTicketsLive, stopTicketsLive } from './realtime.fixtures';

vi.mock('../hooks/ticket-alerts', () => ({ alertTicketActivity: vi.fn() }));

afterEach(() => stopTicketsLive());

describe('realtime sync of notification:new', () => {
  const active = queryKeys.ticketsList(toListFilter(DEFAULT_FILTER, ''));
  const openOnly = queryKeys.ticketsList({ ...toListFilter(DEFAULT_FILTER, ''), status: ['open'] });

  it('leaves a ticket already listed as it is: rows, other lists and the detail keep their full data', () => {
    const queryClient = new QueryClient();
    const listed = ticketFixture(1, { unreadMessages: 3, lastMessage: 'Preciso de ajuda' });
    queryClient.setQueryData<TicketPages>(active, {
      pages: [ticketPage([ticketFixture(2), listed], true, 30)],
      pageParams: [1],
    });
    // Ticket 1 sorts on a page of this list not loaded yet: it must not jump in at the top with the partial payload.
    queryClient.setQueryData<TicketPages>(openOnly, {
      pages: [ticketPage([ticketFixture(2)], true, 20)],
      pageParams: [1],
    });
    const detail = ticketDtoFixture(1, { unreadMessages: 3, lastMessage: 'Preciso de ajuda' });
    queryClient.setQueryData(queryKeys.ticket(1), detail);
    const { socket, emit } = fakeSocket();
    startTicketsLive(socket, queryClient, 3);

    const partial = ticketDtoFixture(1, {
      lastMessage: '',
      unreadMessages: 0,
      username: null,
      updatedAt: '2025-03-01T00:00:00.000Z',
    });
    emit('3:ticketList', { type: 'notification:new', payload: partial });

    const rows = flattenPages(queryClient.getQueryData<TicketPages>(active));
    expect(rows.map((t) => t.id)).toEqual([2, 1]);
    expect(rows[1]).toBe(listed);
    expect(queryClient.getQueryData<TicketPages>(active)?.pages[0]?.count).toBe(30);
    expect(flattenPages(queryClient.getQueryData<TicketPages>(openOnly)).map((t) => t.id)).toEqual([2]);
    expect(queryClient.getQueryData(queryKeys.ticket(1))).toBe(detail);
  });

  it('puts a ticket no list holds into the lists it matches, without touching its loaded detail', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData<TicketPages>(active, {
      pages: [ticketPage([ticketFixture(2)], false, 1)],
      pageParams: [1],
    });
    const detail = ticketDtoFixture(9, { status: 'pending', userId: null, lastMessage: 'Oi' });
    queryClient.setQueryData(queryKeys.ticket(9), detail);
    const { socket, emit } = fakeSocket();
    startTicketsLive(socket, queryClient, 3);
    emit('3:ticketList', {
      type: 'notification:new',
      payload: ticketDtoFixture(9, { status: 'pending', userId: null, lastMessage: '' }),
    });
    expect(flattenPages(queryClient.getQueryData<TicketPages>(active)).map((t) => t.id)).toEqual([9, 2]);
    expect(queryClient.getQueryData(queryKeys.ticket(9))).toBe(detail);
  });
});

describe('realtime sync of the tab totals', () => {
  afterEach(() => vi.useRealTimers());
  const filter = toListFilter(DEFAULT_FILTER, '');
  const countKey = (isGroup: boolean, status: string) => queryKeys.ticketsCount(filter, isGroup, status);

  function setup() {
    const queryClient = new QueryClient();
    queryClient.setQueryData<TicketPages>(queryKeys.ticketsList(filter), {
      pages: [ticketPage([ticketFixture(1, { status: 'pending', userId: null }), ticketFixture(2)], true, 60)],
      pageParams: [1],
    });
    queryClient.setQueryData(countKey(false, 'open'), { count: 20, countCapped: false });
    queryClient.setQueryData(countKey(false, 'pending'), { count: 40, countCapped: false });
    queryClient.setQueryData(countKey(true, 'open'), { count: 1000, countCapped: true });
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    const { socket, emit } = fakeSocket();
    startTicketsLive(socket, queryClient, 3);
    const count = (isGroup: boolean, status: string) =>
      queryClient.getQueryData<{ count: number }>(countKey(isGroup, status))?.count;
    return { queryClient, invalidate, emit, count };
  }

  it('moves a listed ticket between the totals it leaves and joins, without a request', () => {
    const { invalidate, emit, count } = setup();
    emit('3:ticketList', { type: 'ticket:update', payload: ticketDtoFixture(1, { status: 'open', userId: 5 }) });
    expect([count(false, 'open'), count(false, 'pending')]).toEqual([21, 39]);
    // The same news twice (the own mutation's answer, then the socket) moves nothing more.
    emit('3:ticket', { action: 'update', ticket: ticketDtoFixture(1, { status: 'open', userId: 5 }) });
    expect([count(false, 'open'), count(false, 'pending')]).toEqual([21, 39]);
    emit('3:ticketList', { type: 'ticket:create', payload: ticketDtoFixture(9, { status: 'pending', userId: null }) });
    emit('3:ticketList', { type: 'ticket:delete', payload: { id: 2 } });
    expect([count(false, 'open'), count(false, 'pending')]).toEqual([20, 40]);
    // A capped total stays capped; a ticket of another top tab leaves it alone.
    emit('3:ticketList', { type: 'ticket:create', payload: ticketDtoFixture(10, { isGroup: true }) });
    expect(count(true, 'open')).toBe(1000);
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('reads the totals again, once per burst, for tickets no list holds; messages change none', () => {
    vi.useFakeTimers();
    const { invalidate, emit, count } = setup();
    for (let id = 100; id < 110; id += 1) {
      emit('3:ticketList', { type: 'ticket:update', payload: ticketDtoFixture(id, { status: 'closed' }) });
    }
    emit('3:ticketList', { type: 'ticket:delete', payload: { id: 200 } });
    emit('3:ticketList', { type: 'chat:create', payload: messageFixture(5, { id: 1, unreadMessages: 1 }) });
    expect(count(false, 'open')).toBe(20);
    expect(invalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1500);
    expect(invalidate).toHaveBeenCalledTimes(1);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.ticketsCounts });
  });
});
