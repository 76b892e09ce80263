/**
 * The login's history import through the app (H8): a Baileys channel saved with its import options (dates, queue,
 * close after import, no groups) logs in over the fake socket; WhatsApp's history chunks reach ingestion through the
 * session host; a socket.io client of the tenant sees `{T}:importMessages` progress in order, then -1/-1 and
 * `refresh`, and no `chat:create`/`notification:new` for imported messages; the imported messages are stored once,
 * within the dates, marked `syncTime`, without unread; the tickets the import created go to the import queue and are
 * closed at the end, except the one a customer wrote to live meanwhile.
 */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proto } from 'baileys';
import { tenantEvent, type ChannelDto, type MessageListResponse, type TicketDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../../../platform/db/tenancy.js';
import { eventually } from '../../../../test/eventually.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { queues } from '../../../queues/queues.tables.js';
import { messages } from '../../../messages/messages.tables.js';
import { createBaileysDriver } from './baileys.driver.js';
import { makeWASocket } from './baileys.fake-socket.js';
import { startBaileysSimulator, type BaileysSimulator } from './baileys.simulator.js';

let t: TestApp;
let sim: BaileysSimulator;
let admin: TestUser;
let channel: ChannelDto;
let queueId: number;
let socket: Socket;
const importEvents: unknown[] = [];
const ticketList: { type: string; payload: { body?: string; id?: number } }[] = [];

const DAY = 86_400_000;
const NOW = Date.now();
const seconds = (daysAgo: number) => Math.floor((NOW - daysAgo * DAY) / 1000);
const ANA = '5511911112222@s.whatsapp.net';
const BRUNO = '5511933334444@s.whatsapp.net';
const CAIO = '5511955556666@s.whatsapp.net';
const GROUP = '120363000000000031@g.us';
const wa = (jid: string, id: string, body: string, daysAgo: number, fromMe = false) => ({
  key: { remoteJid: jid, fromMe, id, ...(jid === GROUP ? { participant: ANA } : {}) },
  message: { conversation: body },
  messageTimestamp: seconds(daysAgo),
  pushName: fromMe ? 'Loja' : 'Cliente',
});

beforeAll(async () => {
  sim = await startBaileysSimulator();
  const driver = createBaileysDriver({
    makeSocket: (config, hint) => makeWASocket({ ...config, channelId: hint.channelId, simulatorUrl: sim.url }),
  });
  t = await createTestApp({}, { sessionDrivers: [driver] });
  await t.startBackground();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  ({ admin } = await t.createStaff());
  const [queue] = await withTenant(t.platform.db, systemContext(1), (tx) =>
    tx.insert(queues).values({ tenantId: 1, queue: 'Importados' }).returning(),
  );
  queueId = queue!.id;
  const created = await t.call(admin, 'POST', '/whatsapp', {
    name: 'WhatsApp Histórico',
    type: 'baileys',
    importMessages: 'enabled',
    importOldMessages: new Date(NOW - 10 * DAY).toISOString(),
    importRecentMessages: new Date(NOW - DAY).toISOString(),
    importOldMessagesGroups: 'disabled',
    closedTicketsPostImported: 'enabled',
    queueIdImportMessages: queueId,
  });
  expect(created.statusCode, created.body).toBe(201);
  channel = created.json<ChannelDto>();
  const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  socket = await new Promise<Socket>((resolve, reject) => {
    const s = io(url, { auth: { token: admin.token }, transports: ['websocket'] });
    s.on('connect', () => resolve(s));
    s.on('connect_error', reject);
  });
  socket.on(tenantEvent(1, 'importMessages'), (payload: unknown) => importEvents.push(payload));
  socket.on(tenantEvent(1, 'ticketList'), (payload: (typeof ticketList)[number]) => ticketList.push(payload));
});
afterAll(async () => {
  socket?.disconnect();
  await t?.close();
  await sim?.close();
});

const ticketOfMessage = async (providerId: string) => {
  const rows = await withTenant(t.platform.db, systemContext(1), (tx) => tx.select().from(messages));
  const row = rows.find((r) => r.messageId === providerId);
  return row ? (await t.call(admin, 'GET', `/tickets/${row.ticketId}`)).json<TicketDto>() : null;
};
const storedIds = async () =>
  (await withTenant(t.platform.db, systemContext(1), (tx) => tx.select().from(messages)))
    .map((r) => r.messageId!)
    .sort();

describe('Baileys: the login history imported with the channel options', () => {
  it('logs in, imports the history chunks, reports progress, closes the tickets it created', async () => {
    expect((await t.call(admin, 'POST', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
    const channelStatus = async () => (await t.call(admin, 'GET', `/whatsapp/${channel.id}`)).json<ChannelDto>();
    await eventually(channelStatus, (c) => c.status === 'qrcode', 'the QR');
    sim.scan(channel.id, { number: '5561999990000', name: 'Loja' });
    await eventually(channelStatus, (c) => c.status === 'CONNECTED', 'CONNECTED');

    sim.emit(channel.id, 'messaging-history.set', {
      chats: [],
      contacts: [],
      syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
      progress: 20,
      messages: [
        wa(ANA, 'H-ANA-1', 'Pedido 123 chegou?', 5),
        wa(ANA, 'H-ANA-OLD', 'antes da data inicial', 20),
        wa(GROUP, 'H-GROUP', 'no grupo', 4),
        wa(BRUNO, 'H-BRUNO-1', 'Respondido pelo celular', 3, true),
      ],
    });
    sim.emit(channel.id, 'messaging-history.set', {
      chats: [],
      contacts: [],
      syncType: proto.HistorySync.HistorySyncType.RECENT,
      progress: 100,
      messages: [
        wa(CAIO, 'H-CAIO-1', 'Orçamento?', 2),
        wa(ANA, 'H-ANA-1', 'Pedido 123 chegou?', 5),
        wa(CAIO, 'H-CAIO-NEW', 'depois da data final', 0.5),
      ],
    });
    // Caio writes live before WhatsApp says the history is complete.
    sim.emit(channel.id, 'messages.upsert', {
      type: 'notify',
      messages: [wa(CAIO, 'LIVE-CAIO', 'Alguém aí?', 0)],
    });
    sim.emit(channel.id, 'messaging-history.status', {
      syncType: proto.HistorySync.HistorySyncType.RECENT,
      status: 'complete',
      explicit: true,
    });
    await eventually(
      async () => importEvents,
      (events) => events.some((e) => (e as { action: string }).action === 'refresh'),
      'the import end',
    );

    // Stored once each, only those within the dates, no group.
    expect(await storedIds()).toEqual(['H-ANA-1', 'H-BRUNO-1', 'H-CAIO-1', 'LIVE-CAIO']);
    const date = new Date(seconds(5) * 1000).toISOString();
    expect(importEvents).toEqual([
      { action: 'update', status: { this: 0, all: 2, date: null } },
      { action: 'update', status: { this: 2, all: 2, date } },
      { action: 'update', status: { this: 2, all: 4, date } },
      { action: 'update', status: { this: 4, all: 4, date } },
      { action: 'update', status: { this: -1, all: -1, date } },
      { action: 'refresh' },
    ]);

    // The tickets the import created: in the import queue, nothing unread, closed at the end.
    const ana = (await ticketOfMessage('H-ANA-1'))!;
    const bruno = (await ticketOfMessage('H-BRUNO-1'))!;
    for (const ticket of [ana, bruno]) {
      expect(ticket).toMatchObject({ status: 'closed', queueId, unreadMessages: 0 });
    }
    // Caio's ticket got a live message: it stays, with that one message unread.
    const caio = (await ticketOfMessage('H-CAIO-1'))!;
    expect(caio).toMatchObject({ status: 'pending', queueId, unreadMessages: 1 });
    expect((await ticketOfMessage('LIVE-CAIO'))!.id).toBe(caio.id);

    const history = (await t.call(admin, 'GET', `/messages/${caio.id}`)).json<MessageListResponse>();
    const byId = new Map(history.messages.map((m) => [m.messageId, m]));
    expect(byId.get('H-CAIO-1')).toMatchObject({ body: 'Orçamento?', read: true, sendType: 'import' });
    expect(byId.get('H-CAIO-1')!.syncTime).toEqual(expect.any(String));
    expect(byId.get('LIVE-CAIO')).toMatchObject({ read: false, syncTime: null });

    // Only the live message was announced to the screens.
    await eventually(
      async () => ticketList,
      (events) => events.some((e) => e.type === 'chat:create'),
      'the live chat:create',
    );
    expect(ticketList.filter((e) => e.type === 'chat:create').map((e) => e.payload.body)).toEqual(['Alguém aí?']);
    expect(ticketList.filter((e) => e.type === 'notification:new' || e.type === 'ticket:create')).toEqual([]);
  });
});
