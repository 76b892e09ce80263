/** Tenant isolation: an admin of tenant 2 reaches no tenant-1 user through any /users route, and changes nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let victim: TestUser;
let victimAdmin: TestUser;
let intruder: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  victim = await t.createUser({ tenantId: 1, name: 'Victim' });
  victimAdmin = await t.createUser({ tenantId: 1, profile: 'admin' });
  intruder = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin' });
});
afterAll(async () => t.close());

const asIntruder = (method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url: `/api${url}`, headers: intruder.auth, ...(payload === undefined ? {} : { payload }) });

describe('tenant isolation of /api/users', () => {
  it('answers 404 ERR_NO_USER_FOUND for every route with a tenant-1 id', async () => {
    const before = (
      await t.app.inject({ method: 'GET', url: `/api/users/${victim.id}`, headers: victimAdmin.auth })
    ).json();
    const attempts = [
      asIntruder('GET', `/users/${victim.id}`),
      asIntruder('PUT', `/users/${victim.id}`, { name: 'Owned', password: 'Owned!123', profile: 'admin' }),
      asIntruder('PUT', `/usersIsOnline/${victim.id}`, { isOnline: true }),
      asIntruder('PUT', `/users/${victim.id}/configs`, { isDark: true }),
      asIntruder('DELETE', `/users/${victim.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
    }
    const after = await t.app.inject({ method: 'GET', url: `/api/users/${victim.id}`, headers: victimAdmin.auth });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual(before);
    expect(after.json()).toMatchObject({ name: 'Victim', profile: 'user', isOnline: false, configs: {} });
    const { rows } = await t.database.executeSql('select token_version from users where id = $1', [victim.id]);
    expect(rows).toEqual([{ token_version: 0 }]);
  });

  it('lists and chats only within the own tenant', async () => {
    const list = (await asIntruder('GET', '/users')).json<{ users: { tenantId: number }[] }>();
    expect(list.users.every((u) => u.tenantId === intruder.tenantId)).toBe(true);
    const chat = (await asIntruder('GET', '/users/chat-privado')).json<{ users: { id: number }[] }>();
    expect(chat.users.map((u) => u.id)).not.toContain(victim.id);
  });

  it('keeps the user-tenant routes to superadmins', async () => {
    for (const res of [
      await asIntruder('GET', '/userTenants'),
      await asIntruder('PUT', `/userTenants/${victim.id}`, { tenantId: intruder.tenantId }),
      await asIntruder('DELETE', `/userTenants/${victim.id}`, { tenantId: 1 }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    const { rows } = await t.database.executeSql('select tenant_id from users where id = $1', [victim.id]);
    expect(rows).toEqual([{ tenant_id: 1 }]);
  });
});
