/**
 * Several nodes: an event published on node A reaches a socket connected to node B, through the PostgreSQL adapter
 * (needs TEST_DATABASE_URL) or the Redis streams adapter (needs TEST_REDIS_URL). CI sets both.
 */
import { io as connect, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { tenantEvent } from '@conversa/shared';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { MAX_SOCKETS_PER_USER, rooms } from './server.js';

const opened: TestApp[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.disconnect();
  for (const app of opened.splice(0).reverse()) await app.close();
});

async function listen(app: TestApp): Promise<string> {
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

async function crossNodeDelivery(env: Record<string, string>) {
  const nodeA = await createTestApp(env);
  opened.push(nodeA);
  const nodeB = await createTestApp(env, { peerOf: nodeA });
  opened.push(nodeB);
  await listen(nodeA);
  const urlB = await listen(nodeB);
  const user = await nodeA.createUser({ tenantId: 1, profile: 'admin' });
  const socket = connect(urlB, { auth: { token: user.token }, transports: ['websocket'] });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  // The socket joins its rooms right after the handshake's token check.
  await expect.poll(() => nodeB.platform.realtime.countInRoom(rooms.user(user.id))).toBe(1);
  const received = new Promise<unknown>((resolve) =>
    socket.once(tenantEvent(1, 'updateStatusUser'), () => resolve('got it')),
  );
  // Published on node A, where this socket is not connected.
  await expect.poll(() => nodeA.platform.realtime.countInRoom(rooms.user(user.id))).toBe(1);
  nodeA.platform.realtime.publish(rooms.tenant(1), tenantEvent(1, 'updateStatusUser'));
  await expect(received).resolves.toBe('got it');
}

/** A session ended on node A (a logout there) cuts the session's socket connected to node B, events first. */
async function crossNodeDisconnect(env: Record<string, string>) {
  const nodeA = await createTestApp(env);
  opened.push(nodeA);
  const nodeB = await createTestApp(env, { peerOf: nodeA });
  opened.push(nodeB);
  await listen(nodeA);
  const urlB = await listen(nodeB);
  const user = await nodeA.createUser({ tenantId: 1, profile: 'admin' });
  const socket = connect(urlB, { auth: { token: user.token }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  const invalid: string[] = [];
  socket.onAny((event: string) => {
    if (event.startsWith('tokenInvalid:')) invalid.push(event);
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  await expect.poll(() => nodeA.platform.realtime.countInRoom(rooms.session(user.sessionId))).toBe(1);
  const id = socket.id;
  const reason = new Promise<string>((resolve) => socket.once('disconnect', resolve));
  await nodeA.platform.realtime.disconnect(rooms.session(user.sessionId), { revoke: true });
  await expect(reason).resolves.toBe('io server disconnect');
  expect(invalid).toEqual(expect.arrayContaining([`tokenInvalid:${id}`, 'tokenInvalid:undefined']));
}

/** The per-user socket cap counts the user's sockets on every node: full on node A, node B refuses the next. */
async function crossNodeCap(env: Record<string, string>) {
  const nodeA = await createTestApp(env);
  opened.push(nodeA);
  const nodeB = await createTestApp(env, { peerOf: nodeA });
  opened.push(nodeB);
  const urlA = await listen(nodeA);
  const urlB = await listen(nodeB);
  const user = await nodeA.createUser({ tenantId: 1, profile: 'admin' });
  const open = (url: string) => {
    const socket = connect(url, { auth: { token: user.token }, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    return new Promise<string>((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error) => resolve(error.message));
    });
  };
  for (let i = 0; i < MAX_SOCKETS_PER_USER; i += 1) expect(await open(urlA)).toBe('connected');
  await expect.poll(() => nodeB.platform.realtime.countInRoom(rooms.user(user.id))).toBe(MAX_SOCKETS_PER_USER);
  expect(await open(urlB)).toBe('ERR_LIMIT_MAX');
}

describe('realtime across nodes', () => {
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    "caps one user's sockets across nodes (PostgreSQL adapter)",
    async () => {
      await crossNodeCap({ REALTIME_ADAPTER: 'postgres' });
    },
  );

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('disconnects through the PostgreSQL adapter', async () => {
    await crossNodeDisconnect({ REALTIME_ADAPTER: 'postgres' });
  });

  it.runIf(Boolean(process.env.TEST_REDIS_URL))('disconnects through the Redis streams adapter', async () => {
    await crossNodeDisconnect({ REALTIME_ADAPTER: 'redis', REDIS_URL: process.env.TEST_REDIS_URL ?? '' });
  });

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))('delivers through the PostgreSQL adapter', async () => {
    await crossNodeDelivery({ REALTIME_ADAPTER: 'postgres' });
  });

  it.runIf(Boolean(process.env.TEST_REDIS_URL))('delivers through the Redis streams adapter', async () => {
    await crossNodeDelivery({ REALTIME_ADAPTER: 'redis', REDIS_URL: process.env.TEST_REDIS_URL ?? '' });
  });
});
