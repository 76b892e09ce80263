/**
 * The login's history through Wuzapi: HistorySync webhooks (in Wuzapi's shape, JSON and form encoded) become a
 * `history-import` announcement with the running total, the messages marked `imported` (within the channel's dates,
 * groups only when asked) and, after the RECENT chunk at progress 100, the end; nothing without importMessages. The
 * subscription follows the option.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import type { ChannelCredentials, HistoryImportOptions, InboundEvent } from '../../channels.adapter.js';
import { createWuzapiAdapter, type WuzapiAdapter } from './wuzapi.adapter.js';
import { goFormEncode, startWuzapiSimulator, type WuzapiSimulator } from './wuzapi.simulator.js';
import { historySyncEvent, type SimHistoryMessage } from './wuzapi.simulator.live.js';

const TOKEN = 'MEOW-HISTORY-TOKEN-01';
const GROUP = '120363040512345678@g.us';
const MARIA = '5511987650001@s.whatsapp.net';
const BOOTSTRAP = 0;
const RECENT = 3;
const PUSH_NAME = 4;
const ON_DEMAND = 6;
const at = (iso: string) => Date.parse(iso) / 1000;

let sim: WuzapiSimulator;
let adapter: WuzapiAdapter;
let channel: ChannelCredentials;
const options = (changes: Partial<HistoryImportOptions> = {}): HistoryImportOptions => ({
  from: null,
  to: null,
  groups: false,
  queueId: null,
  closeTickets: false,
  ...changes,
});
const text = (id: string, iso: string, body: string, extra: Partial<SimHistoryMessage> = {}): SimHistoryMessage => ({
  id,
  time: at(iso),
  message: { conversation: body },
  ...extra,
});
const chunk = (syncType: number, progress?: number) =>
  historySyncEvent(
    syncType,
    [
      {
        id: MARIA,
        messages: [
          text('H1', '2025-10-01T10:00:00Z', 'Pedido 123?', { pushName: 'Maria Souza' }),
          text('H2', '2025-10-02T10:00:00Z', 'Já enviamos!', { fromMe: true }),
          {
            id: 'H3',
            time: at('2025-10-03T10:00:00Z'),
            message: { reactionMessage: { key: { remoteJID: MARIA, fromMe: true, ID: 'H2' }, text: '👍' } },
          },
        ],
      },
      {
        id: GROUP,
        messages: [
          text('G1', '2025-10-02T12:00:00Z', 'Bom dia, grupo!', {
            participant: '123456789012345@lid',
            pushName: 'Bia',
          }),
        ],
      },
    ],
    { progress, lidMappings: [{ pnJID: '5511912340002@s.whatsapp.net', lidJID: '123456789012345@lid' }] },
  );
const ids = (events: InboundEvent[]) => events.map((e) => (e.kind === 'message' ? e.providerMessageId : e.kind));
const imports = (events: InboundEvent[]) => events.filter((e) => e.kind === 'history-import');

beforeAll(async () => {
  sim = await startWuzapiSimulator();
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.calls.length = 0;
  sim.users.clear();
  sim.addUser(TOKEN);
  adapter = createWuzapiAdapter();
  channel = {
    id: 11,
    tenantId: 1,
    type: 'meow',
    name: 'Loja',
    number: null,
    tokenTelegram: null,
    tokenAPI: TOKEN,
    wabaId: 'loja01',
    bmToken: null,
    wabaVersion: '20.0',
    remotePath: sim.url,
    webhookSecret: 'c2VjcmV0LWZvci13dXphcGktaGlzdG9yeS0xMjM0NTY3',
    providerState: {},
    routing: { queueId: null, userId: null },
    historyImport: options(),
  };
});

describe('HistorySync webhooks', () => {
  it('a chunk: announced with its count, then its messages marked imported, parsed as live messages are', () => {
    const events = adapter.parseInbound(channel, chunk(BOOTSTRAP));
    expect(events[0]).toEqual({ kind: 'history-import', total: 2, done: false });
    expect(events.slice(1)).toEqual([
      {
        kind: 'message',
        providerMessageId: 'H1',
        party: {
          chatId: '5511987650001',
          isGroup: false,
          name: 'Maria Souza',
          number: '5511987650001',
          idField: 'number',
        },
        fromMe: false,
        timestamp: Date.parse('2025-10-01T10:00:00Z'),
        mediaType: 'chat',
        body: 'Pedido 123?',
        media: null,
        meta: null,
        isSticker: false,
        quotedProviderMessageId: null,
        imported: true,
      },
      expect.objectContaining({
        providerMessageId: 'H2',
        fromMe: true,
        party: expect.objectContaining({ chatId: '5511987650001' }),
        imported: true,
      }),
    ]);
  });

  it('form-encoded (Wuzapi default) reads the same', () => {
    const form = Object.fromEntries(
      new URLSearchParams(goFormEncode({ jsonData: JSON.stringify(chunk(BOOTSTRAP)), token: TOKEN })),
    );
    expect(adapter.parseInbound(channel, form)).toEqual(adapter.parseInbound({ ...channel, id: 12 }, chunk(BOOTSTRAP)));
  });

  it("the channel's dates bound the import, both ends inclusive", () => {
    channel.historyImport = options({
      from: Date.parse('2025-10-02T10:00:00Z'),
      to: Date.parse('2025-10-02T10:00:00Z'),
    });
    expect(ids(adapter.parseInbound(channel, chunk(BOOTSTRAP)))).toEqual(['history-import', 'H2']);
    channel.historyImport = options({ from: Date.parse('2025-10-02T10:00:01Z') });
    expect(ids(adapter.parseInbound(channel, chunk(BOOTSTRAP)))).toEqual(['history-import']);
  });

  it('groups only when the channel imports them; the member by the phone the chunk maps the LID to', () => {
    channel.historyImport = options({ groups: true });
    const events = adapter.parseInbound(channel, chunk(BOOTSTRAP));
    expect(ids(events)).toEqual(['history-import', 'H1', 'H2', 'G1']);
    expect(events.at(-1)).toMatchObject({
      imported: true,
      party: {
        chatId: GROUP,
        isGroup: true,
        participant: { id: '5511912340002', number: '5511912340002', name: 'Bia' },
      },
    });
  });

  it('a LID chat is the phone contact when the conversation names its phone JID', () => {
    const event = historySyncEvent(BOOTSTRAP, [
      {
        id: '123456789012345@lid',
        pnJID: MARIA,
        messages: [text('L1', '2025-10-01T10:00:00Z', 'Oi', { pushName: 'Maria' })],
      },
    ]);
    expect(adapter.parseInbound(channel, event)[1]).toMatchObject({
      party: { chatId: '5511987650001', number: '5511987650001' },
    });
  });

  it('running total across chunks; the RECENT chunk at progress 100 ends the import, the next starts anew', () => {
    expect(imports(adapter.parseInbound(channel, chunk(BOOTSTRAP)))).toEqual([
      { kind: 'history-import', total: 2, done: false },
    ]);
    // The bootstrap's own progress does not end it; only the RECENT (or FULL) sync's last chunk does.
    expect(imports(adapter.parseInbound(channel, chunk(BOOTSTRAP, 100)))).toEqual([
      { kind: 'history-import', total: 4, done: false },
    ]);
    expect(imports(adapter.parseInbound(channel, chunk(RECENT, 60)))).toEqual([
      { kind: 'history-import', total: 6, done: false },
    ]);
    const last = adapter.parseInbound(channel, chunk(RECENT, 100));
    expect(ids(last)).toEqual(['history-import', 'H1', 'H2', 'history-import']);
    expect(imports(last)).toEqual([
      { kind: 'history-import', total: 8, done: false },
      { kind: 'history-import', total: 8, done: true },
    ]);
    expect(imports(adapter.parseInbound(channel, chunk(BOOTSTRAP)))).toEqual([
      { kind: 'history-import', total: 2, done: false },
    ]);
    // Another channel counts apart.
    expect(imports(adapter.parseInbound({ ...channel, id: 99 }, chunk(BOOTSTRAP)))[0]).toMatchObject({ total: 2 });
  });

  it('an empty last chunk still ends the import', () => {
    adapter.parseInbound(channel, chunk(BOOTSTRAP));
    expect(adapter.parseInbound(channel, historySyncEvent(RECENT, [], { progress: 100 }))).toEqual([
      { kind: 'history-import', total: 2, done: true },
    ]);
  });

  it('on-demand answers and push names are not the login history', () => {
    expect(adapter.parseInbound(channel, chunk(ON_DEMAND, 100))).toEqual([]);
    expect(adapter.parseInbound(channel, chunk(PUSH_NAME))).toEqual([]);
  });

  it('without importMessages a HistorySync stores nothing; with it a malformed one is a ZodError (400)', () => {
    channel.historyImport = null;
    expect(adapter.parseInbound(channel, chunk(RECENT, 100))).toEqual([]);
    expect(adapter.parseInbound(channel, { type: 'HistorySync', event: {} })).toEqual([]);
    channel.historyImport = options();
    expect(() => adapter.parseInbound(channel, { type: 'HistorySync', event: {} })).toThrow(ZodError);
  });
});

describe('the HistorySync subscription follows importMessages', () => {
  const subscribed = () => ({
    webhook: sim.callsOf('/webhook')[0]!.body.events as string[],
    connect: sim.callsOf('/session/connect')[0]!.body.Subscribe as string[],
  });

  it('on: /webhook events and /session/connect Subscribe carry HistorySync', async () => {
    await adapter.start(channel, 'https://conversa.example/api/webhooks/meow/11');
    expect(subscribed().webhook).toContain('HistorySync');
    expect(subscribed().connect).toContain('HistorySync');
    expect(subscribed().connect).toContain('Message');
  });

  it('off: neither does', async () => {
    await adapter.start({ ...channel, historyImport: null }, 'https://conversa.example/api/webhooks/meow/11');
    expect(subscribed().webhook).not.toContain('HistorySync');
    expect(subscribed().connect).not.toContain('HistorySync');
  });
});
