/**
 * The live session routes of a Wuzapi (meow) channel through the app, against the simulator over real HTTP: group
 * members, mentions, group and phone-book sync, number checks and stored history run over Wuzapi's API; and the
 * login's history import of a channel with importMessages (signed HistorySync webhooks stored read, not announced,
 * the tickets they created closed at the end).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto, ImportMessagesStatus, MessageListResponse, TicketDto } from '@conversa/shared';
import type { JobDefinition } from '../../../../platform/jobs/queue.js';
import { recordEvents } from '../../../../test/messages-kit.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { liveMessagingOf } from '../../../messages/messages.live.routes.js';
import { startWuzapiSimulator, type WuzapiSimulator } from './wuzapi.simulator.js';
import { historyRow, historySyncEvent } from './wuzapi.simulator.live.js';

const TOKEN = 'MEOW-LIVE-FLOW-TOKEN-01';
const IMPORT_TOKEN = 'MEOW-LIVE-FLOW-TOKEN-02';
const GROUP = '120363040512345678@g.us';
const OTHER_GROUP = '120363099999999999@g.us';
const MARIA = '5511987650001';
const DAY = 86_400_000;
const NOW = Date.now();
const events = JSON.parse(fs.readFileSync(new URL('./fixtures/events.json', import.meta.url), 'utf8')) as Record<
  string,
  { type: string; event: { Info: Record<string, unknown>; Message: unknown } }
>;

let t: TestApp;
let sim: WuzapiSimulator;
let admin: TestUser;
let agent: TestUser;
let channel: ChannelDto;

const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;
/** A webhook exactly as Wuzapi posts it for the user (form encoded, signed with the HMAC key the server set). */
const deliver = (token: string, event: Record<string, unknown>) => {
  const request = sim.webhook(token, event);
  return t.app.inject({
    method: 'POST',
    url: new URL(request.url).pathname,
    headers: request.headers,
    payload: request.payload,
  });
};
const sql = async <T>(query: string) => (await t.database.executeSql(query)).rows as T[];
const messageIds = async (channelId: number) =>
  (await sql<{ id: string }>(`select message_id as id from messages where channel_id = ${channelId}`))
    .map((r) => r.id)
    .sort();
const live = (token = TOKEN) => sim.users.get(token)!.live;

/** A stored message of Maria's chat as Wuzapi keeps it (the events.Message in data_json). */
const storedText = (id: string, at: number, body: string, fromMe = false) => {
  const event = structuredClone(events[fromMe ? 'from-me' : 'text']!.event);
  Object.assign(event.Info, { ID: id, Timestamp: new Date(at).toISOString() });
  event.Message = { conversation: body };
  sim.history.push(historyRow(live().id, event));
};

async function connect(name: string, token: string, options: Record<string, unknown> = {}): Promise<ChannelDto> {
  sim.addUser(token);
  const created = await t.call(admin, 'POST', '/whatsapp', {
    name,
    type: 'meow',
    remotePath: sim.url,
    tokenAPI: token,
    wabaId: name.toLowerCase().replace(/\W/g, ''),
    ...options,
  });
  expect(created.statusCode, created.body).toBe(201);
  const row = created.json<ChannelDto>();
  expect((await t.call(admin, 'POST', `/whatsappsession/${row.id}`)).statusCode).toBe(200);
  sim.login(token, '5511911112222:14@s.whatsapp.net');
  expect((await deliver(token, events.connected!)).statusCode).toBe(200);
  return row;
}

