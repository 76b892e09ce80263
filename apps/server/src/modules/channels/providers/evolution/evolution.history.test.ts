/** The login's history import of Evolution channels: messages.set to history-import and imported messages; the instance and webhook it asks for. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelCredentials, HistoryImportOptions, InboundEvent } from '../../channels.adapter.js';
import { createEvolutionAdapter } from './evolution.adapter.js';
import { EVOLUTION_WEBHOOK_EVENTS } from './evolution.schemas.js';
import { startEvolutionSimulator, type EvolutionSimulator } from './evolution.simulator.js';

const GROUP = '120363025246125486@g.us';
const DAY = 86_400;
/** 2025-11-21T04:00:00Z */
const T0 = 1_763_697_600;

const record = (id: string, remoteJid: string, seconds: number | null, extra: Record<string, unknown> = {}) => ({
  key: {
    remoteJid,
    fromMe: false,
    id,
    ...(remoteJid === GROUP ? { participant: '5511911110001@s.whatsapp.net' } : {}),
  },
  pushName: 'Maria Souza',
  message: { conversation: `texto ${id}` },
  messageType: 'conversation',
  messageTimestamp: seconds,
  instanceId: 'sim-Loja',
  source: 'android',
  ...extra,
});
const set = (data: unknown[], instance = 'Loja') => ({
  event: 'messages.set',
  instance,
  data,
  destination: 'https://conversa.example/api/webhooks/evo/7',
  date_time: '2025-11-22T10:00:00.000Z',
  sender: '5511900000000@s.whatsapp.net',
  server_url: 'https://evo.example.com',
  apikey: null,
});
const upsert = (data: unknown) => ({ event: 'messages.upsert', instance: 'Loja', data });

const options = (values: Partial<HistoryImportOptions> = {}): HistoryImportOptions => ({
  from: null,
  to: null,
  groups: false,
  queueId: null,
  closeTickets: false,
  ...values,
});

function channelWith(
  historyImport: HistoryImportOptions | null,
  remotePath = 'http://127.0.0.1:9',
): ChannelCredentials {
  return {
    id: 7,
    tenantId: 1,
    type: 'evo',
    name: 'Loja',
    number: null,
    tokenTelegram: null,
    tokenAPI: 'sim-global-api-key',
    wabaId: 'Loja',
    bmToken: null,
    wabaVersion: '20.0',
    remotePath,
    webhookSecret: 'evo-secret_0123456789',
    providerState: {},
    routing: { queueId: null, userId: null },
    historyImport,
  };
}

const summary = (events: InboundEvent[]) =>
  events.map((e) =>
    e.kind === 'history-import'
      ? `import ${e.total}${e.done ? ' done' : ''}`
      : e.kind === 'message'
        ? `${e.providerMessageId}${e.imported ? ' imported' : ''}`
        : e.kind,
  );

