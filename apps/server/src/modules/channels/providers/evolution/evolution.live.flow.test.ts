/**
 * The live session routes of an Evolution channel through the app, against the simulator over real HTTP: group
 * members, mentions, group and phone-book sync, number checks and older history run over Evolution's API; and the
 * login's history import of a channel with importMessages (messages.set stored read, not announced, the tickets it
 * created closed at its end).
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChannelDto, ImportMessagesStatus, MessageListResponse, TicketDto } from '@conversa/shared';
import type { JobDefinition } from '../../../../platform/jobs/queue.js';
import { recordEvents } from '../../../../test/messages-kit.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { liveMessagingOf } from '../../../messages/messages.live.routes.js';
import { EVOLUTION_HISTORY_QUIET_MS } from './evolution.history.js';
import { startEvolutionSimulator, type EvolutionSimulator } from './evolution.simulator.js';

const dataOf = (name: string): Record<string, unknown> =>
  (
    JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as {
      data: Record<string, unknown>;
    }
  ).data;

const GROUP = '120363025246125486@g.us';
const OTHER_GROUP = '120363000000077@g.us';
const MARIA = '5511987654321';
const DAY = 86_400_000;
const NOW = Date.now();

let t: TestApp;
let sim: EvolutionSimulator;
let admin: TestUser;
let agent: TestUser;
let channel: ChannelDto;

const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;
const deliver = (request: ReturnType<EvolutionSimulator['webhook']>) =>
  t.app.inject({ method: 'POST', url: request.path, headers: request.headers, payload: request.payload });
const sql = async <T>(query: string) => (await t.database.executeSql(query)).rows as T[];
const messageIds = async (channelId: number) =>
  (await sql<{ id: string }>(`select message_id as id from messages where channel_id = ${channelId}`))
    .map((r) => r.id)
    .sort();

const record = (id: string, remoteJid: string, at: number, text: string, fromMe = false) => ({
  id: `db-${id}`,
  key: {
    remoteJid,
    fromMe,
    id,
    ...(remoteJid.endsWith('@g.us') ? { participant: '5511911110001@s.whatsapp.net' } : {}),
  },
  pushName: fromMe ? 'Loja' : 'Maria Souza',
  messageType: 'conversation',
  message: { conversation: text },
  messageTimestamp: Math.floor(at / 1000),
  instanceId: 'sim',
  source: 'android',
  contextInfo: null,
});

async function connect(name: string, instance: string, options: Record<string, unknown> = {}): Promise<ChannelDto> {
  // The company's own gateway (its URL and key typed in the channel): the instance is the one of that name.
  const own = { remotePath: sim.url, tokenAPI: sim.apiKey };
  const created = await t.call(admin, 'POST', '/whatsapp', { name, type: 'evo', ...own, ...options });
  expect(created.statusCode, created.body).toBe(201);
  const row = created.json<ChannelDto>();
  expect((await t.call(admin, 'POST', `/whatsappsession/${row.id}`)).statusCode).toBe(200);
  expect((await deliver(sim.open(instance, '5511900000000@s.whatsapp.net'))).statusCode).toBe(200);
  return row;
}

beforeAll(async () => {
  sim = await startEvolutionSimulator();
  t = await createTestApp({ PUBLIC_URL: 'https://conversa.example' });
  ({ admin, agent } = await t.createStaff());
  liveMessagingOf(t.platform).history.configure({ pollMs: 40, quietMs: 600, maxMs: 10_000 });
  channel = await connect('Loja Live', 'LojaLive');
  const instance = sim.instances.get('LojaLive')!;
  instance.groups.set(GROUP, {
    id: GROUP,
    subject: 'Clientes VIP',
    participants: [
      { id: '5511911110001@s.whatsapp.net', admin: 'superadmin', name: 'Ana' },
      { id: '203848103145503@lid', phoneNumber: '5511912345678@s.whatsapp.net', notify: 'João' },
    ],
  });
  instance.groups.set(OTHER_GROUP, { id: OTHER_GROUP, subject: 'Fornecedores', participants: [] });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('groups', () => {
  let ticketId: number;
  beforeAll(async () => {
    expect((await deliver(sim.webhook('LojaLive', 'messages.upsert', dataOf('group')))).statusCode).toBe(200);
    const [row] = await sql<{ id: number }>(
      `select t.id from tickets t join contacts c on c.id = t.contact_id where c.number = '${GROUP}'`,
    );
    ticketId = Number(row!.id);
  });

  it('POST /messages/listParticipants asks Evolution for the members of the ticket’s group', async () => {
    const res = await t.call(agent, 'POST', '/messages/listParticipants', { ticket: { id: ticketId } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().participants).toEqual([
      { id: '5511911110001@c.us', number: '5511911110001', name: 'Ana', isAdmin: true, userId: null },
      // The member who wrote is a contact already (the group message's participant).
      { id: '5511912345678@c.us', number: '5511912345678', name: 'João', isAdmin: false, userId: expect.any(Number) },
    ]);
    expect(sim.callsOf('group/participants').at(-1)).toMatchObject({
      method: 'GET',
      instance: 'LojaLive',
      query: `?groupJid=${encodeURIComponent(GROUP)}`,
    });
  });

  it('mentionMessage and mentionAllMessage reach Evolution as sendText with the mentioned numbers', async () => {
    const listed = await t.call(agent, 'POST', '/messages/mentionMessage', {
      body: 'Olá @5511911110001',
      ticket: { id: ticketId },
      participants: ['5511911110001@c.us'],
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const all = await t.call(agent, 'POST', '/messages/mentionAllMessage', { body: 'Reunião', ticket: ticketId });
    expect(all.statusCode, all.body).toBe(200);
    expect(await t.jobs.runPending(job('messages.send-mention'))).toBe(2);
    // The two jobs may run in either order.
    const bodies = sim.callsOf('message/sendText').map((c) => c.body);
    expect(bodies.sort((a, b) => String(a.text).localeCompare(String(b.text)))).toEqual([
      { number: GROUP, text: 'Olá @5511911110001', mentioned: ['5511911110001'] },
      {
        number: GROUP,
        text: 'Reunião\n@5511911110001 @5511912345678',
        mentioned: ['5511911110001', '5511912345678'],
      },
    ]);
    const rows = await sql<{ status: string; message_id: string }>(
      `select status, message_id from messages where id in (${listed.json().id}, ${all.json().id})`,
    );
    expect(rows.map((r) => r.status)).toEqual(['sended', 'sended']);
    expect(rows.every((r) => r.message_id.startsWith('3EB0'))).toBe(true);
  });

  it('POST /groups/sync: a contact per group, the new one named by its subject, none twice', async () => {
    const first = await t.call(admin, 'POST', '/groups/sync');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ total: 2, created: 1 });
    expect((await t.call(admin, 'POST', '/groups/sync')).json()).toMatchObject({ total: 2, created: 0, renamed: 0 });
    const rows = await sql<{ number: string; name: string; is_group: boolean }>(
      `select number, name, is_group from contacts where number like '%@g.us' order by number`,
    );
    expect(rows.map((r) => [r.number, r.is_group])).toEqual([
      [OTHER_GROUP, true],
      [GROUP, true],
    ]);
    expect(rows[0]!.name).toBe('Fornecedores');
    expect(sim.callsOf('group/fetchAllGroups').at(-1)!.query).toBe('?getParticipants=false');
  });
});

describe('contacts', () => {
  it('POST /contacts/sync: the phone book’s people, stored as WhatsApp gave them (12 digits stay 12), with their names', async () => {
    sim.instances
      .get('LojaLive')!
      .contacts.push(
        { remoteJid: '551187650001@s.whatsapp.net', pushName: 'Bruna' },
        { remoteJid: '351912345678@s.whatsapp.net', pushName: null },
        { remoteJid: GROUP, pushName: 'Clientes VIP' },
        { remoteJid: '203848103145777@lid', pushName: 'Sem número' },
      );
    const res = await t.call(admin, 'POST', '/contacts/sync');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ total: 2, created: 2 });
    const rows = await sql<{ number: string; name: string }>(
      `select number, name from contacts where number in ('551187650001', '5511987650001', '351912345678') order by number`,
    );
    expect(rows).toEqual([
      { number: '351912345678', name: '351912345678' },
      { number: '551187650001', name: 'Bruna' },
    ]);
  });

  it('GET /contactsNumber/{n}: the contact under the number WhatsApp knows, or ERR_CONTACTS_NOT_EXISTS_WHATSAPP', async () => {
    sim.whatsappJids.add('551133330001@s.whatsapp.net');
    sim.whatsappJids.add('551187650002@s.whatsapp.net');
    const found = await t.call(agent, 'GET', '/contactsNumber/5511987650002');
    expect(found.statusCode, found.body).toBe(200);
    // Stored as WhatsApp knows it (the 12-digit JID), so a message to it reaches the customer.
    expect(found.json()).toMatchObject({ number: '551187650002', isGroup: false });
    expect(sim.callsOf('chat/whatsappNumbers').at(-1)!.body).toEqual({ numbers: ['5511987650002', '551187650002'] });
    const missing = await t.call(agent, 'GET', '/contactsNumber/5511900009999');
    expect(missing.json()).toMatchObject({ error: 'ERR_CONTACTS_NOT_EXISTS_WHATSAPP' });
  });

  it('POST /checkContacts checks every person contact over whatsappNumbers', async () => {
    const people = await sql<{ number: string }>(
      `select number from contacts where tenant_id = ${admin.tenantId} and not is_group and number is not null`,
    );
    const known = people.filter((p) =>
      [p.number, p.number.replace(/^(55\d{2})9(\d{8})$/, '$1$2')].some((n) =>
        sim.whatsappJids.has(`${n}@s.whatsapp.net`),
      ),
    );
    expect(known.length).toBeGreaterThan(0);
    const before = sim.callsOf('chat/whatsappNumbers').length;
    const res = await t.call(admin, 'POST', '/checkContacts');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      checked: people.length,
      valid: known.length,
      invalid: people.length - known.length,
      failed: 0,
    });
    expect(sim.callsOf('chat/whatsappNumbers').length - before).toBe(people.length);
  });
});

describe('older history', () => {
  it('POST /messages/syncOldByUser fetches the chat from findMessages; stored once, with progress', async () => {
    for (let i = 0; i < 3; i++) {
      sim.storeMessage('LojaLive', record(`OLD-${i}`, `${MARIA}@s.whatsapp.net`, NOW - (5 - i) * DAY, `antiga ${i}`));
    }
    sim.storeMessage('LojaLive', record('OLD-ME', `${MARIA}@s.whatsapp.net`, NOW - 2 * DAY, 'resposta', true));
    const progress: ImportMessagesStatus[] = [];
    const stop = t.platform.events.subscribe('messages.import_progress', (e) => {
      if (e.channelId === channel.id && e.progress.action === 'update') progress.push(e.progress.status);
    });
    const body = { whatsappId: channel.id, limit: 10, contactId: `${MARIA}@c.us` };
    const res = await t.call(admin, 'POST', '/messages/syncOldByUser', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ requested: 4 });
    await liveMessagingOf(t.platform).history.idle();
    // Each form WhatsApp may know Maria's number by.
    expect(sim.callsOf('chat/findMessages').map((c) => c.body)).toEqual([
      { where: { key: { remoteJid: `${MARIA}@s.whatsapp.net` } }, offset: 50, page: 1 },
      { where: { key: { remoteJid: '551187654321@s.whatsapp.net' } }, offset: 50, page: 1 },
    ]);
    const ids = await messageIds(channel.id);
    expect(ids.filter((id) => id.startsWith('OLD-'))).toEqual(['OLD-0', 'OLD-1', 'OLD-2', 'OLD-ME']);
    expect(progress[0]).toEqual({ this: 0, all: 4, date: null });
    expect(progress.at(-1)).toMatchObject({ this: -1, all: -1 });

    // Everything again (all chats): nothing is stored twice.
    stop();
    expect((await t.call(admin, 'POST', '/messages/syncOld', { whatsappId: channel.id, limit: 50 })).json()).toEqual({
      requested: 6,
    });
    await liveMessagingOf(t.platform).history.idle();
    expect(await messageIds(channel.id)).toEqual(ids);
    const history = await sql<{ body: string; from_me: boolean }>(
      `select body, from_me from messages where message_id = 'OLD-ME'`,
    );
    expect(history).toEqual([{ body: 'resposta', from_me: true }]);
  });

  it('a stray messages.set on a channel without importMessages stores nothing', async () => {
    const before = await messageIds(channel.id);
    const stray = [record('STRAY-1', `${MARIA}@s.whatsapp.net`, NOW - DAY, 'perdida')];
    expect((await deliver(sim.webhook('LojaLive', 'messages.set', stray))).statusCode).toBe(200);
    expect(await messageIds(channel.id)).toEqual(before);
    expect(sim.instances.get('LojaLive')!.webhook!.events).not.toContain('MESSAGES_SET');
  });
});

describe('the login’s history import (importMessages)', () => {
  it('messages.set is stored read and unannounced, within the options; the tickets it created close at its end', async () => {
    const imported = await connect('Loja Historico', 'LojaHistorico', {
      importMessages: 'enabled',
      importOldMessages: new Date(NOW - 10 * DAY).toISOString(),
      importRecentMessages: new Date(NOW - DAY).toISOString(),
      importOldMessagesGroups: 'disabled',
      closedTicketsPostImported: 'enabled',
    });
    expect(sim.callsOf('instance/create').at(-1)!.body).toMatchObject({
      instanceName: 'LojaHistorico',
      syncFullHistory: true,
    });
    expect(sim.instances.get('LojaHistorico')!.webhook!.events).toContain('MESSAGES_SET');
    const progress: (ImportMessagesStatus | 'refresh')[] = [];
    t.platform.events.subscribe('messages.import_progress', (e) => {
      if (e.channelId !== imported.id) return;
      progress.push(e.progress.action === 'update' ? e.progress.status : 'refresh');
    });
    const events = recordEvents(t);
    const send = (data: unknown[]) => deliver(sim.webhook('LojaHistorico', 'messages.set', data));
    const bia = '5511955550001@s.whatsapp.net';
    expect(
      (
        await send([
          record('H-BIA-1', bia, NOW - 5 * DAY, 'Pedido 123?'),
          record('H-BIA-OLD', bia, NOW - 20 * DAY, 'antes da data'),
          record('H-GROUP', GROUP, NOW - 4 * DAY, 'no grupo'),
        ])
      ).statusCode,
    ).toBe(200);
    expect((await send([record('H-BIA-2', bia, NOW - 3 * DAY, 'Chegou!', true)])).statusCode).toBe(200);
    expect(await messageIds(imported.id)).toEqual(['H-BIA-1', 'H-BIA-2']);
    const [ticket] = await sql<{ id: number; status: string }>(
      `select id, status from tickets where channel_id = ${imported.id}`,
    );
    expect(ticket!.status).toBe('pending');
    const list = (await t.call(admin, 'GET', `/messages/${ticket!.id}`)).json<MessageListResponse>().messages;
    expect(list.map((m) => [m.messageId, m.read, m.sendType])).toEqual([
      ['H-BIA-1', true, 'import'],
      ['H-BIA-2', true, 'import'],
    ]);
    expect(events.messages.filter((e) => e.type === 'chat:create')).toEqual([]);
    expect(events.tickets.filter((e) => e.type === 'ticket:create')).toEqual([]);

    // Evolution says nothing more: the next webhook after the quiet period ends the import.
    const later = Date.now() + EVOLUTION_HISTORY_QUIET_MS + 1000;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => later);
    try {
      const receipt = { keyId: 'H-BIA-2', remoteJid: bia, fromMe: true, status: 'READ', instanceId: 'sim' };
      expect((await deliver(sim.webhook('LojaHistorico', 'messages.update', receipt))).statusCode).toBe(200);
    } finally {
      clock.mockRestore();
    }
    const closed = (await t.call(admin, 'GET', `/tickets/${ticket!.id}`)).json<TicketDto>();
    expect(closed).toMatchObject({ status: 'closed', unreadMessages: 0 });
    const date = new Date(Math.floor((NOW - 5 * DAY) / 1000) * 1000).toISOString();
    expect(progress.at(0)).toEqual({ this: 0, all: 1, date: null });
    expect(progress.slice(-2)).toEqual([{ this: -1, all: -1, date }, 'refresh']);
  });
});
