import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserDto } from '@conversa/shared';
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
  admin = await t.createUser({ tenantId: 1, profile: 'admin', name: 'Ana Admin' });
  agent = await t.createUser({ tenantId: 1, profile: 'user', name: 'Zé Agente' });
  supervisor = await t.createUser({ tenantId: 1, profile: 'super', name: 'Sofia Super' });
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (user: TestUser, method: Method, url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url: `/api${url}`, headers: user.auth, ...(payload === undefined ? {} : { payload }) });

const dbUser = (id: number) =>
  withSystem(t.platform.db, 'users.superadmin', async (tx) => {
    const [row] = await tx.select().from(users).where(eq(users.id, id));
    return row;
  });

let emailCounter = 0;
const newUser = (overrides: Record<string, unknown> = {}) => ({
  name: `New ${++emailCounter}`,
  email: `new-${emailCounter}-${Date.now()}@test.local`,
  password: 'S3cret!pw',
  profile: 'user',
  ...overrides,
});

describe('GET /api/users', () => {
  it('lists the tenant users ordered by name with count and hasMore, without secrets', async () => {
    const res = await call(admin, 'GET', '/users/');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ users: UserDto[]; count: number; hasMore: boolean }>();
    expect(body.count).toBe(body.users.length);
    expect(body.hasMore).toBe(false);
    const names = body.users.map((u) => u.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(body.users.every((u) => u.tenantId === 1)).toBe(true);
    const me = body.users.find((u) => u.id === admin.id)!;
    expect(me).toMatchObject({
      email: admin.email,
      profile: 'admin',
      queues: [],
      whatsappAllowed: [],
      isOnline: false,
    });
    expect(res.body).not.toMatch(/password|argon2|tokenVersion/i);
  });

  it('pages with rowsPerPage and pageNumber', async () => {
    const all = (await call(admin, 'GET', '/users')).json<{ users: UserDto[]; count: number }>();
    const first = (await call(admin, 'GET', '/users?pageNumber=1&rowsPerPage=2')).json();
    const second = (await call(admin, 'GET', '/users?pageNumber=2&rowsPerPage=2')).json();
    expect(first.users.map((u: UserDto) => u.id)).toEqual(all.users.slice(0, 2).map((u) => u.id));
    expect(second.users.map((u: UserDto) => u.id)).toEqual(all.users.slice(2, 4).map((u) => u.id));
    expect(first).toMatchObject({ count: all.count, hasMore: true });
  });

  it('searches name and e-mail, case- and accent-insensitively', async () => {
    const byName = (await call(admin, 'GET', `/users?searchParam=${encodeURIComponent('ze AGENTE')}`)).json();
    expect(byName.users.map((u: UserDto) => u.id)).toEqual([agent.id]);
    const accented = (await call(admin, 'GET', `/users?searchParam=${encodeURIComponent('SÓFIA')}`)).json();
    expect(accented.users.map((u: UserDto) => u.id)).toEqual([supervisor.id]);
    const byEmail = (await call(admin, 'GET', `/users?searchParam=${encodeURIComponent(agent.email)}`)).json();
    expect(byEmail).toMatchObject({ count: 1, hasMore: false });
    const wildcard = (await call(admin, 'GET', '/users?searchParam=%25')).json();
    expect(wildcard.count).toBe(0);
  });

  it('lets a supervisor list (read-only) and refuses an agent', async () => {
    expect((await call(supervisor, 'GET', '/users')).statusCode).toBe(200);
    const res = await call(agent, 'GET', '/users');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await call(supervisor, 'POST', '/users', newUser())).statusCode).toBe(403);
  });
});