describe('messages.set', () => {
  let clock = 0;
  const adapter = createEvolutionAdapter({ historyQuietMs: 30_000, now: () => clock });
  beforeEach(() => {
    clock += 10 * 60_000;
    // Whatever import a previous test left running ends here.
    adapter.parseInbound(channelWith(options()), upsert(record('X', '5511987654321@s.whatsapp.net', T0)));
  });

  it('announces the running total, then the chunk as imported messages parsed like webhooks', () => {
    const channel = channelWith(options());
    const first = adapter.parseInbound(channel, set([record('A1', '5511987654321@s.whatsapp.net', T0)]));
    expect(first).toEqual([
      { kind: 'history-import', total: 1, done: false },
      {
        kind: 'message',
        providerMessageId: 'A1',
        party: {
          chatId: '5511987654321',
          isGroup: false,
          name: 'Maria Souza',
          number: '5511987654321',
          idField: 'number',
        },
        fromMe: false,
        timestamp: T0 * 1000,
        mediaType: 'chat',
        media: null,
        body: 'texto A1',
        meta: null,
        isSticker: false,
        quotedProviderMessageId: null,
        imported: true,
      },
    ]);
    clock += 1000;
    const second = adapter.parseInbound(
      channel,
      set([record('A2', '551187654321@s.whatsapp.net', T0 + 1), record('A3', '5511987654321@s.whatsapp.net', T0 + 2)]),
    );
    expect(summary(second)).toEqual(['import 3', 'A2 imported', 'A3 imported']);
  });

  it('keeps the messages within the dates (inclusive), drops groups unless asked, reactions and timeless records', () => {
    const from = (T0 - DAY) * 1000;
    const to = T0 * 1000;
    const data = [
      record('OLD', '5511987654321@s.whatsapp.net', T0 - DAY - 1),
      record('FIRST', '5511987654321@s.whatsapp.net', T0 - DAY),
      record('LAST', '5511987654321@s.whatsapp.net', T0),
      record('NEW', '5511987654321@s.whatsapp.net', T0 + 1),
      record('GRP', GROUP, T0 - 10),
      record('NOTIME', '5511987654321@s.whatsapp.net', null),
      {
        ...record('REACT', '5511987654321@s.whatsapp.net', T0 - 5),
        message: { reactionMessage: { key: { remoteJid: '5511987654321@s.whatsapp.net', id: 'FIRST' }, text: '👍' } },
      },
      { key: { remoteJid: '5511987654321@s.whatsapp.net' }, messageTimestamp: T0 },
    ];
    expect(summary(adapter.parseInbound(channelWith(options({ from, to })), set(data)))).toEqual([
      'import 2',
      'FIRST imported',
      'LAST imported',
    ]);
    clock += 60_000;
    const withGroups = adapter.parseInbound(channelWith(options({ from, to, groups: true })), set(data));
    expect(summary(withGroups)).toEqual([
      'import 2 done',
      'import 3',
      'FIRST imported',
      'LAST imported',
      'GRP imported',
    ]);
    expect(withGroups[4]).toMatchObject({
      party: { chatId: GROUP, isGroup: true, participant: { number: '5511911110001' } },
    });
  });

  it('ends the import once no chunk came for the quiet period: the done goes first on the next webhook call', () => {
    const channel = channelWith(options());
    expect(summary(adapter.parseInbound(channel, set([record('B1', '5511987654321@s.whatsapp.net', T0)])))).toEqual([
      'import 1',
      'B1 imported',
    ]);
    clock += 29_999;
    // Within the quiet period: an empty chunk keeps the import going, an ordinary call is just itself.
    expect(adapter.parseInbound(channel, set([]))).toEqual([]);
    clock += 29_999;
    expect(summary(adapter.parseInbound(channel, upsert(record('LIVE1', '5511987654321@s.whatsapp.net', T0))))).toEqual(
      ['LIVE1'],
    );
    clock += 1;
    expect(summary(adapter.parseInbound(channel, upsert(record('LIVE2', '5511987654321@s.whatsapp.net', T0))))).toEqual(
      ['import 1 done', 'LIVE2'],
    );
    // Once: the next call is itself only, and a later chunk starts a new count.
    expect(summary(adapter.parseInbound(channel, upsert(record('LIVE3', '5511987654321@s.whatsapp.net', T0))))).toEqual(
      ['LIVE3'],
    );
    expect(summary(adapter.parseInbound(channel, set([record('C1', '5511987654321@s.whatsapp.net', T0)])))).toEqual([
      'import 1',
      'C1 imported',
    ]);
  });

  it('yields nothing without importMessages, or for another instance', () => {
    const data = [record('S1', '5511987654321@s.whatsapp.net', T0)];
    expect(adapter.parseInbound(channelWith(null), set(data))).toEqual([]);
    expect(adapter.parseInbound(channelWith(options()), set(data, 'Outra'))).toEqual([]);
    // A malformed envelope is still a 400.
    expect(() => adapter.parseInbound(channelWith(options()), { data })).toThrow();
  });
});

describe('the instance and the webhook of a channel that imports its history', () => {
  let sim: EvolutionSimulator;
  const adapter = createEvolutionAdapter({ timeoutMs: 2000 });
  beforeAll(async () => {
    sim = await startEvolutionSimulator();
  });
  afterAll(async () => sim.close());
  beforeEach(() => {
    sim.calls.splice(0);
    sim.instances.clear();
  });

  it('creates the instance with syncFullHistory and registers MESSAGES_SET', async () => {
    await adapter.start({ ...channelWith(options(), sim.url), tokenAPI: sim.apiKey }, 'https://conversa.example/w');
    expect(sim.callsOf('instance/create')[0]!.body).toEqual({
      instanceName: 'Loja',
      token: sim.instances.get('Loja')!.token,
      integration: 'WHATSAPP-BAILEYS',
      qrcode: true,
      syncFullHistory: true,
    });
    expect(sim.instances.get('Loja')!.webhook!.events).toEqual([...EVOLUTION_WEBHOOK_EVENTS, 'MESSAGES_SET']);
  });

  it('without importMessages: neither', async () => {
    await adapter.start({ ...channelWith(null, sim.url), tokenAPI: sim.apiKey }, 'https://conversa.example/w');
    expect(sim.callsOf('instance/create')[0]!.body).not.toHaveProperty('syncFullHistory');
    expect(sim.instances.get('Loja')!.webhook!.events).toEqual([...EVOLUTION_WEBHOOK_EVENTS]);
    expect(EVOLUTION_WEBHOOK_EVENTS).not.toContain('MESSAGES_SET');
  });
});
