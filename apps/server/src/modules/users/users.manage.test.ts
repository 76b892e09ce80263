/** Editing, deleting, presence over HTTP, per-user configs and the private-chat list. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../platform/crypto.js';
import { withSystem } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { users } from './users.tables.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent, supervisor } = await t.createStaff());
});
afterAll(async () => t.close());

const call: TestApp['call'] = (...args) => t.call(...args);

const dbUser = (id: number) =>
  withSystem(t.platform.db, 'users.superadmin', async (tx) => {
    const [row] = await tx.select().from(users).where(eq(users.id, id));
    return row;
  });

describe('PUT /api/users/:id', () => {
  it('lets an admin edit a user; a password change bumps token_version', async () => {
    const target = await t.createUser({ tenantId: 1 });
    const before = await dbUser(target.id);
    const res = await call(admin, 'PUT', `/users/${target.id}`, {
      name: 'Renamed',
      profile: 'super',
      password: 'N3w!password',
      queues: [],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: target.id, name: 'Renamed', profile: 'super' });
    const after = await dbUser(target.id);
    expect(after!.tokenVersion).toBe(before!.tokenVersion + 1);
    expect(await verifyPassword(after!.passwordHash, 'N3w!password')).toBe(true);
    expect(await verifyPassword(after!.passwordHash, target.password)).toBe(false);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: target.email, password: 'N3w!password' },
    });
    if (login.statusCode !== 404) expect(login.statusCode).toBe(200);
  });

  it('refuses a password below the one rule (6 characters, no number or symbol), keeping the old one', async () => {
    const target = await t.createUser({ tenantId: 1 });
    for (const password of ['Ab1!xy', 'semnumero!', 'semsimbolo1']) {
      const res = await call(admin, 'PUT', `/users/${target.id}`, { password });
      expect(res.statusCode, password).toBe(400);
      expect(res.json(), password).toMatchObject({ error: 'ERR_WEAK_PASSWORD', field: 'password' });
    }
    const own = await call(target, 'PUT', `/users/${target.id}`, {
      password: 'Ab1!xy',
      currentPassword: target.password,
    });
    expect(own.json()).toMatchObject({ error: 'ERR_WEAK_PASSWORD', field: 'password' });
    const row = await dbUser(target.id);
    expect(await verifyPassword(row!.passwordHash, target.password)).toBe(true);
    expect(row!.tokenVersion).toBe(0);
  });

  it('lets users edit their own name, e-mail and password', async () => {
    const me = await t.createUser({ tenantId: 1 });
    const email = `renamed-${Date.now()}@test.local`;
    const res = await call(me, 'PUT', `/users/${me.id}`, {
      name: 'Me',
      email,
      password: '',
      profile: 'user',
      currentPassword: me.password,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'Me', email, profile: 'user' });
    expect((await dbUser(me.id))!.tokenVersion).toBe(0);
  });

  it('refuses changing your own profile, even as an admin', async () => {
    const me = await t.createUser({ tenantId: 1 });
    const res = await call(me, 'PUT', `/users/${me.id}`, { profile: 'admin' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_PROFILE_ESCALATION' });
    const ownAdmin = await call(admin, 'PUT', `/users/${admin.id}`, { profile: 'superadmin' });
    expect(ownAdmin.json()).toEqual({ error: 'ERR_PROFILE_ESCALATION' });
    expect((await dbUser(me.id))!.profile).toBe('user');
  });

  it('refuses non-admins editing others, and admins granting superadmin or editing one', async () => {
    const target = await t.createUser({ tenantId: 1 });
    expect((await call(agent, 'PUT', `/users/${target.id}`, { name: 'x' })).json()).toEqual({
      error: 'ERR_NO_PERMISSION',
    });
    expect((await call(supervisor, 'PUT', `/users/${target.id}`, { name: 'x' })).statusCode).toBe(403);
    expect((await call(admin, 'PUT', `/users/${target.id}`, { profile: 'superadmin' })).statusCode).toBe(403);
    const superadmin = await t.createUser({ tenantId: 1, profile: 'superadmin' });
    expect((await call(admin, 'PUT', `/users/${superadmin.id}`, { password: 'Hijack!123' })).statusCode).toBe(403);
    expect((await call(agent, 'PUT', `/users/${agent.id}`, { blockWavoip: true })).statusCode).toBe(403);
    expect((await dbUser(target.id))!.name).toBe('user user');
    expect((await dbUser(superadmin.id))!.passwordHash).not.toBe('');
  });

  it('refuses an e-mail that another user has', async () => {
    const me = await t.createUser({ tenantId: 1 });
    const res = await call(me, 'PUT', `/users/${me.id}`, { email: admin.email, currentPassword: me.password });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
  });

  it('answers 404 for an unknown id', async () => {
    expect((await call(admin, 'PUT', '/users/999999', { name: 'x' })).json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
  });
});

describe('DELETE /api/users/:id', () => {
  it('lets an admin delete a user, answering 204', async () => {
    const target = await t.createUser({ tenantId: 1 });
    const res = await call(admin, 'DELETE', `/users/${target.id}`);
    expect(res.statusCode).toBe(204);
    expect(await dbUser(target.id)).toBeUndefined();
    expect((await call(admin, 'DELETE', `/users/${target.id}`)).statusCode).toBe(404);
  });

  it('refuses deleting yourself, agents deleting, and admins deleting a superadmin', async () => {
    expect((await call(admin, 'DELETE', `/users/${admin.id}`)).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const target = await t.createUser({ tenantId: 1 });
    expect((await call(agent, 'DELETE', `/users/${target.id}`)).statusCode).toBe(403);
    const superadmin = await t.createUser({ tenantId: 1, profile: 'superadmin' });
    expect((await call(admin, 'DELETE', `/users/${superadmin.id}`)).statusCode).toBe(403);
    expect(await dbUser(target.id)).toBeDefined();
    expect(await dbUser(superadmin.id)).toBeDefined();
  });
});

describe('PUT /api/usersIsOnline/:id', () => {
  it('sets your own presence; an admin may set anyone of the tenant', async () => {
    const res = await call(agent, 'PUT', `/usersIsOnline/${agent.id}`, { isOnline: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: agent.id, isOnline: true });
    const row = await dbUser(agent.id);
    expect(row!.isOnline).toBe(true);
    expect(row!.lastOnlineAt).toBeInstanceOf(Date);
    expect((await call(admin, 'PUT', `/usersIsOnline/${agent.id}`, { isOnline: 'false' })).statusCode).toBe(200);
    expect((await dbUser(agent.id))!.isOnline).toBe(false);
    expect((await call(agent, 'PUT', `/usersIsOnline/${admin.id}`, { isOnline: true })).statusCode).toBe(403);
  });
});

describe('PUT /api/users/:id/configs', () => {
  it('merges into the stored configs and answers them', async () => {
    const me = await t.createUser({ tenantId: 1 });
    const first = await call(me, 'PUT', `/users/${me.id}/configs`, { isDark: true });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ isDark: true });
    const filters = { status: ['open', 'pending'], showAll: false };
    const second = await call(me, 'PUT', `/users/${me.id}/configs`, { filtrosAtendimento: filters });
    expect(second.json()).toEqual({ isDark: true, filtrosAtendimento: filters });
    expect((await call(me, 'GET', `/users/${me.id}`)).json().configs).toEqual({
      isDark: true,
      filtrosAtendimento: filters,
    });
    expect((await call(admin, 'PUT', `/users/${me.id}/configs`, { isDark: false })).json()).toMatchObject({
      isDark: false,
    });
  });

  it("refuses editing another user's configs as a non-admin", async () => {
    const res = await call(agent, 'PUT', `/users/${admin.id}/configs`, { isDark: true });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /api/users/chat-privado', () => {
  it('lists the other users of the tenant, online first then by name', async () => {
    const tenantId = await t.createTenant();
    const me = await t.createUser({ tenantId, name: 'Me' });
    const bea = await t.createUser({ tenantId, name: 'Bea' });
    const caio = await t.createUser({ tenantId, name: 'Caio', profile: 'admin' });
    const alf = await t.createUser({ tenantId, name: 'Alf' });
    await call(caio, 'PUT', `/usersIsOnline/${caio.id}`, { isOnline: true });
    const res = await call(me, 'GET', '/users/chat-privado/');
    expect(res.statusCode).toBe(200);
    const { users: list } = res.json<{ users: { id: number }[] }>();
    expect(list.map((u) => u.id)).toEqual([caio.id, alf.id, bea.id]);
    expect(list[0]).toEqual({
      id: caio.id,
      name: 'Caio',
      profile: 'admin',
      isOnline: true,
      count: 0,
      text: null,
      timestamp: null,
      read: null,
      senderId: null,
    });
    const searched = (await call(me, 'GET', '/users/chat-privado?searchParam=bea&pageNumber=1')).json();
    expect(searched.users.map((u: { id: number }) => u.id)).toEqual([bea.id]);
  });
});
