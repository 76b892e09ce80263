import { describe, expect, it } from 'vitest';
import type { TicketNoteDto } from '@conversa/shared';
import { messageFixture, ticketFixture } from '../components/chat/chat-fixtures';
import { isNoteItem, mergeNotes, noteIdOf } from './chat-notes';

const at = (second: number) => new Date(Date.UTC(2025, 2, 1, 10, 0, second)).toISOString();
const note = (id: number, second: number): TicketNoteDto => ({
  id,
  notes: `nota ${id}`,
  ticketId: 1,
  userId: 7,
  mentionedUserIds: [],
  createdAt: at(second),
  updatedAt: at(second),
  user: { name: 'Ana' },
  ticket: { id: 1, contact: { name: 'Cliente' } },
});
const ticket = ticketFixture(1);
const keys = (items: ReturnType<typeof mergeNotes>['items']) =>
  items.map((m) => (isNoteItem(m) ? `n${noteIdOf(m)}` : `m${m.id}`));

describe('mergeNotes', () => {
  it('places each note at its time among the messages', () => {
    const items = [messageFixture(10), messageFixture(20), messageFixture(30)];
    const merged = mergeNotes(items, 0, [note(2, 25), note(1, 15), note(3, 40)], ticket, false);
    expect(keys(merged.items)).toEqual(['m10', 'n1', 'm20', 'n2', 'm30', 'n3']);
    expect(merged.items[1]).toMatchObject({ mediaType: 'notes', body: 'nota 1', idFront: 'note:1', fromMe: true });
  });

  it('counts the notes placed in the older pages, and holds back notes older than a page still to load', () => {
    const items = [messageFixture(10), messageFixture(20), messageFixture(30)];
    // Two older items (10, 20) and the newest page (30): a note before 30 belongs to the older part.
    const merged = mergeNotes(items, 2, [note(1, 5), note(2, 15), note(3, 25), note(4, 35)], ticket, true);
    expect(keys(merged.items)).toEqual(['m10', 'n2', 'm20', 'n3', 'm30', 'n4']);
    expect(merged.olderCount).toBe(4);
    // Everything loaded: the oldest note goes first and counts as older too.
    const all = mergeNotes(items, 2, [note(1, 5)], ticket, false);
    expect(keys(all.items)).toEqual(['n1', 'm10', 'm20', 'm30']);
    expect(all.olderCount).toBe(3);
  });

  it('keeps bubbles still being sent last, and answers the history as is without notes', () => {
    const sending = { ...messageFixture(99), localState: 'sending' as const };
    const items = [messageFixture(10), sending];
    expect(keys(mergeNotes(items, 0, [note(1, 200)], ticket, false).items)).toEqual(['m10', 'n1', 'm99']);
    const same = mergeNotes(items, 0, [], ticket, false);
    expect(same.items).toBe(items);
  });
});
