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
  ({ admin, agent, supervisor } = await t.createStaff());
});
afterAll(async () => t.close());

const call: TestApp['call'] = (...args) => t.call(...args);

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

  it('lets a supervisor list (read-only), with e-mails', async () => {
    const res = await call(supervisor, 'GET', '/users');
    expect(res.statusCode).toBe(200);
    expect(res.json<{ users: UserDto[] }>().users.find((u) => u.id === agent.id)).toMatchObject({
      email: agent.email,
      whatsappAllowed: [],
    });
    expect((await call(supervisor, 'POST', '/users', newUser())).statusCode).toBe(403);
  });

  it('gives an agent what a transfer needs (id, name, profile, queues, online), never e-mails', async () => {
    const queue = (await call(admin, 'POST', '/queue', { queue: `Transferência ${Date.now()}` })).json<{
      id: number;
      queue: string;
    }>();
    await call(admin, 'PUT', `/users/${supervisor.id}`, { queues: [queue.id] });
    await call(admin, 'PUT', `/usersIsOnline/${supervisor.id}`, { isOnline: true });
    const res = await call(agent, 'GET', '/users/?pageNumber=1');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ users: Record<string, unknown>[]; count: number; hasMore: boolean }>();
    const full = (await call(admin, 'GET', '/users/?pageNumber=1')).json<{ users: UserDto[]; count: number }>();
    expect(body).toMatchObject({ count: full.count, hasMore: false });
    expect(body.users.map((u) => u.id)).toEqual(full.users.map((u) => u.id));
    expect(body.users.find((u) => u.id === supervisor.id)).toEqual({
      id: supervisor.id,
      name: 'Sofia Super',
      profile: 'super',
      queues: [{ id: queue.id, queue: queue.queue, name: queue.queue }],
      isOnline: true,
    });
    for (const user of body.users)
      expect(Object.keys(user).sort()).toEqual(['id', 'isOnline', 'name', 'profile', 'queues']);
    expect(res.body).not.toContain('@');
    // Nor can an agent probe e-mails through the search: it matches names only.
    const byEmail = (await call(agent, 'GET', `/users?searchParam=${encodeURIComponent(admin.email)}`)).json();
    expect(byEmail).toMatchObject({ users: [], count: 0 });
    const byName = (await call(agent, 'GET', '/users?searchParam=sofia')).json();
    expect(byName.users.map((u: { id: number }) => u.id)).toEqual([supervisor.id]);
    const chatByEmail = (
      await call(agent, 'GET', `/users/chat-privado?searchParam=${encodeURIComponent(admin.email)}`)
    ).json();
    expect(chatByEmail.users).toEqual([]);
    // Staff keep the full answer and the e-mail search.
    const staffByEmail = (
      await call(admin, 'GET', `/users?searchParam=${encodeURIComponent(supervisor.email)}`)
    ).json();
    expect(staffByEmail.users.map((u: UserDto) => u.email)).toEqual([supervisor.email]);
  });
});

describe('POST /api/users', () => {
  it('creates a user with its link, answering 201 and the DTO', async () => {
    const input = newUser({
      email: '  Mixed.Case@Test.Local ',
      queues: [], // real queue ids and objects: users.queues.test.ts
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
    const res = await call(admin, 'POST', '/users', { name: 'x', email: 'not-an-email', password: 'S3cret!pw' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('asks the product’s one password rule: 7 characters with a letter, a number and a symbol', async () => {
    for (const password of ['Ab1!xy', 'abcdefg1', 'abcdefg!', '1234567!', '']) {
      const res = await call(admin, 'POST', '/users', newUser({ password }));
      expect(res.statusCode, password).toBe(400);
      expect(res.json(), password).toMatchObject({ error: 'ERR_WEAK_PASSWORD', field: 'password' });
    }
    expect((await call(admin, 'POST', '/users', newUser({ password: 'Ab1!xyz' }))).statusCode).toBe(201);
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
