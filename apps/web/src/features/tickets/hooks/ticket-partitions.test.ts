import { describe, expect, it } from 'vitest';
import { ticketFixture } from '../../../test/tickets';
import { applyLocalFilter, isChatBotTicket, listTabsOf, partitionTickets, unreadTotal } from './ticket-partitions';

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

  describe('the Chatbot sub-tab (tenant flag showChatBot)', () => {
    const flow = { chatFlowId: 3, stepChatFlow: 'node-1' };
    const legacy = { autoReplyId: 2, stepAutoReplyId: 9 };
    const rows = [
      ticketFixture(1, { status: 'pending', userId: null, ...flow }),
      ticketFixture(2, { status: 'pending', userId: null, ...legacy }),
      // A flow without its current step, an auto-reply without its step: the bot does not handle them.
      ticketFixture(3, { status: 'pending', chatFlowId: 3 }),
      ticketFixture(4, { status: 'pending', autoReplyId: 2 }),
      ticketFixture(5, { status: 'pending', chatFlowId: 3, stepChatFlow: '' }),
      // Open or closed with bot fields left over: their status tab.
      ticketFixture(6, { status: 'open', ...flow }),
      ticketFixture(7, { status: 'closed', ...legacy }),
      // Groups have no Chatbot tab.
      ticketFixture(8, { status: 'pending', isGroup: true, ...flow }),
    ];
    const idsOf = (list: { id: number }[]) => list.map((t) => t.id);

    it('recognises the bot by a pending status and a flow with its step, or an auto-reply with its step', () => {
      expect(rows.map(isChatBotTicket)).toEqual([true, true, false, false, false, false, false, true]);
    });

    it('with the flag on, moves the private bot tickets out of pending: every ticket is in exactly one tab', () => {
      const parts = partitionTickets(rows, { showChatBot: true });
      expect(idsOf(parts.private.tabs.chatbot)).toEqual([1, 2]);
      expect(idsOf(parts.private.tabs.pending)).toEqual([3, 4, 5]);
      expect(idsOf(parts.private.tabs.open)).toEqual([6]);
      expect(idsOf(parts.private.tabs.closed)).toEqual([7]);
      expect(idsOf(parts.groups.tabs.pending)).toEqual([8]);
      expect(parts.groups.tabs.chatbot).toEqual([]);
      const all = [parts.private, parts.groups].flatMap((top) => Object.values(top.tabs).flat());
      expect(idsOf(all).sort()).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    });

    it('with the flag off, the bot tickets stay pending and no tab is named Chatbot', () => {
      const parts = partitionTickets(rows);
      expect(parts.private.tabs.chatbot).toEqual([]);
      expect(idsOf(parts.private.tabs.pending)).toEqual([1, 2, 3, 4, 5]);
      expect(listTabsOf('private', false)).toEqual(['open', 'pending', 'closed']);
      expect(listTabsOf('private', true)).toEqual(['open', 'pending', 'chatbot', 'closed']);
      expect(listTabsOf('groups', true)).toEqual(['open', 'pending', 'closed']);
    });
  });
});
