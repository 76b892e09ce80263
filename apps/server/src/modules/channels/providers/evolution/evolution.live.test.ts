/** The Evolution adapter's live operations (GatewayLive) against the simulator over real HTTP: exact requests, parsed answers, errors. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, type ChannelCredentials, type GatewayLive } from '../../channels.adapter.js';
import { createEvolutionAdapter } from './evolution.adapter.js';
import { createEvolutionClient } from './evolution.client.js';
import { CONTACTS_MAX_ANSWER, HISTORY_PAGE } from './evolution.live.js';
import { startEvolutionSimulator, type EvolutionSimulator, type SimInstance } from './evolution.simulator.js';

let sim: EvolutionSimulator;
let channel: ChannelCredentials;
let live: Required<GatewayLive>;
let instance: SimInstance;
const adapter = createEvolutionAdapter({ timeoutMs: 2000 });
const GROUP = '120363025246125486@g.us';

const record = (id: string, remoteJid: string, seconds: number, text: string, extra: Record<string, unknown> = {}) => ({
  id: `db-${id}`,
  key: { remoteJid, fromMe: false, id, ...extra },
  pushName: 'Maria Souza',
  messageType: 'conversation',
  message: { conversation: text },
  messageTimestamp: seconds,
  instanceId: 'sim-Live',
  source: 'android',
  contextInfo: null,
  MessageUpdate: [],
});

beforeAll(async () => {
  sim = await startEvolutionSimulator();
  channel = {
    id: 9,
    tenantId: 1,
    type: 'evo',
    name: 'Live',
    number: null,
    tokenTelegram: null,
    tokenAPI: sim.apiKey,
    wabaId: 'Live',
    bmToken: null,
    wabaVersion: '20.0',
    remotePath: sim.url,
    webhookSecret: 'evo-secret_live_0123456789',
    providerState: {},
    routing: { queueId: null, userId: null },
  };
  live = adapter.live!(channel) as Required<GatewayLive>;
  instance = {
    name: 'Live',
    state: 'open',
    qrCount: 0,
    ownerJid: '5511900000000@s.whatsapp.net',
    webhook: null,
    messages: new Map(),
    groups: new Map(),
    contacts: [],
  };
  sim.instances.set('Live', instance);
});
afterAll(async () => sim.close());
beforeEach(() => {
  sim.calls.splice(0);
  instance.state = 'open';
});

describe('checkNumber', () => {
  it('asks whatsappNumbers for every form of the number (the typed one first) and answers the one WhatsApp knows', async () => {
    // WhatsApp knows this Brazilian mobile by its old 8-digit form.
    sim.whatsappJids.add('551187654321@s.whatsapp.net');
    expect(await live.checkNumber('5511987654321')).toEqual({ exists: true, number: '551187654321' });
    const [call] = sim.callsOf('chat/whatsappNumbers');
    expect(call).toMatchObject({ method: 'POST', instance: 'Live', apikey: sim.apiKey });
    expect(call!.body).toEqual({ numbers: ['5511987654321', '551187654321'] });
  });

  it('answers exists false for a number WhatsApp does not know; one form for a number outside the rule', async () => {
    expect(await live.checkNumber('14155550100')).toEqual({ exists: false, number: null });
    expect(sim.callsOf('chat/whatsappNumbers')[0]!.body).toEqual({ numbers: ['14155550100'] });
    sim.whatsappJids.add('14155550100@s.whatsapp.net');
    expect(await live.checkNumber('14155550100')).toEqual({ exists: true, number: '14155550100' });
  });

  it('turns Evolution refusals into ProviderErrors (closed connection, server error)', async () => {
    instance.state = 'close';
    const closed = await live.checkNumber('14155550100').catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(ProviderError);
    expect(closed).toMatchObject({ permanent: true, status: 400 });
    instance.state = 'open';
    sim.failNext('chat/whatsappNumbers', 500, 'boom');
    await expect(live.checkNumber('14155550100')).rejects.toMatchObject({ permanent: false, status: 500 });
  });
});

describe('groups', () => {
  beforeAll(() => {
    instance.groups.set(GROUP, {
      id: GROUP,
      subject: 'Clientes VIP',
      participants: [
        { id: '5511911110001@s.whatsapp.net', admin: 'superadmin', name: 'Ana' },
        { id: '203848103145503@lid', phoneNumber: '5511912345678@s.whatsapp.net', admin: 'admin', notify: 'João' },
        { id: '203848103145999@lid', admin: null },
        { id: '551133334444@s.whatsapp.net', admin: null },
      ],
    });
    instance.groups.set('120363000000002@g.us', { id: '120363000000002@g.us', subject: 'Equipe', participants: [] });
  });

  it('groupParticipants: by groupJid in the query (with or without @g.us), LIDs by their phone, admins', async () => {
    const expected = [
      { number: '5511911110001', name: 'Ana', isAdmin: true },
      { number: '5511912345678', name: 'João', isAdmin: true },
      { number: '551133334444', name: null, isAdmin: false },
    ];
    expect(await live.groupParticipants(GROUP)).toEqual(expected);
    expect(await live.groupParticipants('120363025246125486')).toEqual(expected);
    const calls = sim.callsOf('group/participants');
    expect(calls.map((c) => [c.method, c.instance])).toEqual([
      ['GET', 'Live'],
      ['GET', 'Live'],
    ]);
    // Evolution reads the group from the query string.
    expect(calls.map((c) => [c.query, c.body])).toEqual([
      ['?groupJid=120363025246125486%40g.us', {}],
      ['?groupJid=120363025246125486%40g.us', {}],
    ]);
  });

  it('groupParticipants of an unknown group: a permanent ProviderError (Evolution answers 404)', async () => {
    await expect(live.groupParticipants('120363999999999@g.us')).rejects.toMatchObject({
      name: 'ProviderError',
      permanent: true,
      status: 404,
    });
  });

  it('listGroups: fetchAllGroups without participants; the id as the group contact stores it, subject, size', async () => {
    expect(await live.listGroups()).toEqual([
      { id: GROUP, subject: 'Clientes VIP', participants: 4 },
      { id: '120363000000002@g.us', subject: 'Equipe', participants: 0 },
    ]);
    expect(sim.callsOf('group/fetchAllGroups')[0]).toMatchObject({
      method: 'GET',
      instance: 'Live',
      query: '?getParticipants=false',
      body: {},
    });
  });
});

describe('listContacts', () => {
  it('findContacts: people only, digits as WhatsApp gave them (12 stay 12), the push name', async () => {
    instance.contacts.push(
      { remoteJid: '551187654321@s.whatsapp.net', pushName: 'Maria Souza' },
      { remoteJid: '14155550100@s.whatsapp.net', pushName: null },
      { remoteJid: GROUP, pushName: 'Clientes VIP' },
      { remoteJid: '203848103145503@lid', pushName: 'João' },
      { remoteJid: 'status@broadcast', pushName: null },
    );
    expect(await live.listContacts()).toEqual([
      { number: '551187654321', name: 'Maria Souza' },
      { number: '14155550100', name: null },
    ]);
    expect(sim.callsOf('chat/findContacts')[0]).toMatchObject({ method: 'POST', instance: 'Live', body: {} });
  });

  it('reads a phone book larger than 1 MiB, and refuses an answer past its bound', async () => {
    const before = instance.contacts.length;
    for (let i = 0; i < 6000; i++) {
      instance.contacts.push({
        remoteJid: `1415${String(i).padStart(7, '0')}@s.whatsapp.net`,
        pushName: `Contato ${i}`,
        profilePicUrl: `https://pps.whatsapp.net/v/t61.24694-24/${'x'.repeat(120)}${i}.jpg`,
      });
    }
    try {
      expect((await live.listContacts()).length).toBe(2 + 6000);
      expect(CONTACTS_MAX_ANSWER).toBeGreaterThan(1024 * 1024);
      // The same call with the client's default bound (1 MiB) is refused.
      const client = createEvolutionClient({ timeoutMs: 2000 });
      const small = createEvolutionAdapter({
        client: { call: (target, method, path, body, result) => client.call(target, method, path, body, result) },
      });
      await expect(small.live!(channel).listContacts!()).rejects.toThrow(/answer too large/);
    } finally {
      instance.contacts.splice(before);
    }
  });
});

describe('fetchHistory', () => {
  beforeAll(() => {
    for (let i = 0; i < 120; i++) {
      sim.storeMessage('Live', record(`OLD${i}`, '551187654321@s.whatsapp.net', 1_763_000_000 + i, `antiga ${i}`));
    }
    sim.storeMessage('Live', record('NEW1', '5511987654321@s.whatsapp.net', 1_763_500_000, 'nova'));
    sim.storeMessage(
      'Live',
      record('GRP1', GROUP, 1_763_400_000, 'no grupo', {
        participant: '203848103145503@lid',
        participantAlt: '5511912345678@s.whatsapp.net',
      }),
    );
    sim.storeMessage('Live', {
      ...record('REACT1', GROUP, 1_763_400_001, ''),
      message: { reactionMessage: { key: { remoteJid: GROUP, fromMe: false, id: 'GRP1' }, text: '👍' } },
    });
  });

  it('pages findMessages by where.key.remoteJid (each form of the number) and parses the records like webhooks', async () => {
    const events = await live.fetchHistory('5511987654321', 70);
    expect(events).toHaveLength(70);
    expect(events[0]).toEqual({
      kind: 'message',
      providerMessageId: 'NEW1',
      party: {
        chatId: '5511987654321',
        isGroup: false,
        name: 'Maria Souza',
        number: '5511987654321',
        idField: 'number',
      },
      fromMe: false,
      timestamp: 1_763_500_000_000,
      mediaType: 'chat',
      media: null,
      body: 'nova',
      meta: null,
      isSticker: false,
      quotedProviderMessageId: null,
    });
    // The old form's chat: the newest 69 of its 120, under the number WhatsApp gave (ingestion finds the one contact
    // by either form), none marked imported.
    expect(events.slice(1).map((e) => (e.kind === 'message' ? e.providerMessageId : null))).toEqual(
      Array.from({ length: 69 }, (_, i) => `OLD${119 - i}`),
    );
    expect(events.slice(1).every((e) => e.kind === 'message' && e.party.chatId === '551187654321')).toBe(true);
    expect(events.every((e) => e.kind === 'message' && !e.imported)).toBe(true);
    expect(sim.callsOf('chat/findMessages').map((c) => c.body)).toEqual([
      { where: { key: { remoteJid: '5511987654321@s.whatsapp.net' } }, offset: HISTORY_PAGE, page: 1 },
      { where: { key: { remoteJid: '551187654321@s.whatsapp.net' } }, offset: HISTORY_PAGE, page: 1 },
      { where: { key: { remoteJid: '551187654321@s.whatsapp.net' } }, offset: HISTORY_PAGE, page: 2 },
    ]);
  });

  it('a group by its JID: messages only (its reaction is left out), the member resolved from the LID', async () => {
    const events = await live.fetchHistory(GROUP, 10);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      providerMessageId: 'GRP1',
      party: { chatId: GROUP, isGroup: true, participant: { number: '5511912345678' } },
    });
    expect(sim.callsOf('chat/findMessages')[0]!.body).toEqual({
      where: { key: { remoteJid: GROUP } },
      offset: HISTORY_PAGE,
      page: 1,
    });
  });

  it('every chat when the chat is null, up to the limit; errors are ProviderErrors', async () => {
    const events = await live.fetchHistory(null, 3);
    expect(events.map((e) => (e.kind === 'message' ? e.providerMessageId : null))).toEqual(['NEW1', 'GRP1', 'OLD119']);
    expect(sim.callsOf('chat/findMessages')[0]!.body).toEqual({ where: {}, offset: HISTORY_PAGE, page: 1 });
    sim.failNext('chat/findMessages', 401, 'Unauthorized');
    await expect(live.fetchHistory(null, 3)).rejects.toMatchObject({ name: 'ProviderError', permanent: true });
  });
});

describe('sendMention', () => {
  it('sends the text with `mentioned` numbers and returns the WhatsApp id', async () => {
    const result = await live.sendMention(GROUP, 'Olá @5511911110001 @5511912345678', [
      '5511911110001',
      '5511912345678',
    ]);
    expect(result).toMatchObject({ providerMessageId: expect.stringMatching(/^3EB0/), ack: 1 });
    const [call] = sim.callsOf('message/sendText');
    expect(call).toMatchObject({ method: 'POST', instance: 'Live' });
    expect(call!.body).toEqual({
      number: GROUP,
      text: 'Olá @5511911110001 @5511912345678',
      mentioned: ['5511911110001', '5511912345678'],
    });
    instance.state = 'close';
    await expect(live.sendMention(GROUP, 'x', ['5511911110001'])).rejects.toBeInstanceOf(ProviderError);
  });
});
