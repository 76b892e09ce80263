import { describe, expect, it } from 'vitest';
import { ticketFixture } from '../../../test/tickets';
import { applyLocalFilter, partitionTickets, unreadTotal } from './ticket-partitions';

const tag = (id: number) => ({ id, tag: `T${id}`, color: '#000' });

describe('ticket partitions (client-contract §4.2)', () => {
  const tickets = [
    ticketFixture(1, { status: 'open', unreadMessages: 2, tags: [tag(1)] }),
    ticketFixture(2, { status: 'pending', kanban: 4 }),
    ticketFixture(3, { status: 'pending', unreadMessages: 1, tags: [tag(2)], kanban: 4 }),
    ticketFixture(4, { status: 'closed' }),
    ticketFixture(5, { status: 'open', isGroup: true, unreadMessages: 5 }),
    ticketFixture(6, { status: 'pending', isGroup: true }),
  ];

  it('splits by isGroup then status, counting unread tickets per top tab', () => {
    const parts = partitionTickets(tickets);
    const idsOf = (list: { id: number }[]) => list.map((t) => t.id);
    expect(idsOf(parts.private.tabs.open)).toEqual([1]);
    expect(idsOf(parts.private.tabs.pending)).toEqual([2, 3]);
    expect(idsOf(parts.private.tabs.closed)).toEqual([4]);
    expect(idsOf(parts.groups.tabs.open)).toEqual([5]);
    expect(idsOf(parts.groups.tabs.pending)).toEqual([6]);
    expect(parts.groups.tabs.closed).toEqual([]);
    expect(parts.private.unread).toBe(2);
    expect(parts.groups.unread).toBe(1);
    expect(unreadTotal(parts)).toBe(3);
  });

  it('applies tag and kanban filters locally', () => {
    expect(applyLocalFilter(tickets, { tags: [], kanbans: [] })).toBe(tickets);
    expect(applyLocalFilter(tickets, { tags: [1, 2], kanbans: [] }).map((t) => t.id)).toEqual([1, 3]);
    expect(applyLocalFilter(tickets, { tags: [], kanbans: [4] }).map((t) => t.id)).toEqual([2, 3]);
    expect(applyLocalFilter(tickets, { tags: [2], kanbans: [4] }).map((t) => t.id)).toEqual([3]);
  });
});
