/**
 * The realtime fan-out with the visibility policy: `{T}:ticketList` reaches only users who may see the ticket (never
 * another tenant), users who lose sight of it get `ticket:delete`, a new assignee gets `{T}:ticket`, `notify` adds
 * `notification:new`, and message events follow their ticket. Every "receives nothing" waits for a positive
 * control sent afterwards to the same socket.
 */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MessageEventDto, TicketDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { loadTicketDto } from './tickets.dto.js';
import { createTelegramChannel, ingestionFor, textEvent } from '../../test/messages-kit.js';
import { makeChannel, makeContact, makeQueue, makeTicket, recordingPort } from '../../test/ticket-fixtures.js';

let t: TestApp;
let url: string;
let admin: TestUser;
let inQueue: TestUser;
let outside: TestUser;
let stranger: TestUser;
let channel: number;
let q1: number;
let q2: number;
let channel2: number;
const sockets: Socket[] = [];

interface Seen {
  event: string;
  args: unknown[];
}

beforeAll(async () => {
  t = await createTestApp({}, { ticketMessaging: recordingPort().port });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await t.createUser({ tenantId: 1, profile: 'admin', name: 'Admin' });
  inQueue = await t.createUser({ tenantId: 1, profile: 'user', name: 'Na Fila' });
  outside = await t.createUser({ tenantId: 1, profile: 'user', name: 'Fora' });
  const tenant2 = await t.createTenant();
  stranger = await t.createUser({ tenantId: tenant2, profile: 'admin' });
  channel = await makeChannel(t, 1);
  channel2 = await makeChannel(t, tenant2);
  q1 = await makeQueue(t, 1, 'Q1', [inQueue.id]);
  q2 = await makeQueue(t, 1, 'Q2', [outside.id]);
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(() => t.close());

async function connect(user: TestUser): Promise<Seen[]> {
  const socket = io(url, {
    auth: { token: user.token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  const seen: Seen[] = [];
  socket.onAny((event: string, ...args: unknown[]) => seen.push({ event, args }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return seen;
}

/** Waits until `seen` holds an event matching `match`. */
async function arrives(seen: Seen[], match: (e: Seen) => boolean): Promise<Seen> {
  await expect.poll(() => seen.find(match), { timeout: 5_000, interval: 25 }).toBeDefined();
  return seen.find(match)!;
}

const about = (name: string, ticketId: number, type?: string) => (e: Seen) => {
  const payload = (e.args[0] ?? {}) as {
    type?: string;
    payload?: { id?: number; ticket?: { id: number } };
    ticket?: TicketDto;
  };
  const id = payload.payload?.id ?? payload.ticket?.id;
  return e.event === name && id === ticketId && (type === undefined || payload.type === type);
};

async function ticketOn(queueId: number | null, tenantId = 1, channelId = channel) {
  return makeTicket(t, tenantId, { contactId: await makeContact(t, tenantId), channelId, queueId });
}

async function publishFor(tenantId: number, id: number, extra: { notify?: boolean } = {}) {
  const ticket = (await withTenant(t.platform.db, systemContext(tenantId), (tx) => loadTicketDto(tx, id)))!;
  t.platform.events.publish('tickets.changed', { tenantId, type: 'ticket:create', ticket, ...extra });
}

describe('ticket events follow the visibility policy', () => {
  it('reaches the admin and the queue member, not an agent outside the queue nor another tenant', async () => {
    const [adminSeen, memberSeen, outsideSeen, strangerSeen] = [
      await connect(admin),
      await connect(inQueue),
      await connect(outside),
      await connect(stranger),
    ];
    const hidden = await ticketOn(q1);
    await t.call(admin, 'PUT', `/tickets/${hidden}`, { status: 'open', userId: inQueue.id });
    await arrives(memberSeen, about('1:ticketList', hidden, 'ticket:update'));
    await arrives(adminSeen, about('1:ticketList', hidden, 'ticket:update'));
    // Controls: a ticket the outsider may see, and one of the stranger's tenant.
    const control = await ticketOn(q2);
    await publishFor(1, control);
    const control2 = await ticketOn(null, 2, channel2);
    await publishFor(2, control2);
    await arrives(outsideSeen, about('1:ticketList', control, 'ticket:create'));
    await arrives(strangerSeen, about('2:ticketList', control2, 'ticket:create'));
    expect(outsideSeen.filter(about('1:ticketList', hidden))).toEqual([]);
    expect(strangerSeen.filter((e) => e.event.startsWith('1:'))).toEqual([]);
    // The newly assigned user is told to focus it.
    const focus = await arrives(memberSeen, (e) => e.event === '1:ticket');
    expect(focus.args[0]).toMatchObject({ action: 'update', ticket: { id: hidden, userId: inQueue.id } });
    expect(adminSeen.filter((e) => e.event === '1:ticket')).toEqual([]);
  });

  it('a transfer away sends ticket:delete to who lost sight of it and the update to who gained it', async () => {
    const [memberSeen, outsideSeen] = [await connect(inQueue), await connect(outside)];
    const id = await ticketOn(q1);
    const res = await t.call(admin, 'PUT', `/tickets/${id}`, {
      userId: null,
      queueId: q2,
      status: 'pending',
      isTransference: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    await arrives(memberSeen, about('1:ticketList', id, 'ticket:delete'));
    await arrives(outsideSeen, about('1:ticketList', id, 'ticket:update'));
    expect(memberSeen.filter(about('1:ticketList', id, 'ticket:update'))).toEqual([]);
    expect(outsideSeen.filter(about('1:ticketList', id, 'ticket:delete'))).toEqual([]);
  });

  it('notify adds notification:new; message events go to the ticket’s audience only', async () => {
    const [memberSeen, outsideSeen] = [await connect(inQueue), await connect(outside)];
    const id = await ticketOn(q1);
    await publishFor(1, id, { notify: true });
    await arrives(memberSeen, about('1:ticketList', id, 'notification:new'));
    const message = { id: 501, ticketId: id, body: 'Olá', ticket: { id } } as unknown as MessageEventDto;
    t.platform.events.publish('messages.changed', { tenantId: 1, ticketId: id, type: 'chat:create', message });
    const chat = await arrives(
      memberSeen,
      (e) => e.event === '1:ticketList' && (e.args[0] as { type?: string }).type === 'chat:create',
    );
    expect(chat.args[0]).toMatchObject({ payload: { id: 501, body: 'Olá' } });
    const control = await ticketOn(q2);
    await publishFor(1, control);
    await arrives(outsideSeen, about('1:ticketList', control));
    // Only the control's own events (a new ticket is announced as ticket:create and ticket:update).
    const ticketList = outsideSeen.filter((e) => e.event === '1:ticketList');
    expect(ticketList.filter((e) => !about('1:ticketList', control)(e))).toEqual([]);
  });

  it('events of several tickets published together share one audience read and still reach only their audiences', async () => {
    const [memberSeen, outsideSeen] = [await connect(inQueue), await connect(outside)];
    const first = await ticketOn(q1);
    const second = await ticketOn(q2);
    const third = await ticketOn(q1);
    const load = (id: number) => withTenant(t.platform.db, systemContext(1), (tx) => loadTicketDto(tx, id));
    const dtos = await Promise.all([first, second, third].map(load));
    // In one turn, as a batch of commits is answered: one read for the three tickets.
    for (const ticket of dtos)
      t.platform.events.publish('tickets.changed', { tenantId: 1, type: 'ticket:create', ticket: ticket! });
    await arrives(memberSeen, about('1:ticketList', first));
    await arrives(memberSeen, about('1:ticketList', third));
    await arrives(outsideSeen, about('1:ticketList', second));
    expect(memberSeen.filter(about('1:ticketList', second))).toEqual([]);
    expect(outsideSeen.filter(about('1:ticketList', first))).toEqual([]);
    expect(outsideSeen.filter(about('1:ticketList', third))).toEqual([]);
  });
});

describe('a new conversation, live', () => {
  it('comes as chat:create with the whole ticket, and as ticket:create and ticket:update, on one socket', async () => {
    const seen = await connect(admin);
    const telegram = await createTelegramChannel(t, 1, { name: 'Bot ao vivo' });
    const event = textEvent('7100', 'primeira mensagem');
    await ingestionFor(t).ingest(telegram, [event]);
    const isChat = (e: Seen) => e.event === '1:ticketList' && (e.args[0] as { type?: string }).type === 'chat:create';
    const chat = (await arrives(seen, isChat)).args[0] as { payload: MessageEventDto };
    const ticket = chat.payload.ticket;
    // Older clients add an unknown ticket only on ticket:update: both reach the same socket.
    await arrives(seen, about('1:ticketList', ticket.id, 'ticket:create'));
    const update = await arrives(seen, about('1:ticketList', ticket.id, 'ticket:update'));
    expect((update.args[0] as { payload: TicketDto }).payload).toEqual(ticket);
    // The list row of client-contract §20.1, read unguarded by the clients.
    expect(ticket).toMatchObject({
      status: 'pending',
      whatsappId: telegram.id,
      whatsapp: { id: telegram.id, name: 'Bot ao vivo' },
      channel: 'telegram',
      unreadMessages: 1,
      answered: false,
      lastMessage: 'primeira mensagem',
      user: null,
      queue: null,
      name: 'Cliente',
    });
    expect(typeof ticket.lastMessageAt).toBe('number');
    expect(Date.parse(ticket.updatedAt)).not.toBeNaN();
    // The contact with the identity fields of a /contacts row (client-contract §20.4).
    expect(ticket.contact).toMatchObject({
      name: 'Cliente',
      profilePicUrl: null,
      telegramId: '7100',
      messengerId: null,
      instagramPK: null,
      isGroup: false,
      pushname: null,
      number: null,
      email: '',
      blocked: false,
      chatbotBlocked: false,
    });
  });
});
