/**
 * A socket lives as long as its login session: every way a session ends cuts it at once (invalid-token events, then a
 * server disconnect), a profile or queue change only disconnects it, an expired access token does not, and an ended
 * session cannot come back. Handshakes without a usable token are refused in the middleware.
 */
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { QueueDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { rooms } from '../../platform/realtime/server.js';

let t: TestApp;
let url: string;
let admin: TestUser;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await t.createUser({ tenantId: 1, profile: 'admin' });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(async () => t.close());

function open(auth: object): Socket {
  const socket = io(url, { auth, transports: ['websocket'], reconnection: false, forceNew: true });
  sockets.push(socket);
  return socket;
}

interface Watched {
  socket: Socket;
  /** Resolves on disconnect: its reason and whether the invalid-token events came first. */
  ended: Promise<{ reason: string; invalid: string[] }>;
}

async function connect(token: string): Promise<Watched> {
  const socket = open({ token });
  const invalid: string[] = [];
  socket.onAny((event: string) => {
    if (event.startsWith('tokenInvalid:')) invalid.push(event);
  });
  const ended = new Promise<{ reason: string; invalid: string[] }>((resolve) =>
    socket.once('disconnect', (reason) => resolve({ reason, invalid: [...invalid] })),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return { socket, ended };
}

/** A connected socket whose rooms are joined (the server does it right after the handshake). */
async function connected(user: { id: number }, token: string): Promise<Watched> {
  const before = await t.platform.realtime.countInRoom(rooms.user(user.id));
  const watched = await connect(token);
  await expect.poll(() => t.platform.realtime.countInRoom(rooms.user(user.id))).toBe(before + 1);
  return watched;
}

const revoked = (watched: Watched, id: string | undefined) =>
  expect(watched.ended).resolves.toEqual({
    reason: 'io server disconnect',
    invalid: expect.arrayContaining([`tokenInvalid:${id}`, 'tokenInvalid:undefined']),
  });

const stillConnected = async (watched: Watched) => {
  await new Promise((r) => setTimeout(r, 300));
  expect(watched.socket.connected).toBe(true);
};

let ip = 0;
async function login(user: TestUser): Promise<{ token: string; cookie: string; sessionId: string }> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: user.email, password: user.password },
    remoteAddress: `10.9.0.${++ip}`,
  });
  expect(res.statusCode, res.body).toBe(200);
  const token = res.json<{ token: string }>().token;
  const { sessionId } = await t.platform.tokens.verifyAccess(token);
  return { token, cookie: res.cookies.find((c) => c.name === 'jrt')!.value, sessionId: sessionId! };
}

describe('handshake', () => {
  it.each([
    ['absent', {}],
    ['null', { token: null }],
    ['"null"', { token: 'null' }],
    ['"undefined"', { token: 'undefined' }],
    ['empty', { token: '' }],
    ['JSON-encoded null', { token: '"null"' }],
    ['malformed', { token: 'not-a-jwt' }],
  ])('refuses a %s token in the middleware', async (_name, auth) => {
    const socket = open(auth);
    const error = await new Promise<Error>((resolve) => socket.once('connect_error', resolve));
    expect(error.message).toBe('ERR_INVALID_TOKEN');
  });

  it('refuses a token signed with another key', async () => {
    const forged = await new SignJWT({ tid: 1, profile: 'admin', ver: 0, sid: admin.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(admin.id))
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('another-secret-another-secret-12'));
    const socket = open({ token: forged });
    await expect(new Promise((resolve) => socket.once('connect_error', resolve))).resolves.toMatchObject({
      message: 'ERR_INVALID_TOKEN',
    });
  });

  it('sends the invalid-token events to an expired token, then disconnects', async () => {
    const expired = await signed(admin, -10);
    const watched = open({ token: expired });
    const seen: string[] = [];
    watched.onAny((event: string) => seen.push(event));
    const reason = await new Promise((resolve) => watched.once('disconnect', resolve));
    expect(reason).toBe('io server disconnect');
    expect(seen).toContain('tokenInvalid:undefined');
  });

  it('joins the current profile from the database, and the session room', async () => {
    const user = await t.createUser({ tenantId: 1, profile: 'user' });
    await t.database.executeSql(`update users set profile = 'super' where id = $1`, [user.id]);
    const before = await t.platform.realtime.countInRoom(rooms.profile(1, 'super'));
    await connected(user, user.token);
    expect(await t.platform.realtime.countInRoom(rooms.profile(1, 'super'))).toBe(before + 1);
    expect(await t.platform.realtime.countInRoom(rooms.session(user.sessionId))).toBe(1);
  });
});