beforeAll(async () => {
  sim = await startWuzapiSimulator();
  t = await createTestApp({ PUBLIC_URL: 'https://conversa.example' });
  ({ admin, agent } = await t.createStaff());
  liveMessagingOf(t.platform).history.configure({ pollMs: 40, quietMs: 600, maxMs: 10_000 });
  channel = await connect('Loja Live', TOKEN);
  live().history = 100;
  live().groups.set(GROUP, {
    name: 'Clientes VIP',
    members: [
      { jid: '5511911110001@s.whatsapp.net', admin: 'superadmin' },
      { jid: '203848103145503@lid', phone: '5511912340002@s.whatsapp.net' },
    ],
  });
  live().groups.set(OTHER_GROUP, { name: 'Fornecedores', members: [] });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('groups', () => {
  let ticketId: number;
  beforeAll(async () => {
    expect((await deliver(TOKEN, events.group!)).statusCode).toBe(200);
    const [row] = await sql<{ id: number }>(
      `select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = '${GROUP}'`,
    );
    ticketId = Number(row!.id);
  });

  it('POST /messages/listParticipants asks /group/info for the members of the ticket’s group', async () => {
    const res = await t.call(agent, 'POST', '/messages/listParticipants', { ticket: { id: ticketId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().participants).toEqual([
      expect.objectContaining({ id: '5511911110001@c.us', number: '5511911110001', isAdmin: true, userId: null }),
      // The member who wrote (by LID here, by phone in the group message) is a contact already.
      expect.objectContaining({
        id: '5511912340002@c.us',
        number: '5511912340002',
        isAdmin: false,
        userId: expect.any(Number),
      }),
    ]);
    expect(sim.callsOf('/group/info').at(-1)).toMatchObject({ method: 'GET', query: { groupJID: GROUP }, body: {} });
  });

  it('mentionMessage and mentionAllMessage reach Wuzapi as /chat/send/text with ContextInfo.MentionedJID', async () => {
    const listed = await t.call(agent, 'POST', '/messages/mentionMessage', {
      body: 'Olá @5511911110001',
      ticket: { id: ticketId },
      participants: ['5511911110001@c.us'],
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const all = await t.call(agent, 'POST', '/messages/mentionAllMessage', { body: 'Reunião', ticket: ticketId });
    expect(all.statusCode, all.body).toBe(200);
    expect(await t.jobs.runPending(job('messages.send-mention'))).toBe(2);
    const bodies = sim
      .callsOf('/chat/send/text')
      .map((c) => ({ Phone: c.body.Phone, Body: c.body.Body, ContextInfo: c.body.ContextInfo }))
      .sort((a, b) => String(a.Body).localeCompare(String(b.Body)));
    expect(bodies).toEqual([
      { Phone: GROUP, Body: 'Olá @5511911110001', ContextInfo: { MentionedJID: ['5511911110001@s.whatsapp.net'] } },
      {
        Phone: GROUP,
        Body: 'Reunião\n@5511911110001 @5511912340002',
        ContextInfo: { MentionedJID: ['5511911110001@s.whatsapp.net', '5511912340002@s.whatsapp.net'] },
      },
    ]);
    const rows = await sql<{ status: string; message_id: string }>(
      `select status, message_id from messages where id in (${listed.json().id}, ${all.json().id})`,
    );
    expect(rows.map((r) => r.status)).toEqual(['sended', 'sended']);
    expect(rows.every((r) => r.message_id.startsWith('3EB0'))).toBe(true);
  });

  it('POST /groups/sync: a contact per group of /group/list, the new one named by its subject, none twice', async () => {
    const first = await t.call(admin, 'POST', '/groups/sync');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ total: 2, created: 1 });
    expect((await t.call(admin, 'POST', '/groups/sync')).json()).toMatchObject({ total: 2, created: 0, renamed: 0 });
    const rows = await sql<{ number: string; name: string; is_group: boolean }>(
      `select number, name, is_group from contacts where number like '%@g.us' order by number`,
    );
    expect(rows.map((r) => [r.number, r.name, r.is_group])).toEqual([
      [GROUP, expect.any(String), true],
      [OTHER_GROUP, 'Fornecedores', true],
    ]);
  });
});

describe('contacts', () => {
  it('POST /contacts/sync: the phone book’s people from /user/contacts, as WhatsApp gave them, with their names', async () => {
    const book = live().contacts;
    book.set('551187650002@s.whatsapp.net', { FullName: 'Bruna Lima', PushName: 'Bru' });
    book.set('351912345678@s.whatsapp.net', {});
    book.set(GROUP, { FullName: 'Clientes VIP' });
    book.set('203848103145777@lid', { PushName: 'Sem número' });
    const res = await t.call(admin, 'POST', '/contacts/sync');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 2, created: 2 });
    const rows = await sql<{ number: string; name: string }>(
      `select number, name from contacts where number in ('551187650002', '5511987650002', '351912345678') order by number`,
    );
    expect(rows).toEqual([
      { number: '351912345678', name: '351912345678' },
      { number: '551187650002', name: 'Bruna Lima' },
    ]);
  });

  it('GET /contactsNumber/{n}: the contact under the number WhatsApp knows, or ERR_CONTACTS_NOT_EXISTS_WHATSAPP', async () => {
    sim.registered.add('551133330001');
    sim.registered.add('551187650003');
    const found = await t.call(agent, 'GET', '/contactsNumber/5511987650003');
    expect(found.statusCode, found.body).toBe(200);
    // Stored as WhatsApp knows it (the 12-digit JID), so a message to it reaches the customer.
    expect(found.json()).toMatchObject({ number: '551187650003', isGroup: false });
    expect(sim.callsOf('/user/check').at(-1)!.body).toEqual({ Phone: ['5511987650003', '551187650003'] });
    const missing = await t.call(agent, 'GET', '/contactsNumber/5511900009999');
    expect(missing.json()).toMatchObject({ error: 'ERR_CONTACTS_NOT_EXISTS_WHATSAPP' });
  });

  it('POST /checkContacts checks every person contact over /user/check', async () => {
    const people = await sql<{ number: string }>(
      `select number from contacts where tenant_id = ${admin.tenantId} and not is_group and number is not null`,
    );
    const known = people.filter((p) =>
      [p.number, p.number.replace(/^(55\d{2})9(\d{8})$/, '$1$2')].some((n) => sim.registered.has(n)),
    );
    expect(known.length).toBeGreaterThan(0);
    expect(people.length).toBeGreaterThan(known.length);
    const res = await t.call(admin, 'POST', '/checkContacts');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      checked: people.length,
      valid: known.length,
      invalid: people.length - known.length,
      failed: 0,
    });
  });
});

