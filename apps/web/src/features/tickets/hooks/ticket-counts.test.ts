import { describe, expect, it } from 'vitest';
import { ticketFixture } from '../../../test/tickets';
import { subTabBadge } from './ticket-counts';
import { partitionTickets } from './ticket-partitions';

describe('sub-tab badges', () => {
  const bot = (id: number) => ticketFixture(id, { status: 'pending', userId: null, chatFlowId: 1, stepChatFlow: 'a' });
  const rows = [bot(1), bot(2), ticketFixture(3, { status: 'pending' }), ticketFixture(4, { status: 'open' })];
  const parts = partitionTickets(rows, { showChatBot: true }).private;

  it('pending: the server total (bot tickets included) less the bot tickets loaded; chatbot: its loaded rows', () => {
    expect(subTabBadge(parts, 'pending', { count: 3, countCapped: false })).toBe('1');
    expect(subTabBadge(parts, 'pending', { count: 57, countCapped: false })).toBe('55');
    expect(subTabBadge(parts, 'chatbot', { count: 57, countCapped: false })).toBe('2');
    expect(subTabBadge(parts, 'open', { count: 12, countCapped: false })).toBe('12');
  });

  it('never below the pending rows loaded, a capped total stays 1000+, no total counts the rows', () => {
    expect(subTabBadge(parts, 'pending', { count: 1, countCapped: false })).toBe('1');
    expect(subTabBadge(parts, 'pending', { count: 1000, countCapped: true })).toBe('1000+');
    expect(subTabBadge(parts, 'pending', undefined)).toBe('1');
    expect(subTabBadge(parts, 'chatbot', undefined)).toBe('2');
  });

  it('without the Chatbot tab, pending is the server total', () => {
    const flat = partitionTickets(rows).private;
    expect(subTabBadge(flat, 'pending', { count: 57, countCapped: false })).toBe('57');
  });
});