/** A token of `user`'s session expiring in `seconds`, signed with the app's key. */
function signed(user: TestUser, seconds: number): Promise<string> {
  return new SignJWT({ tid: user.tenantId, profile: user.profile, ver: 0, sid: user.sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(user.id))
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
    .sign(new TextEncoder().encode(t.platform.secrets.jwtSecret));
}

describe('sessions end, sockets go', () => {
  it('keeps a socket whose access token expired while connected', async () => {
    const user = await t.createUser({ tenantId: 1 });
    // Five seconds leave a loaded machine time for the handshake; the wait then runs past the expiry itself, and the
    // token is shown to be expired before the socket is asked to still receive.
    const token = await signed(user, 5);
    const watched = await connected(user, token);
    const { exp } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number };
    await new Promise((r) => setTimeout(r, Math.max(0, exp * 1000 - Date.now()) + 1_100));
    await expect(t.platform.tokens.verifyAccess(token)).rejects.toMatchObject({ code: 'ERR_SESSION_EXPIRED' });
    const got = new Promise((resolve) => watched.socket.once('1:updateStatusUser', () => resolve('got it')));
    t.platform.realtime.publish(rooms.user(user.id), '1:updateStatusUser');
    await expect(got).resolves.toBe('got it');
    expect(watched.socket.connected).toBe(true);
  });

  it('cuts the user deleted by an admin', async () => {
    const user = await t.createUser({ tenantId: 1 });
    const watched = await connected(user, user.token);
    expect((await t.call(admin, 'DELETE', `/users/${user.id}`)).statusCode).toBe(204);
    await revoked(watched, watched.socket.id);
  });

  it("cuts every session when an admin changes someone's password, and the token cannot reconnect", async () => {
    const user = await t.createUser({ tenantId: 1 });
    const watched = await connected(user, user.token);
    const res = await t.call(admin, 'PUT', `/users/${user.id}`, { password: 'nova-senha-1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).not.toHaveProperty('token');
    await revoked(watched, watched.socket.id);
    await expect(connect(user.token).then((w) => w.ended)).resolves.toMatchObject({
      invalid: expect.arrayContaining(['tokenInvalid:undefined']),
    });
  });

  it('keeps the caller on their own password change and ends their other sessions', async () => {
    const user = await t.createUser({ tenantId: 1 });
    const here = await login(user);
    const elsewhere = await login(user);
    const mine = await connected(user, here.token);
    const other = await connected(user, elsewhere.token);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/users/${user.id}`,
      headers: { authorization: `Bearer ${here.token}` },
      payload: { password: 'nova-senha-2', currentPassword: user.password },
    });
    expect(res.statusCode, res.body).toBe(200);
    const renewed = res.json<{ token: string }>().token;
    expect(await t.platform.tokens.verifyAccess(renewed)).toMatchObject({ sessionId: here.sessionId, tokenVersion: 1 });
    const cookie = res.cookies.find((c) => c.name === 'jrt');
    expect(cookie).toMatchObject({ path: '/api/auth', httpOnly: true });
    await revoked(other, other.socket.id);
    await stillConnected(mine);
    // The renewed session refreshes and reconnects; the old cookie of the other session does not.
    const refresh = (jrt: string) => t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', cookies: { jrt } });
    expect((await refresh(cookie!.value)).statusCode).toBe(200);
    expect((await refresh(elsewhere.cookie)).statusCode).toBe(401);
    const again = await connected(user, renewed);
    await stillConnected(again);
  });

  it('disconnects without revoking on a profile change; the socket comes back in its new profile room', async () => {
    const user = await t.createUser({ tenantId: 1 });
    const watched = await connected(user, user.token);
    const before = await t.platform.realtime.countInRoom(rooms.profile(1, 'super'));
    expect((await t.call(admin, 'PUT', `/users/${user.id}`, { profile: 'super' })).statusCode).toBe(200);
    await expect(watched.ended).resolves.toEqual({ reason: 'io server disconnect', invalid: [] });
    await connected(user, user.token);
    expect(await t.platform.realtime.countInRoom(rooms.profile(1, 'super'))).toBe(before + 1);
  });

  it('disconnects without revoking on a queue change, and not on a rename', async () => {
    const user = await t.createUser({ tenantId: 1 });
    const queue = (await t.call(admin, 'POST', '/queue', { queue: `Fila ${user.id}` })).json<QueueDto>();
    const watched = await connected(user, user.token);
    expect((await t.call(admin, 'PUT', `/users/${user.id}`, { name: 'Outro nome' })).statusCode).toBe(200);
    await stillConnected(watched);
    expect((await t.call(admin, 'PUT', `/users/${user.id}`, { queues: [queue.id] })).statusCode).toBe(200);
    await expect(watched.ended).resolves.toEqual({ reason: 'io server disconnect', invalid: [] });
  });

  it("cuts the logged-out session only, and that session's token cannot reconnect", async () => {
    const user = await t.createUser({ tenantId: 1 });
    const first = await login(user);
    const second = await login(user);
    const a = await connected(user, first.token);
    const b = await connected(user, second.token);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { jrt: first.cookie } });
    expect(res.statusCode).toBe(204);
    await revoked(a, a.socket.id);
    await stillConnected(b);
    await expect(connect(first.token).then((w) => w.ended)).resolves.toMatchObject({
      invalid: expect.arrayContaining(['tokenInvalid:undefined']),
    });
  });

  it('cuts the session whose refresh family was revoked for reuse', async () => {
    const user = await t.createUser({ tenantId: 1 });
    const session = await login(user);
    const watched = await connected(user, session.token);
    const refresh = (jrt: string) => t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', cookies: { jrt } });
    expect((await refresh(session.cookie)).statusCode).toBe(200);
    await t.database.executeSql(
      `update refresh_tokens set revoked_at = now() - interval '1 minute' where revoked_at is not null and family_id = $1`,
      [session.sessionId],
    );
    expect((await refresh(session.cookie)).statusCode).toBe(401);
    await revoked(watched, watched.socket.id);
  });

  it('cuts the sockets of a deactivated tenant, whose tokens then cannot reconnect', async () => {
    const tenantId = await t.createTenant();
    const user = await t.createUser({ tenantId, profile: 'admin' });
    const watched = await connected(user, user.token);
    const root = await t.createUser({ tenantId: 1, profile: 'superadmin' });
    const res = await t.call(root, 'PUT', `/tenantsUpdate/${tenantId}`, { status: 'inactive' });
    expect(res.statusCode, res.body).toBe(200);
    await revoked(watched, watched.socket.id);
    await expect(connect(user.token).then((w) => w.ended)).resolves.toMatchObject({
      invalid: expect.arrayContaining(['tokenInvalid:undefined']),
    });
  });

  it('refuses sockets of a trial tenant past its due date', async () => {
    const tenantId = await t.createTenant({ trial: 'enabled', dueDate: new Date(Date.now() - 60_000) });
    const user = await t.createUser({ tenantId });
    await expect(connect(user.token).then((w) => w.ended)).resolves.toMatchObject({
      invalid: expect.arrayContaining(['tokenInvalid:undefined']),
    });
  });
});