describe('older history', () => {
  it('POST /messages/syncOldByUser reads /chat/history; stored once, with progress', async () => {
    sim.registered.add(MARIA);
    for (let i = 0; i < 3; i++) storedText(`OLD-${i}`, NOW - (5 - i) * DAY, `antiga ${i}`);
    storedText('OLD-ME', NOW - 2 * DAY, 'resposta', true);
    const progress: ImportMessagesStatus[] = [];
    const stop = t.platform.events.subscribe('messages.import_progress', (e) => {
      if (e.channelId === channel.id && e.progress.action === 'update') progress.push(e.progress.status);
    });
    const body = { whatsappId: channel.id, limit: 10, contactId: `${MARIA}@c.us` };
    const res = await t.call(admin, 'POST', '/messages/syncOldByUser', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ requested: 4 });
    await liveMessagingOf(t.platform).history.idle();
    expect(sim.callsOf('/chat/history').map((c) => c.query)).toEqual([
      { chat_jid: `${MARIA}@s.whatsapp.net`, limit: '10' },
    ]);
    const ids = await messageIds(channel.id);
    expect(ids.filter((id) => id.startsWith('OLD-'))).toEqual(['OLD-0', 'OLD-1', 'OLD-2', 'OLD-ME']);
    expect(progress[0]).toEqual({ this: 0, all: 4, date: null });
    expect(progress.at(-1)).toMatchObject({ this: -1, all: -1 });
    stop();

    // Every chat (the user's chats of the history index): nothing is stored twice.
    const again = await t.call(admin, 'POST', '/messages/syncOld', { whatsappId: channel.id, limit: 50 });
    expect(again.statusCode, again.body).toBe(200);
    await liveMessagingOf(t.platform).history.idle();
    expect(
      sim
        .callsOf('/chat/history')
        .slice(1)
        .map((c) => c.query),
    ).toEqual([{ chat_jid: 'index' }, { chat_jid: `${MARIA}@s.whatsapp.net`, limit: '50' }]);
    expect(await messageIds(channel.id)).toEqual(ids);
    const mine = await sql<{ body: string; from_me: boolean }>(
      `select body, from_me from messages where message_id = 'OLD-ME'`,
    );
    expect(mine).toEqual([{ body: 'resposta', from_me: true }]);
  });

  it('a stray HistorySync on a channel without importMessages stores nothing (and is not subscribed)', async () => {
    const before = await messageIds(channel.id);
    const stray = historySyncEvent(3, [{ id: `${MARIA}@s.whatsapp.net`, messages: [] }], { progress: 100 });
    (stray.event as { Data: { conversations: unknown[] } }).Data.conversations = [
      {
        ID: `${MARIA}@s.whatsapp.net`,
        messages: [
          {
            message: {
              key: { remoteJID: `${MARIA}@s.whatsapp.net`, fromMe: false, ID: 'STRAY-1' },
              message: { conversation: 'perdida' },
              messageTimestamp: Math.floor((NOW - DAY) / 1000),
            },
          },
        ],
      },
    ];
    expect((await deliver(TOKEN, stray)).statusCode).toBe(200);
    expect(await messageIds(channel.id)).toEqual(before);
    expect(sim.users.get(TOKEN)!.events).not.toContain('HistorySync');
  });
});

