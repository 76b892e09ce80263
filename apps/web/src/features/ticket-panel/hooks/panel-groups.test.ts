import { describe, expect, it } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { groupTickets, usersForQueue } from './panel-groups';

const ticket = (id: number, fields: Partial<TicketDto>) =>
  ({ id, status: 'open', queueId: null, queue: null, userId: null, username: null, ...fields }) as TicketDto;

describe('groupTickets', () => {
  const tickets = [
    ticket(1, { queueId: 2, queue: 'Vendas', status: 'open', userId: 7, username: 'Zé' }),
    ticket(2, { queueId: 2, queue: 'Vendas', status: 'pending' }),
    ticket(3, { queueId: 1, queue: 'Suporte', status: 'closed', userId: 7, username: 'Zé' }),
    ticket(4, { status: 'pending' }),
  ];

  it('groups by queue with counts per status, named groups first, the queue-less group last', () => {
    const groups = groupTickets(tickets, 'queue');
    expect(groups.map((g) => [g.key, g.name, g.tickets.map((t) => t.id)])).toEqual([
      ['queue:1', 'Suporte', [3]],
      ['queue:2', 'Vendas', [1, 2]],
      ['queue:none', null, [4]],
    ]);
    expect(groups[1]!.counts).toEqual({ open: 1, pending: 1, closed: 0 });
  });

  it('groups by agent', () => {
    const groups = groupTickets(tickets, 'user');
    expect(groups.map((g) => [g.key, g.tickets.length, g.counts])).toEqual([
      ['user:7', 2, { open: 1, pending: 0, closed: 1 }],
      ['user:none', 2, { open: 0, pending: 2, closed: 0 }],
    ]);
  });
});

describe('usersForQueue', () => {
  const users = [
    { id: 1, queues: [{ id: 2 }] },
    { id: 2, queues: [] },
    { id: 3, queues: [{ id: 1 }, { id: 2 }] },
  ];
  it('keeps only users with access to the target queue (any user without a queue change)', () => {
    expect(usersForQueue(users, 2).map((u) => u.id)).toEqual([1, 3]);
    expect(usersForQueue(users, 1).map((u) => u.id)).toEqual([3]);
    expect(usersForQueue(users, null).map((u) => u.id)).toEqual([1, 2, 3]);
  });
});
