import { describe, expect, it } from 'vitest';
import { historyOf, messageFixture, pageOf } from '../components/chat/chat-fixtures';
import {
  addOptimistic,
  flattenHistory,
  patchMessage,
  removeOptimistic,
  replaceMessage,
  setOptimisticState,
  upsertMessage,
  type ChatMessage,
} from './messages-cache';

const ids = (data: Parameters<typeof flattenHistory>[0]) => flattenHistory(data).items.map((m) => m.id);
const local = (idFront: string, body: string, state: ChatMessage['localState'] = 'sending'): ChatMessage => ({
  ...messageFixture(-1, { body, fromMe: true, createdAt: '2025-03-01T11:00:00.000Z' }),
  idFront,
  localState: state,
});

describe('messages cache', () => {
  it('flattens pages oldest first, each id once, with older pages counted for firstItemIndex', () => {
    const newest = pageOf([messageFixture(4), messageFixture(5)], true);
    // Page 2 was read after a new message shifted the offsets: message 4 is on both pages.
    const older = pageOf([messageFixture(2), messageFixture(3), messageFixture(4)]);
    const flat = flattenHistory(historyOf(newest, older));
    expect(flat.items.map((m) => m.id)).toEqual([2, 3, 4, 5]);
    expect(flat.olderCount).toBe(2);
  });

  it('puts messages waiting to be sent (messagesOffLine) after the history', () => {
    const data = historyOf(
      pageOf([messageFixture(1), messageFixture(2)], false, [messageFixture(9, { fromMe: true })]),
    );
    expect(ids(data)).toEqual([1, 2, 9]);
  });

  it('appends a new message to the newest page and ignores one it already holds', () => {
    const data = historyOf(pageOf([messageFixture(1)], true), pageOf([messageFixture(0)]));
    const once = upsertMessage(data, messageFixture(2));
    expect(ids(once)).toEqual([0, 1, 2]);
    const twice = upsertMessage(once, messageFixture(2, { body: 'de novo' }));
    expect(ids(twice)).toEqual([0, 1, 2]);
    expect(flattenHistory(twice).items[2]?.body).toBe('de novo');
  });

  it('replaces the optimistic bubble with the same idFront', () => {
    const data = addOptimistic(historyOf(pageOf([messageFixture(1)])), local('abc', 'Olá'));
    const server = { ...messageFixture(50, { body: 'Olá', fromMe: true }), idFront: 'abc' };
    const next = upsertMessage(data, server);
    expect(ids(next)).toEqual([1, 50]);
    expect(flattenHistory(next).items[1]?.localState).toBeUndefined();
  });

  it('leaves one bubble whichever of the socket copy and the POST answer arrives first', () => {
    const data = addOptimistic(historyOf(pageOf([messageFixture(1)])), local('abc', 'Olá'));
    const server = { ...messageFixture(50, { body: 'Olá', fromMe: true }), idFront: 'abc' };
    // The socket copy of a message sent by an older server, without the echo, lands while the POST is pending...
    const echoless = upsertMessage(data, { ...server, idFront: null });
    expect(ids(echoless)).toEqual([1, 50, -1]);
    // ...then the POST answer (same id) must take the pending bubble away as well.
    const answered = upsertMessage(echoless, server, 'abc');
    expect(ids(answered)).toEqual([1, 50]);
    // With the echo, the socket copy replaces the bubble at once and the later answer changes nothing.
    const socketFirst = upsertMessage(data, server);
    expect(ids(socketFirst)).toEqual([1, 50]);
    expect(ids(upsertMessage(socketFirst, server, 'abc'))).toEqual([1, 50]);
  });

  it('matches a sent bubble by body when the server does not echo the idFront', () => {
    let data = addOptimistic(historyOf(pageOf([messageFixture(1)])), local('abc', 'Olá'));
    // Still sending: an echo without idFront cannot be told apart, so it is not matched yet.
    expect(ids(upsertMessage(data, messageFixture(51, { body: 'Olá', fromMe: true })))).toEqual([1, 51, -1]);
    data = setOptimisticState(data, 'abc', 'sent');
    expect(ids(upsertMessage(data, messageFixture(51, { body: 'Olá', fromMe: true })))).toEqual([1, 51]);
  });

  it('keeps bubbles sent from here last until they are confirmed', () => {
    const data = addOptimistic(historyOf(pageOf([messageFixture(1)])), local('abc', 'Olá'));
    const withIncoming = upsertMessage(data, messageFixture(2));
    expect(ids(withIncoming)).toEqual([1, 2, -1]);
  });

  it('replaces updates in place (ack, edits, deletion) in any page, and leaves unknown ids alone', () => {
    const data = historyOf(pageOf([messageFixture(5)], true), pageOf([messageFixture(3, { fromMe: true, ack: 1 })]));
    const acked = replaceMessage(data, messageFixture(3, { fromMe: true, ack: 3 }));
    expect(flattenHistory(acked).items[0]?.ack).toBe(3);
    expect(acked.pages[0]).toBe(data.pages[0]);
    expect(replaceMessage(data, messageFixture(99))).toBe(data);
    const deleted = patchMessage(data, 5, { isDeleted: true });
    expect(flattenHistory(deleted).items[1]?.isDeleted).toBe(true);
  });

  it('marks and removes optimistic bubbles by idFront', () => {
    const data = addOptimistic(historyOf(pageOf([])), local('x', 'a'));
    expect(flattenHistory(setOptimisticState(data, 'x', 'failed')).items[0]?.localState).toBe('failed');
    expect(ids(removeOptimistic(data, 'x'))).toEqual([]);
  });
});