describe('POST /api/users', () => {
  it('creates a user with its link, answering 201 and the DTO', async () => {
    const input = newUser({
      email: '  Mixed.Case@Test.Local ',
      queues: [1, { id: 2, name: 'x' }],
      blockWavoip: 'true',
    });
    const res = await call(admin, 'POST', '/users', input);
    expect(res.statusCode).toBe(201);
    const created = res.json<UserDto>();
    expect(created).toMatchObject({ email: 'mixed.case@test.local', tenantId: 1, profile: 'user', blockWavoip: true });
    expect(created.queues).toEqual([]);
    const row = await dbUser(created.id);
    expect(await verifyPassword(row!.passwordHash, 'S3cret!pw')).toBe(true);
    const links = await t.database.executeSql('select tenant_id from user_tenants where user_id = $1', [created.id]);
    expect(links.rows).toEqual([{ tenant_id: 1 }]);
  });

  it('refuses a duplicate e-mail, whatever its case or tenant', async () => {
    const res = await call(admin, 'POST', '/users', newUser({ email: agent.email.toUpperCase() }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
    const elsewhere = await t.createTenant();
    const stranger = await t.createUser({ tenantId: elsewhere });
    const again = await call(admin, 'POST', '/users', newUser({ email: stranger.email }));
    expect(again.statusCode).toBe(409);
  });

  it('refuses an agent, and a superadmin created by an admin', async () => {
    expect((await call(agent, 'POST', '/users', newUser())).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const res = await call(admin, 'POST', '/users', newUser({ profile: 'superadmin' }));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const superadmin = await t.createUser({ tenantId: 1, profile: 'superadmin' });
    expect((await call(superadmin, 'POST', '/users', newUser({ profile: 'superadmin' }))).statusCode).toBe(201);
  });

  it('validates the body', async () => {
    const res = await call(admin, 'POST', '/users', { name: 'x', email: 'not-an-email', password: '123456' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('enforces the tenant maxUsers', async () => {
    const tenantId = await t.createTenant({ maxUsers: 2 });
    const boss = await t.createUser({ tenantId, profile: 'admin' });
    expect((await call(boss, 'POST', '/users', newUser())).statusCode).toBe(201);
    const res = await call(boss, 'POST', '/users', newUser());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_USER_LIMIT_USER_CREATION' });
    const list = (await call(boss, 'GET', '/users')).json();
    expect(list.count).toBe(2);
  });

  it('keeps the limit under concurrent creations', async () => {
    const tenantId = await t.createTenant({ maxUsers: 3 });
    const boss = await t.createUser({ tenantId, profile: 'admin' });
    const results = await Promise.all([1, 2, 3, 4].map(() => call(boss, 'POST', '/users', newUser())));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 403, 403]);
  });

  it('honours the userCreation setting', async () => {
    const tenantId = await t.createTenant();
    const boss = await t.createUser({ tenantId, profile: 'admin' });
    const off = await call(boss, 'PUT', '/settings/undefined', { key: 'userCreation', value: 'disabled' });
    expect(off.statusCode).toBe(200);
    const res = await call(boss, 'POST', '/users', newUser());
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_USER_CREATION_DISABLED' });
  });
});

describe('GET /api/users/:id', () => {
  it('lets users read themselves and staff read anyone of the tenant', async () => {
    expect((await call(agent, 'GET', `/users/${agent.id}`)).json()).toMatchObject({ id: agent.id, profile: 'user' });
    expect((await call(supervisor, 'GET', `/users/${agent.id}`)).statusCode).toBe(200);
    expect((await call(admin, 'GET', `/users/${agent.id}/`)).statusCode).toBe(200);
    expect((await call(agent, 'GET', `/users/${admin.id}`)).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
  });

  it('answers 404 for an unknown id', async () => {
    const res = await call(admin, 'GET', '/users/999999');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
  });
});

describe('PUT /api/users/:id', () => {
  it('lets an admin edit a user; a password change bumps token_version', async () => {
    const target = await t.createUser({ tenantId: 1 });
    const before = await dbUser(target.id);
    const res = await call(admin, 'PUT', `/users/${target.id}`, {
      name: 'Renamed',
      profile: 'super',
      password: 'N3w!password',
      queues: [{ id: 1, queue: 'x' }],
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

  it('lets users edit their own name, e-mail and password', async () => {
    const me = await t.createUser({ tenantId: 1 });
    const email = `renamed-${Date.now()}@test.local`;
    const res = await call(me, 'PUT', `/users/${me.id}`, { name: 'Me', email, password: '', profile: 'user' });
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
    const res = await call(me, 'PUT', `/users/${me.id}`, { email: admin.email });
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
