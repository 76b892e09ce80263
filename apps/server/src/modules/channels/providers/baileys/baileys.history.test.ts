/**
 * A login's history chunk -> imported message events (H8): only messages within the channel's dates (bounds
 * inclusive, either optional), group chats only when the channel imports groups, other kinds left out, every event
 * marked imported.
 */
import type { WAMessage } from 'baileys';
import { describe, expect, it } from 'vitest';
import type { HistoryImportOptions } from '../../channels.adapter.js';
import { historyCandidates, historyEvents } from './baileys.history.js';
import { emptyContext } from './baileys.parse.js';

const T0 = 1_763_700_000; // seconds
const CUSTOMER = '5511988887777@s.whatsapp.net';
const GROUP = '120363000000000009@g.us';
const wa = (id: string, seconds: number | null, extra: Partial<WAMessage> = {}): WAMessage =>
  ({
    key: { remoteJid: CUSTOMER, fromMe: false, id },
    message: { conversation: `texto ${id}` },
    ...(seconds === null ? {} : { messageTimestamp: seconds }),
    pushName: 'Maria',
    ...extra,
  }) as WAMessage;
const inGroup = (id: string, seconds: number) =>
  wa(id, seconds, { key: { remoteJid: GROUP, fromMe: false, id, participant: '5521911112222@s.whatsapp.net' } });
const options = (extra: Partial<HistoryImportOptions> = {}): HistoryImportOptions => ({
  from: null,
  to: null,
  groups: false,
  queueId: null,
  closeTickets: false,
  ...extra,
});
const ids = (events: { providerMessageId: string }[]) => events.map((e) => e.providerMessageId);

const chunk = [
  wa('OLD', T0 - 100),
  wa('START', T0),
  wa('MID', T0 + 50),
  wa('END', T0 + 100),
  wa('NEW', T0 + 101),
  inGroup('G-MID', T0 + 50),
  wa('MINE', T0 + 60, { key: { remoteJid: CUSTOMER, fromMe: true, id: 'MINE' } }),
  // A revoke and a reaction of older messages: not messages, left out.
  wa('REVOKE', T0 + 70, { message: { protocolMessage: { type: 0, key: { remoteJid: CUSTOMER, id: 'MID' } } } }),
  wa('REACT', T0 + 80, { message: { reactionMessage: { key: { remoteJid: CUSTOMER, id: 'MID' }, text: '👍' } } }),
];

describe('history chunk to imported events', () => {
  it('keeps the messages within the dates (inclusive), marks them imported, leaves groups and other kinds out', () => {
    const events = historyEvents(chunk, options({ from: T0 * 1000, to: (T0 + 100) * 1000 }), emptyContext);
    expect(ids(events)).toEqual(['START', 'MID', 'END', 'MINE']);
    for (const event of events) expect(event).toMatchObject({ kind: 'message', imported: true });
    expect(events[1]).toMatchObject({
      party: { chatId: '5511988887777', isGroup: false },
      body: 'texto MID',
      timestamp: (T0 + 50) * 1000,
      fromMe: false,
    });
    expect(events[3]).toMatchObject({ fromMe: true });
  });

  it('either bound is optional', () => {
    expect(ids(historyEvents(chunk, options({ from: (T0 + 50) * 1000 }), emptyContext))).toEqual([
      'MID',
      'END',
      'NEW',
      'MINE',
    ]);
    expect(ids(historyEvents(chunk, options({ to: T0 * 1000 }), emptyContext))).toEqual(['OLD', 'START']);
    expect(ids(historyEvents(chunk, options(), emptyContext))).toEqual(['OLD', 'START', 'MID', 'END', 'NEW', 'MINE']);
  });

  it('group chats only when the channel imports groups (and dropped before any lookup otherwise)', () => {
    expect(historyCandidates(chunk, options()).some((m) => m.key.remoteJid === GROUP)).toBe(false);
    const events = historyEvents(chunk, options({ groups: true, from: (T0 + 50) * 1000, to: T0 * 1000 + 50_000 }), {
      ...emptyContext,
      groupName: () => 'Equipe',
    });
    expect(ids(events)).toEqual(['MID', 'G-MID']);
    expect(events[1]).toMatchObject({
      imported: true,
      party: { chatId: GROUP, isGroup: true, name: 'Equipe', participant: { number: '5521911112222' } },
    });
  });

  it('a message without a time is left out when a bound is set (it cannot be placed), kept otherwise', () => {
    const undated = [wa('NOTIME', null)];
    expect(historyEvents(undated, options({ from: T0 * 1000 }), emptyContext)).toEqual([]);
    expect(ids(historyEvents(undated, options(), emptyContext))).toEqual(['NOTIME']);
  });
});
