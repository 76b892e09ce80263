/** Presence over socket.io against a listening app: handshake auth, tenant-prefixed events, rooms per tenant. */
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { io, type Socket } from 'socket.io-client';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let url: string;
let tenant2: number;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  tenant2 = await t.createTenant();
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(async () => t.close());

function open(token: string, namespace = ''): Socket {
  const socket = io(url + namespace, {
    auth: { token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  return socket;
}

async function connect(user: TestUser, namespace = ''): Promise<Socket> {
  const socket = open(user.token, namespace);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

function received(socket: Socket): { event: string; args: unknown[] }[] {
  const seen: { event: string; args: unknown[] }[] = [];
  socket.onAny((event: string, ...args: unknown[]) => seen.push({ event, args }));
  return seen;
}

/**
 * Emits until `observer` gets `event`: the server attaches a socket's handlers once its token is verified, which can
 * land after the client's first emit.
 */
function emitUntil(emitter: Socket, name: string, observer: Socket, event: string): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const emit = () => emitter.emit(name);
    const retry = setInterval(emit, 150);
    const timeout = setTimeout(() => {
      clearInterval(retry);
      reject(new Error(`${event} not received`));
    }, 5_000);
    observer.once(event, (...args: unknown[]) => {
      clearInterval(retry);
      clearTimeout(timeout);
      resolve(args);
    });
    emit();
  });
}

const isOnline = async (id: number) =>
  (await t.database.executeSql('select is_online from users where id = $1', [id])).rows[0]?.is_online;

async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Resolves once the server has verified the socket and put it in its rooms (it hears its own presence). */
async function ready(socket: Socket, tenantId: number): Promise<void> {
  await emitUntil(socket, `${tenantId}:setUserActive`, socket, `${tenantId}:user-online`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('socket handshake', () => {
  it('refuses a token our key did not sign in the middleware (connect_error, no reconnect loop)', async () => {
    const socket = open('not-a-jwt');
    const error = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
    expect(error.message).toBe('ERR_INVALID_TOKEN');
    expect(socket.connected).toBe(false);
  });
});

describe('presence', () => {
  it('publishes setUserActive to the own tenant only and marks the user online, then offline on disconnect', async () => {
    const alice = await t.createUser({ tenantId: 1, name: 'Alice' });
    const bob = await t.createUser({ tenantId: 1, name: 'Bob' });
    const carol = await t.createUser({ tenantId: tenant2, name: 'Carol', profile: 'admin' });
    const aliceSocket = await connect(alice);
    const bobSocket = await connect(bob);
    const carolSocket = await connect(carol);
    const bobSeen = received(bobSocket);
    const carolSeen = received(carolSocket);

    // A foreign prefix is ignored: nothing is marked, nothing is published.
    aliceSocket.emit(`${tenant2}:setUserActive`);

    const [payload] = await emitUntil(aliceSocket, '1:setUserActive', bobSocket, '1:user-online');
    expect(payload).toEqual({ action: 'update', data: { userId: alice.id, isOnline: true, name: 'Alice' } });
    await eventually(async () => bobSeen.some((e) => e.event === '1:chat:updateOnlineBubbles'));
    expect(bobSeen.some((e) => e.event === '1:updateStatusUser' && e.args.length === 0)).toBe(true);
    const bubbles = bobSeen.find((e) => e.event === '1:chat:updateOnlineBubbles')!.args[0];
    expect(bubbles).toContainEqual({ userId: alice.id, name: 'Alice', profile: 'user' });
    expect(await isOnline(alice.id)).toBe(true);

    // The presence event has reached tenant 1: tenant 2 must have received nothing at all.
    await sleep(300);
    expect(carolSeen).toEqual([]);

    // Positive control: Carol's socket is live and does get its own tenant's events.
    const [own] = await emitUntil(carolSocket, `${tenant2}:setUserActive`, carolSocket, `${tenant2}:user-online`);
    expect(own).toMatchObject({ data: { userId: carol.id, isOnline: true } });
    expect(bobSeen.some((e) => e.event.startsWith(`${tenant2}:`))).toBe(false);

    // setUserIdle marks offline.
    const idle = new Promise((resolve) =>
      bobSocket.on('1:user-online', (p: { data: { isOnline: boolean } }) => {
        if (!p.data.isOnline) resolve(p);
      }),
    );
    aliceSocket.emit('1:setUserIdle');
    expect(await idle).toMatchObject({ data: { userId: alice.id, isOnline: false } });
    expect(await isOnline(alice.id)).toBe(false);

    // Online again, then the last socket goes away: offline, and the tenant hears about it.
    await emitUntil(aliceSocket, '1:setUserActive', bobSocket, '1:user-online');
    await eventually(async () => (await isOnline(alice.id)) === true);
    const offline = new Promise((resolve) =>
      bobSocket.on('1:user-online', (p: { data: { isOnline: boolean } }) => {
        if (!p.data.isOnline) resolve(p);
      }),
    );
    aliceSocket.disconnect();
    expect(await offline).toMatchObject({ data: { userId: alice.id, isOnline: false } });
    await eventually(async () => (await isOnline(alice.id)) === false);
  });

  it('keeps a user online while another of their sockets stays connected', async () => {
    const dave = await t.createUser({ tenantId: 1, name: 'Dave' });
    const first = await connect(dave);
    const second = await connect(dave);
    await emitUntil(first, '1:setUserActive', second, '1:user-online');
    first.disconnect();
    await sleep(300);
    expect(await isOnline(dave.id)).toBe(true);
    second.disconnect();
    await eventually(async () => (await isOnline(dave.id)) === false);
  });

  it('works on the /api namespace too', async () => {
    const erin = await t.createUser({ tenantId: 1, name: 'Erin' });
    const frank = await t.createUser({ tenantId: 1, name: 'Frank' });
    const erinApi = await connect(erin, '/api');
    const frankApi = await connect(frank, '/api');
    const frankRoot = await connect(frank);
    const [payload] = await emitUntil(erinApi, '1:setUserActive', frankApi, '1:user-online');
    expect(payload).toMatchObject({ data: { userId: erin.id, isOnline: true, name: 'Erin' } });
    await emitUntil(erinApi, '1:setUserActive', frankRoot, '1:user-online');
    expect(await isOnline(erin.id)).toBe(true);
  });

  it('publishes presence set over HTTP as well', async () => {
    const gina = await t.createUser({ tenantId: 1, name: 'Gina' });
    const watcher = await connect(await t.createUser({ tenantId: 1 }));
    await ready(watcher, 1);
    const update = new Promise((resolve) =>
      watcher.on('1:user-online', (p: { data: { userId: number } }) => {
        if (p.data.userId === gina.id) resolve(p);
      }),
    );
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/usersIsOnline/${gina.id}`,
      headers: gina.auth,
      payload: { isOnline: true },
    });
    expect(res.statusCode).toBe(200);
    expect(await update).toEqual({ action: 'update', data: { userId: gina.id, isOnline: true, name: 'Gina' } });
  });

  it('tells the tenant staff about user changes, and not the agents', async () => {
    const boss = await t.createUser({ tenantId: 1, profile: 'admin' });
    const agent = await t.createUser({ tenantId: 1 });
    const bossSocket = await connect(boss);
    const agentSocket = await connect(agent);
    await Promise.all([ready(bossSocket, 1), ready(agentSocket, 1)]);
    const agentSeen = received(agentSocket);
    const change = new Promise((resolve) => bossSocket.once('1:users', resolve));
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${agent.id}`,
      headers: boss.auth,
      payload: { name: 'Renamed' },
    });
    expect(res.statusCode).toBe(200);
    expect(await change).toEqual({ action: 'update', userId: agent.id });
    await sleep(200);
    expect(agentSeen.filter((e) => e.event === '1:users')).toEqual([]);
  });
});
