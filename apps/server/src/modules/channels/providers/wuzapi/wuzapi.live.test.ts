/**
 * The Wuzapi adapter's live operations (adapter.live(channel)): each is the exact HTTP request Wuzapi expects
 * (recorded by the simulator over real HTTP), its answer in Wuzapi's shape becomes the GatewayLive result, and a
 * refusal is a ProviderError.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, type ChannelCredentials, type GatewayLive } from '../../channels.adapter.js';
import { createWuzapiAdapter, isOwnWuzapiMessageId, type WuzapiAdapter } from './wuzapi.adapter.js';
import { startWuzapiSimulator, type WuzapiSimulator } from './wuzapi.simulator.js';
import { historyRow } from './wuzapi.simulator.live.js';

const TOKEN = 'MEOW-LIVE-TOKEN-0001';
const SECRET = 'c2VjcmV0LWZvci13dXphcGktbGl2ZS10ZXN0cy0xMjM0';
const GROUP = '120363040512345678@g.us';
const events = JSON.parse(fs.readFileSync(new URL('./fixtures/events.json', import.meta.url), 'utf8')) as Record<
  string,
  { type: string; event: { Info: Record<string, unknown>; Message: unknown } }
>;

let sim: WuzapiSimulator;
let adapter: WuzapiAdapter;
let channel: ChannelCredentials;
let live: GatewayLive;
const callsOf = (path: string) => sim.callsOf(path).map(({ method, query, body }) => ({ method, query, body }));
const user = () => sim.users.get(TOKEN)!.live;

beforeAll(async () => {
  sim = await startWuzapiSimulator();
});
afterAll(() => sim.close());
beforeEach(() => {
  sim.calls.length = 0;
  sim.users.clear();
  sim.registered.clear();
  sim.history.length = 0;
  sim.addUser(TOKEN);
  sim.login(TOKEN, '5511911112222:14@s.whatsapp.net');
  // A new adapter each test: the per-channel number cache starts empty.
  adapter = createWuzapiAdapter();
  channel = {
    id: 9,
    tenantId: 1,
    type: 'meow',
    name: 'Loja',
    number: '5511911112222',
    tokenTelegram: null,
    tokenAPI: TOKEN,
    wabaId: 'loja01',
    bmToken: null,
    wabaVersion: '20.0',
    remotePath: sim.url,
    webhookSecret: SECRET,
    providerState: {},
    routing: { queueId: null, userId: null },
  };
  live = adapter.live!(channel);
});

describe('checkNumber: POST /user/check with every form of the number', () => {
  it('a Brazilian mobile WhatsApp knows by the 8-digit form exists, answered in that form (the typed one asked first)', async () => {
    sim.registered.add('556188887777');
    expect(await live.checkNumber('5561988887777')).toEqual({ exists: true, number: '556188887777' });
    expect(callsOf('/user/check')).toEqual([
      { method: 'POST', query: {}, body: { Phone: ['5561988887777', '556188887777'] } },
    ]);
  });

  it('a number not on WhatsApp; a one-form number is asked as it is', async () => {
    sim.registered.add('5511987650001');
    expect(await live.checkNumber('14155550100')).toEqual({ exists: false, number: null });
    expect(await live.checkNumber('5511987650001')).toEqual({ exists: true, number: '5511987650001' });
    expect(callsOf('/user/check').map((c) => c.body)).toEqual([
      { Phone: ['14155550100'] },
      { Phone: ['5511987650001', '551187650001'] },
    ]);
  });

  it('one cache with the sends: a checked number is sent to without asking again, and checked again only later', async () => {
    sim.registered.add('556188887777');
    await live.checkNumber('5561988887777');
    await live.checkNumber('5561988887777');
    await adapter.send(channel, {
      to: '5561988887777',
      body: 'Oi',
      mediaType: 'chat',
      media: null,
      replyToProviderMessageId: null,
    });
    expect(sim.callsOf('/user/check')).toHaveLength(1);
    expect(sim.callsOf('/chat/send/text')[0]!.body.Phone).toBe('556188887777');
  });
});

describe('groups', () => {
  beforeEach(() => {
    user().groups.set(GROUP, {
      name: 'Clientes VIP',
      members: [
        { jid: '5511911112222@s.whatsapp.net', admin: 'superadmin' },
        { jid: '556188887777@s.whatsapp.net', admin: 'admin' },
        { jid: '123456789012345@lid', phone: '5511912340002@s.whatsapp.net' },
        { jid: '987654321098765@lid', phone: '' },
      ],
    });
    user().groups.set('120363099999999999@g.us', { name: 'Fornecedores', members: [] });
  });

  it('groupParticipants: GET /group/info with groupJID as a query parameter; LIDs by their phone; admins', async () => {
    const members = await live.groupParticipants!(GROUP);
    expect(callsOf('/group/info')).toEqual([{ method: 'GET', query: { groupJID: GROUP }, body: {} }]);
    expect(members).toEqual([
      { number: '5511911112222', name: null, isAdmin: true },
      { number: '556188887777', name: null, isAdmin: true }, // a 12-digit JID stays 12 digits
      { number: '5511912340002', name: null, isAdmin: false },
    ]);
  });

  it('a group id stored without @g.us is asked with it', async () => {
    await live.groupParticipants!('120363040512345678');
    expect(sim.callsOf('/group/info')[0]!.query).toEqual({ groupJID: GROUP });
  });

  it('an unknown group is a ProviderError', async () => {
    await expect(live.groupParticipants!('120363000000000000@g.us')).rejects.toBeInstanceOf(ProviderError);
  });

  it('listGroups: GET /group/list; ids as the group contact stores them, name and size', async () => {
    expect(await live.listGroups!()).toEqual([
      { id: GROUP, subject: 'Clientes VIP', participants: 4 },
      { id: '120363099999999999@g.us', subject: 'Fornecedores', participants: 0 },
    ]);
    expect(callsOf('/group/list')).toEqual([{ method: 'GET', query: {}, body: {} }]);
    user().groups.clear();
    expect(await live.listGroups!()).toEqual([]);
  });
});

describe('listContacts: GET /user/contacts', () => {
  it('people only, numbers as WhatsApp gave them (12 digits stay 12), the phone book name first', async () => {
    const book = user().contacts;
    book.set('5511987650001@s.whatsapp.net', { FullName: 'Maria Souza', FirstName: 'Maria', PushName: 'Mari' });
    book.set('556188887777@s.whatsapp.net', { FirstName: 'João' });
    book.set('5511912340002@s.whatsapp.net', { PushName: 'Bia' });
    book.set('5511933334444@s.whatsapp.net', { BusinessName: 'Padaria' });
    book.set('5511955556666@s.whatsapp.net', {});
    book.set('123456789012345@lid', { PushName: 'Só LID' });
    book.set(GROUP, { FullName: 'Um grupo' });
    const contacts = await live.listContacts!();
    expect(contacts.sort((a, b) => a.number.localeCompare(b.number))).toEqual([
      { number: '5511912340002', name: 'Bia' },
      { number: '5511933334444', name: 'Padaria' },
      { number: '5511955556666', name: null },
      { number: '5511987650001', name: 'Maria Souza' },
      { number: '556188887777', name: 'João' },
    ]);
    expect(callsOf('/user/contacts')).toEqual([{ method: 'GET', query: {}, body: {} }]);
  });

  it('a phone book over 1 MiB is read whole', async () => {
    for (let i = 0; i < 12_000; i += 1) {
      user().contacts.set(`55119${String(i).padStart(8, '0')}@s.whatsapp.net`, { FullName: `Cliente número ${i}` });
    }
    expect(await live.listContacts!()).toHaveLength(12_000);
  });
});

describe('fetchHistory: GET /chat/history (stored messages, parsed as webhooks are)', () => {
  const stored = (name: string, changes: Record<string, unknown> = {}) => {
    const event = structuredClone(events[name]!.event);
    Object.assign(event.Info, changes);
    sim.history.push(historyRow(user().id, event));
    return event;
  };

  beforeEach(() => {
    user().history = 100;
  });

  it("one chat: the phone JID WhatsApp knows and its LID; the rows' events are the webhook's message events", async () => {
    sim.registered.add('5511987650001');
    user().lids.set('5511987650001@s.whatsapp.net', '123456789012345@lid');
    stored('text');
    stored('image');
    stored('from-me', { ID: '3EB0LIDROW', Chat: '123456789012345@lid', RecipientAlt: '5511987650001@s.whatsapp.net' });
    // Wuzapi's record of one of our API sends: no data_json, ingestion has it already.
    sim.history.push({ ...historyRow(user().id, events.text!.event), messageId: 'OURS', dataJson: '' });
    stored('group');

    const got = await live.fetchHistory!('5511987650001', 10);
    expect(callsOf('/user/lid/5511987650001@s.whatsapp.net')).toEqual([{ method: 'GET', query: {}, body: {} }]);
    expect(callsOf('/chat/history')).toEqual([
      { method: 'GET', query: { chat_jid: '5511987650001@s.whatsapp.net', limit: '10' }, body: {} },
      { method: 'GET', query: { chat_jid: '123456789012345@lid', limit: '8' }, body: {} },
    ]);
    const webhook = (name: string) => adapter.parseInbound(channel, events[name]);
    expect(got).toEqual(
      expect.arrayContaining([...webhook('text'), ...webhook('image')].map((e) => expect.objectContaining(e))),
    );
    expect(got.map((e) => (e.kind === 'message' ? e.providerMessageId : null)).sort()).toEqual(
      [webhook('text')[0], webhook('image')[0], { providerMessageId: '3EB0LIDROW' }]
        .map((e) => (e as { providerMessageId: string }).providerMessageId)
        .sort(),
    );
    expect(got.every((e) => e.kind === 'message' && !e.imported && e.party.chatId === '5511987650001')).toBe(true);
  });

  it('a Brazilian mobile is asked under the form WhatsApp knows it by, and parsed as WhatsApp gave it', async () => {
    sim.registered.add('556188887777');
    stored('text', { Chat: '556188887777@s.whatsapp.net', Sender: '556188887777@s.whatsapp.net' });
    const got = await live.fetchHistory!('5561988887777', 10);
    expect(sim.callsOf('/chat/history')[0]!.query).toEqual({ chat_jid: '556188887777@s.whatsapp.net', limit: '10' });
    expect(got).toEqual([expect.objectContaining({ party: expect.objectContaining({ chatId: '556188887777' }) })]);
  });

  it('the limit holds; a group is asked by its JID without a LID lookup', async () => {
    stored('group');
    stored('group', { ID: 'G2', Timestamp: '2025-11-21T02:00:00-03:00' });
    stored('group', { ID: 'G3', Timestamp: '2025-11-21T03:00:00-03:00' });
    const got = await live.fetchHistory!(GROUP, 2);
    expect(got.map((e) => (e.kind === 'message' ? e.providerMessageId : ''))).toEqual(['G3', 'G2']);
    expect(sim.callsOf('/chat/history')[0]!.query).toEqual({ chat_jid: GROUP, limit: '2' });
    expect(sim.calls.some((c) => c.path.startsWith('/user/lid/'))).toBe(false);
  });

  it("every chat: the user's chats of the history index (not other users'), up to the limit in all", async () => {
    stored('text');
    stored('group');
    sim.history.push(
      historyRow('someone-else', { ...events.text!.event, Info: { ...events.text!.event.Info, ID: 'X' } }),
    );
    const got = await live.fetchHistory!(null, 5);
    expect(callsOf('/session/status')).toHaveLength(1);
    const asked = sim.callsOf('/chat/history').map((c) => c.query);
    expect(asked[0]).toEqual({ chat_jid: 'index' });
    expect(
      asked
        .slice(1)
        .map((q) => q.chat_jid)
        .sort(),
    ).toEqual(['120363040512345678@g.us', '5511987650001@s.whatsapp.net']);
    expect(asked.slice(1).map((q) => q.limit)).toEqual(['5', '4']);
    expect(got.map((e) => (e.kind === 'message' ? e.providerMessageId : '')).sort()).toEqual(
      [events.group!.event.Info.ID, events.text!.event.Info.ID].sort(),
    );
  });

  it('history off for the Wuzapi user (501) is a permanent ProviderError', async () => {
    user().history = 0;
    const error = await live.fetchHistory!(GROUP, 10).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ permanent: true, status: 501 });
  });
});

describe('sendMention: POST /chat/send/text with ContextInfo.MentionedJID', () => {
  it('the mentioned numbers as the JIDs WhatsApp knows (one /user/check for those with two forms)', async () => {
    sim.registered.add('556188887777');
    sim.registered.add('5511987650001');
    const result = await live.sendMention!(GROUP, '@5561988887777 @5511987650001 reunião às 15h', [
      '5561988887777',
      '5511987650001',
      '14155550100',
    ]);
    const [sent] = sim.callsOf('/chat/send/text');
    expect(sent!.body).toEqual({
      Phone: GROUP,
      Body: '@5561988887777 @5511987650001 reunião às 15h',
      Id: expect.any(String),
      ContextInfo: {
        MentionedJID: ['556188887777@s.whatsapp.net', '5511987650001@s.whatsapp.net', '14155550100@s.whatsapp.net'],
      },
    });
    expect(callsOf('/user/check').map((c) => c.body)).toEqual([
      { Phone: ['5561988887777', '556188887777', '5511987650001', '551187650001'] },
    ]);
    expect(isOwnWuzapiMessageId(SECRET, sent!.body.Id as string)).toBe(true);
    expect(result).toEqual({ providerMessageId: sent!.body.Id, ack: 1, timestamp: expect.any(Number) });
  });

  it('a refusal is a ProviderError: no session (permanent), gateway trouble (retryable)', async () => {
    sim.failNext('/chat/send/text', 500, 'no session');
    await expect(live.sendMention!(GROUP, 'oi', [])).rejects.toMatchObject({ permanent: true });
    sim.failNext('/group/list', 502, 'bad gateway');
    const error = await live.listGroups!().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ permanent: false, status: 502 });
  });
});
