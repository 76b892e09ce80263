/**
 * The server as a client of the family meets it (client-contract §1, §2, §4, §5, §19): over the network only, with
 * the paths, trailing slashes, query arrays, bodies and socket options the reference client uses. It logs in, opens
 * its socket, sees a new Telegram conversation arrive live, works it to the end, survives a server-side disconnect,
 * and a logged-out tab does not hammer the server with handshakes. A client served from another origin, which never
 * gets the refresh cookie back, refreshes on its 403s with the bearer alone and keeps working.
 */
import type { AddressInfo } from 'node:net';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loginResponseSchema,
  messageEventDtoSchema,
  ticketDtoSchema,
  type ChannelDto,
  type LoginResponse,
  type MessageEventDto,
  type MessageListResponse,
  type TicketDto,
  type TicketListResponse,
} from '@conversa/shared';
import type { JobDefinition } from '../platform/jobs/queue.js';
import { createTokenService } from '../platform/http/tokens.js';
import { TELEGRAM_SECRET_HEADER } from '../modules/channels/providers/telegram/telegram.adapter.js';
import {
  startTelegramSimulator,
  type TelegramSimulator,
} from '../modules/channels/providers/telegram/telegram.simulator.js';
import { createTestApp, type TestApp, type TestUser } from './harness.js';
import {
  arrives,
  bracketQuery,
  ContractClient,
  countHandshakes,
  openReferenceSocket,
  ticketListEvent,
} from './contract-client.js';

const BOT = '7000000042:AAH-contract_client_bot_token_0042';
/** Where the family's client of the last test is served from (CORS_ORIGINS). */
const FAMILY_ORIGIN = 'http://atendimento.family.test:8080';
const CHAT = 777000333;

let t: TestApp;
let sim: TelegramSimulator;
let base: string;
let admin: TestUser;
let agent: TestUser;
let channel: ChannelDto;
let secret: string;
let client: ContractClient;
let login: LoginResponse;
let live: ReturnType<typeof openReferenceSocket>;
let updateId = 910000000;

const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;