describe('the login’s history import (importMessages)', () => {
  it('HistorySync is stored read and unannounced, within the options; the tickets it created close at its end', async () => {
    const imported = await connect('Loja Historico', IMPORT_TOKEN, {
      importMessages: 'enabled',
      importOldMessages: new Date(NOW - 10 * DAY).toISOString(),
      importRecentMessages: new Date(NOW - DAY).toISOString(),
      importOldMessagesGroups: 'disabled',
      closedTicketsPostImported: 'enabled',
    });
    expect(sim.users.get(IMPORT_TOKEN)!.events).toContain('HistorySync');
    const progress: (ImportMessagesStatus | 'refresh')[] = [];
    t.platform.events.subscribe('messages.import_progress', (e) => {
      if (e.channelId !== imported.id) return;
      progress.push(e.progress.action === 'update' ? e.progress.status : 'refresh');
    });
    const recorded = recordEvents(t);
    const bia = '5511955550001@s.whatsapp.net';
    const msg = (id: string, at: number, body: string, extra: Record<string, unknown> = {}) => ({
      id,
      time: Math.floor(at / 1000),
      pushName: 'Bia',
      message: { conversation: body },
      ...extra,
    });
    const bootstrap = historySyncEvent(0, [
      {
        id: bia,
        messages: [msg('H-BIA-1', NOW - 5 * DAY, 'Pedido 123?'), msg('H-BIA-OLD', NOW - 20 * DAY, 'antes da data')],
      },
      { id: GROUP, messages: [msg('H-GROUP', NOW - 4 * DAY, 'no grupo', { participant: bia })] },
      // A phone's history comes in chunks of several MB, above the app's 1 MiB body limit (outside the dates here).
      {
        id: '5511955550002@s.whatsapp.net',
        messages: Array.from({ length: 2_000 }, (_, i) =>
          msg(`H-OLD-${i}`, NOW - 30 * DAY, `${i} ${'x'.repeat(1_000)}`),
        ),
      },
    ]);
    const large = sim.webhook(IMPORT_TOKEN, bootstrap, 'form');
    expect(Buffer.byteLength(large.payload)).toBeGreaterThan(2 * 1024 * 1024);
    expect((await deliver(IMPORT_TOKEN, bootstrap)).statusCode).toBe(200);
    expect(await messageIds(imported.id)).toEqual(['H-BIA-1']);
    const [ticket] = await sql<{ id: number; status: string }>(
      `select id, status from tickets where channel_id = ${imported.id}`,
    );
    expect(ticket!.status).toBe('pending');

    const recent = historySyncEvent(
      3,
      [{ id: bia, messages: [msg('H-BIA-2', NOW - 3 * DAY, 'Chegou!', { fromMe: true })] }],
      { progress: 100 },
    );
    expect((await deliver(IMPORT_TOKEN, recent)).statusCode).toBe(200);
    expect(await messageIds(imported.id)).toEqual(['H-BIA-1', 'H-BIA-2']);
    const list = (await t.call(admin, 'GET', `/messages/${ticket!.id}`)).json<MessageListResponse>().messages;
    expect(list.map((m) => [m.messageId, m.read, m.sendType])).toEqual([
      ['H-BIA-1', true, 'import'],
      ['H-BIA-2', true, 'import'],
    ]);
    expect(recorded.messages.filter((e) => e.type === 'chat:create')).toEqual([]);
    expect(recorded.tickets.filter((e) => e.type === 'ticket:create')).toEqual([]);
    const closed = (await t.call(admin, 'GET', `/tickets/${ticket!.id}`)).json<TicketDto>();
    expect(closed).toMatchObject({ status: 'closed', unreadMessages: 0 });
    const date = new Date(Math.floor((NOW - 5 * DAY) / 1000) * 1000).toISOString();
    expect(progress.at(0)).toEqual({ this: 0, all: 1, date: null });
    expect(progress.slice(-2)).toEqual([{ this: -1, all: -1, date }, 'refresh']);
  });
});
