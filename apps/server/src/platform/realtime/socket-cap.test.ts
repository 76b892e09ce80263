/**
 * The per-user socket cap (MAX_SOCKETS_PER_USER): the handshake past it is refused with `ERR_LIMIT_MAX`, the open
 * sockets keep working, a closed one frees its place, other users are not affected, and handshakes racing at the cap
 * cannot all pass it. Real sockets (socket.io-client) against the test server on loopback.
 */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tenantEvent } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { MAX_SOCKETS_PER_USER, rooms } from './server.js';

let t: TestApp;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(() => t.close());

type Outcome = { socket: Socket; ok: true } | { socket: Socket; ok: false; error: Error & { data?: unknown } };

function open(user: TestUser, namespace = ''): Promise<Outcome> {
  const socket = io(`${url}${namespace}`, {
    auth: { token: user.token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve({ socket, ok: true }));
    socket.once('connect_error', (error) => resolve({ socket, ok: false, error }));
  });
}

describe('per-user socket cap', () => {
  it('refuses the new handshake past the cap with ERR_LIMIT_MAX; the open ones keep working; a closed one frees a place', async () => {
    const user = await t.createUser({ tenantId: 1, profile: 'user' });
    const other = await t.createUser({ tenantId: 1, profile: 'user' });
    const opened: Socket[] = [];
    // Both namespaces count: half on '/', half on '/api'.
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i += 1) {
      const outcome = await open(user, i % 2 === 0 ? '' : '/api');
      expect(outcome.ok).toBe(true);
      opened.push(outcome.socket);
    }
    const refused = await open(user, '/api');
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.message).toBe('ERR_LIMIT_MAX');
      expect(refused.error.data).toEqual({ limit: 'socketsPerUser', max: MAX_SOCKETS_PER_USER });
    }
    expect(await t.platform.realtime.countInRoom(rooms.user(user.id))).toBe(MAX_SOCKETS_PER_USER);
    // Another user of the tenant is not affected.
    expect((await open(other)).ok).toBe(true);
    // The open sockets still receive events.
    const received = new Promise<unknown>((resolve) => opened[0]!.once('1:scheduleMessage', resolve));
    t.platform.realtime.publish(rooms.user(user.id), tenantEvent(1, 'scheduleMessage'), {
      action: 'create',
      id: 1,
      ticketId: null,
    });
    await expect(received).resolves.toEqual({ action: 'create', id: 1, ticketId: null });
    // Closing one frees its place.
    opened[3]!.disconnect();
    await expect.poll(() => t.platform.realtime.countInRoom(rooms.user(user.id))).toBe(MAX_SOCKETS_PER_USER - 1);
    expect((await open(user)).ok).toBe(true);
    expect((await open(user)).ok).toBe(false);
  });

  // Last in the file: it replaces the session check for good.
  it('handshakes racing at the cap (their session checks answered in the same tick): no more than the cap connect', async () => {
    const user = await t.createUser({ tenantId: 1, profile: 'admin' });
    const total = MAX_SOCKETS_PER_USER + 10;
    // Every handshake's session check waits until all of them arrived, then all resume at once.
    let arrived = 0;
    let release!: () => void;
    const together = new Promise<void>((resolve) => (release = resolve));
    t.platform.realtime.setSessionCheck(async () => {
      if (++arrived === total) release();
      await together;
      return { profile: 'admin' };
    });
    const outcomes = await Promise.all(Array.from({ length: total }, () => open(user)));
    const connected = outcomes.filter((o) => o.ok).length;
    expect(connected).toBe(MAX_SOCKETS_PER_USER);
    expect(outcomes.filter((o) => !o.ok && o.error.message === 'ERR_LIMIT_MAX')).toHaveLength(10);
    expect(await t.platform.realtime.countInRoom(rooms.user(user.id))).toBe(MAX_SOCKETS_PER_USER);
  });
});