/** Telegram posting a text from the customer's private chat, as its servers do. */
async function customerWrites(text: string): Promise<void> {
  updateId += 1;
  const chat = { id: CHAT, first_name: 'Joana', last_name: 'Lima', type: 'private' };
  const res = await fetch(`${base}/api/webhooks/telegram/${channel.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [TELEGRAM_SECRET_HEADER]: secret },
    body: JSON.stringify({
      update_id: updateId,
      message: {
        message_id: updateId,
        from: { id: CHAT, is_bot: false, first_name: 'Joana', last_name: 'Lima' },
        chat,
        date: Math.floor(Date.now() / 1000),
        text,
      },
    }),
  });
  expect(res.status, await res.text()).toBe(200);
}

const isChat = (body: string) => (m: MessageEventDto) => m.body === body;

beforeAll(async () => {
  sim = await startTelegramSimulator();
  sim.bots.set(BOT, { id: 7000000042, username: 'contract_bot' });
  t = await createTestApp({ TELEGRAM_API_ROOT: sim.url, CORS_ORIGINS: FAMILY_ORIGIN });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  ({ admin, agent } = await t.createStaff());
  channel = (await t.call(admin, 'POST', '/whatsapp', { name: 'Loja', type: 'telegram', tokenTelegram: BOT })).json();
  expect((await t.call(admin, 'POST', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
  secret = String(sim.callsOf('setWebhook')[0]!.params.secret_token);
  client = new ContractClient(base);
});
afterAll(async () => {
  live?.socket.disconnect();
  await t.close();
  await sim.close();
});

describe('a client of the family, end to end', () => {
  let ticket: TicketDto;

  it('logs in at /auth/login/ and reads the login object; the jrt cookie renews the token', async () => {
    const res = await client.request<LoginResponse>('POST', '/auth/login/', {
      email: agent.email,
      password: agent.password,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    login = loginResponseSchema.parse(res.body);
    expect(login).toMatchObject({ email: agent.email, profile: 'user', userId: agent.id, tenantId: 1 });
    expect(login).toMatchObject({ username: 'Zé Agente', queues: [], whatsappAllowed: [], blockWavoip: false });
    // A user who never saved a filter has none yet (the client then uses its defaults).
    expect(login.configs.filtrosAtendimento ?? null).toBeNull();
    client.storage.token = login.token;
    expect(client.hasRefreshCookie).toBe(true);

    // The client saves its filter after every change; the next login hands it back.
    const filter = { pageNumber: 1, status: ['open', 'pending'], showAll: true, includeNotQueueDefined: true };
    const saved = await client.request('PUT', `/users/${login.userId}/configs`, {
      filtrosAtendimento: filter,
      isDark: true,
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const again = await client.request<LoginResponse>('POST', '/auth/login/', {
      email: agent.email,
      password: agent.password,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    login = loginResponseSchema.parse(again.body);
    expect(login.configs).toEqual({ filtrosAtendimento: filter, isDark: true });
    client.storage.token = login.token;

    const refreshed = await client.request<{ token: string }>('POST', '/auth/refresh_token');
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(refreshed.body.token).toEqual(expect.any(String));
    client.storage.token = refreshed.body.token;
    expect((await client.request('GET', `/users/${login.userId}`)).status).toBe(200);
  });

  it('opens its socket on /api and emits {T}:setUserActive', async () => {
    live = openReferenceSocket(base, () => ({ token: client.storage.token }));
    await expect.poll(() => live.counts.connect, { timeout: 5_000 }).toBe(1);
    live.socket.emit(`${login.tenantId}:setUserActive`);
    await arrives(live.seen, (e) => e.event === `${login.tenantId}:user-online`);
    const me = await client.request<{ isOnline: boolean }>('GET', `/users/${login.userId}`);
    expect(me.body.isOnline).toBe(true);
  });

  it('lists tickets with the attendance filter and reads tickets[], count, hasMore', async () => {
    const res = await client.request<TicketListResponse>(
      'GET',
      '/tickets?status[]=open&status[]=pending&showAll=true&pageNumber=1',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tickets: [], count: 0, hasMore: false });
  });

  it('sees a brand-new Telegram conversation live: ticket:update with the whole ticket, and chat:create', async () => {
    await customerWrites('Oi, meu pedido não chegou');
    const update = await arrives(
      live.seen,
      ticketListEvent<TicketDto>(1, 'ticket:update', (p) => p.contact?.name === 'Joana Lima'),
    );
    ticket = ticketDtoSchema.parse((update.args[0] as { payload: unknown }).payload);
    expect(ticket).toMatchObject({
      status: 'pending',
      name: 'Joana Lima',
      channel: 'telegram',
      whatsappId: channel.id,
      userId: null,
      unreadMessages: 1,
      lastMessage: 'Oi, meu pedido não chegou',
      contact: { name: 'Joana Lima', telegramId: String(CHAT) },
    });
    expect(ticket).toHaveProperty('profilePicUrl');
    expect(ticket.lastMessageAt).toEqual(expect.any(Number));
    expect(ticket.lastMessageAt! > Date.now() - 60_000).toBe(true);
    await arrives(
      live.seen,
      ticketListEvent<TicketDto>(1, 'ticket:create', (p) => p.id === ticket.id),
    );
    const chat = await arrives(live.seen, ticketListEvent(1, 'chat:create', isChat('Oi, meu pedido não chegou')));
    const message = messageEventDtoSchema.parse((chat.args[0] as { payload: unknown }).payload);
    expect(message).toMatchObject({ fromMe: false, read: false, ticket: { id: ticket.id } });
    expect(message.ticket.contact.name).toBe('Joana Lima');

    const list = await client.request<TicketListResponse>(
      'GET',
      '/tickets?status[]=open&status[]=pending&showAll=true&pageNumber=1',
    );
    expect(list.body.tickets.map((row) => row.id)).toEqual([ticket.id]);
    expect(list.body.count).toBe(1);
  });

  it('opens it with the ticket echoed in the query (also a 32 KiB one); its messages wait for the accept', async () => {
    const echo = bracketQuery(ticket as unknown as Record<string, unknown>);
    expect(echo).toContain('contact[name]=Joana');
    const opened = await client.request<TicketDto>('GET', `/tickets/${ticket.id}?${echo}`);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body).toMatchObject({ id: ticket.id, status: 'pending', contact: { name: 'Joana Lima' } });
    const long = bracketQuery({ ...ticket, lastMessage: 'x'.repeat(33 * 1024) } as unknown as Record<string, unknown>);
    expect(long.length).toBeGreaterThan(32 * 1024);
    expect((await client.request('GET', `/tickets/${ticket.id}?${long}`)).status).toBe(200);

    // "Espiar pendentes" (spyticket) is off by default: an agent reads a pending conversation once it accepted it.
    const peek = await client.request('GET', `/messages/${ticket.id}?ticketId=${ticket.id}&pageNumber=1`);
    expect(peek).toEqual({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
  });

  it('accepts, reads the history, replies with the §5.2 object (chat:create, then Telegram gets it) and resolves', async () => {
    const accepted = await client.request('PUT', `/tickets/${ticket.id}`, { status: 'open', userId: login.userId });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    await arrives(
      live.seen,
      ticketListEvent<TicketDto>(1, 'ticket:update', (p) => p.id === ticket.id && p.status === 'open'),
    );
    const history = await client.request<MessageListResponse>(
      'GET',
      `/messages/${ticket.id}?ticketId=${ticket.id}&pageNumber=1`,
    );
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    expect(history.body.messages.map((m) => m.body)).toEqual(['Oi, meu pedido não chegou']);
    expect(history.body).toMatchObject({ messagesOffLine: [], hasMore: false });

    const reply = {
      body: 'Olá, Joana! Vou verificar.',
      fromMe: true,
      read: 1,
      mediaUrl: '',
      scheduleDate: null,
      quotedMsg: null,
      idFront: 'front-7f3a2c',
    };
    const sent = await client.request('POST', `/messages/${ticket.id}`, reply);
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const echoed = await arrives(live.seen, ticketListEvent(1, 'chat:create', isChat(reply.body)));
    expect((echoed.args[0] as { payload: MessageEventDto }).payload).toMatchObject({
      fromMe: true,
      idFront: 'front-7f3a2c',
      ticket: { id: ticket.id, status: 'open', userId: login.userId },
    });
    expect(await t.jobs.runPending(job('messages.send'))).toBe(1);
    expect(sim.callsOf('sendMessage').at(-1)!.params).toMatchObject({ chat_id: String(CHAT), text: reply.body });

    const resolved = await client.request('PUT', `/tickets/${ticket.id}`, { status: 'closed', userId: login.userId });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    await arrives(
      live.seen,
      ticketListEvent<TicketDto>(1, 'ticket:update', (p) => p.id === ticket.id && p.status === 'closed'),
    );
  });

  it('reconnects by itself after the server disconnects it, and keeps receiving events', async () => {
    const changed = await t.call(admin, 'PUT', `/users/${agent.id}`, { profile: 'super' });
    expect(changed.statusCode, changed.body).toBe(200);
    await expect.poll(() => live.counts.serverDisconnect, { timeout: 5_000 }).toBe(1);
    await expect.poll(() => live.counts.connect, { timeout: 5_000 }).toBe(2);
    expect(live.seen.filter((e) => e.event.startsWith('tokenInvalid:'))).toEqual([]);

    await customerWrites('Ainda estou esperando');
    const chat = await arrives(live.seen, ticketListEvent(1, 'chat:create', isChat('Ainda estou esperando')));
    const next = (chat.args[0] as { payload: MessageEventDto }).payload.ticket;
    expect(next).toMatchObject({ status: 'pending', contact: { name: 'Joana Lima' } });
    expect(next.id).not.toBe(ticket.id);
    expect(live.socket.connected).toBe(true);
  });

  it('a logged-out tab (token null, default reconnection) makes a bounded number of handshakes, never connects', async () => {
    const handshakes = countHandshakes(t.app.server, 'probe=logged-out');
    const anonymous = openReferenceSocket(base, { token: null }, { probe: 'logged-out' });
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(anonymous.counts.connect).toBe(0);
      expect(handshakes.count).toBeLessThanOrEqual(3);
      expect(anonymous.counts.connectError).toBeLessThanOrEqual(3);
      // It did try (the counters are live), and was refused as logged out.
      expect(handshakes.count).toBeGreaterThanOrEqual(1);
      expect(anonymous.counts.connectError).toBeGreaterThanOrEqual(1);
      expect(anonymous.errors).toContain('ERR_INVALID_TOKEN');
    } finally {
      anonymous.socket.disconnect();
      handshakes.stop();
    }
  });
});

describe('a client of the family on another origin (no refresh cookie)', () => {
  const remote = () => new ContractClient(base, { cookies: false, origin: FAMILY_ORIGIN });

  /** The reference client's answer to a 403: one POST /auth/refresh_token, then `token` from the answer is stored. */
  async function onForbidden(client: ContractClient): Promise<void> {
    const refreshed = await client.request<{ token: string }>('POST', '/auth/refresh_token');
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    expect(Object.keys(refreshed.body)).toEqual(['token']);
    client.storage.token = refreshed.body.token;
  }

  /** The stored token as it is once its 15 minutes have passed (same claims, signed by the server, expired). */
  async function expire(token: string): Promise<string> {
    const claims = decodeJwt(token);
    return createTokenService(t.platform.secrets.jwtSecret, -60).signAccess({
      userId: Number(claims.sub),
      tenantId: Number(claims.tid),
      profile: login.profile,
      tokenVersion: Number(claims.ver),
      sessionId: claims.sid as string,
      refreshId: claims.rid as number,
    });
  }

  it('refreshes with only its bearer after a permission 403 and after its token expired, and keeps working', async () => {
    // Its browser asks first: the configured origin may send Authorization to the refresh path.
    const preflight = await fetch(`${base}/api/auth/refresh_token`, {
      method: 'OPTIONS',
      headers: {
        origin: FAMILY_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe(FAMILY_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const client = remote();
    const res = await client.request<LoginResponse>('POST', '/auth/login/', {
      email: agent.email,
      password: agent.password,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    login = loginResponseSchema.parse(res.body);
    client.storage.token = login.token;
    expect(client.hasRefreshCookie).toBe(false);

    // An agent's screen calls an admin route: 403 ERR_NO_PERMISSION, and the refresh it triggers is harmless.
    const refused = await client.request('DELETE', '/whatsapp/999999999');
    expect(refused).toEqual({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    const before = client.storage.token;
    await onForbidden(client);
    expect(client.storage.token).not.toBe(before);
    const list = await client.request<TicketListResponse>(
      'GET',
      '/tickets?status[]=open&status[]=pending&pageNumber=1',
    );
    expect(list.status, JSON.stringify(list.body)).toBe(200);

    // Later the token in storage has expired: 403 ERR_SESSION_EXPIRED, refresh with the expired bearer, go on.
    client.storage.token = await expire(client.storage.token!);
    const stale = await client.request('GET', `/users/${login.userId}`);
    expect(stale).toEqual({ status: 403, body: { error: 'ERR_SESSION_EXPIRED' } });
    await onForbidden(client);
    const me = await client.request<{ id: number }>('GET', `/users/${login.userId}`);
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    const saved = await client.request('PUT', `/users/${login.userId}/configs`, { isDark: false });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);

    // Its socket, opened with the refreshed token, belongs to a live session.
    const socket = openReferenceSocket(base, () => ({ token: client.storage.token }));
    try {
      await expect.poll(() => socket.counts.connect, { timeout: 5_000 }).toBe(1);
    } finally {
      socket.socket.disconnect();
    }

    // Logging out with the bearer ends the session: the next refresh sends the client to the login screen.
    const out = await client.request('POST', '/auth/logout/', login);
    expect(out.status).toBe(204);
    const after = await client.request('POST', '/auth/refresh_token');
    expect(after).toEqual({ status: 401, body: { error: 'ERR_INVALID_TOKEN' } });
  });
});
