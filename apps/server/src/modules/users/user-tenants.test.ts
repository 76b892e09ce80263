import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

type UserTenantDto = UserDto & { tenant: { id: number; name: string } };

let t: TestApp;
let root: TestUser;
let admin: TestUser;
let tenantB: number;

beforeAll(async () => {
  t = await createTestApp();
  root = await t.createUser({ tenantId: 1, profile: 'superadmin', name: 'Root' });
  admin = await t.createUser({ tenantId: 1, profile: 'admin' });
  tenantB = await t.createTenant({ name: 'Beta Ltda' });
  await t.createUser({ tenantId: tenantB, name: 'Bruno Beta' });
});
afterAll(async () => t.close());

const call: TestApp['call'] = (...args) => t.call(...args);
const homeTenant = async (id: number) =>
  (await t.database.executeSql('select tenant_id from users where id = $1', [id])).rows[0]?.tenant_id;
const links = async (id: number) =>
  (await t.database.executeSql('select tenant_id from user_tenants where user_id = $1 order by tenant_id', [id])).rows;

let n = 0;
const input = (tenantId: number, extra: Record<string, unknown> = {}) => ({
  name: `Linked ${++n}`,
  email: `linked-${n}-${Date.now()}@test.local`,
  password: 'S3cret!pw',
  profile: 'user',
  tenantId,
  ...extra,
});

describe('/api/userTenants', () => {
  it('is for superadmins only: admins, supervisors and agents of any tenant get 403 on every call', async () => {
    const victim = await t.createUser({ tenantId: tenantB, name: 'Alvo Beta' });
    const staffB = await t.createStaff(tenantB);
    for (const who of [admin, staffB.admin, staffB.supervisor, staffB.agent]) {
      for (const [method, path, payload] of [
        ['GET', '/userTenants/', undefined],
        ['GET', `/userTenants/?tenantId=${tenantB}`, undefined],
        ['POST', '/userTenants', input(tenantB, { profile: 'admin' })],
        ['PUT', `/userTenants/${victim.id}`, { name: 'Owned', tenantId: who.tenantId }],
        ['DELETE', `/userTenants/${victim.id}`, { tenantId: tenantB }],
      ] as const) {
        const res = await call(who, method, path, payload);
        expect(res.statusCode, `${who.profile} ${method} ${path}`).toBe(403);
        expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      }
    }
    expect(await homeTenant(victim.id)).toBe(tenantB);
    const row = await t.database.executeSql('select name from users where id = $1', [victim.id]);
    expect(row.rows).toEqual([{ name: 'Alvo Beta' }]);
  });

  it('lists users of every tenant with their tenant, paged and searchable', async () => {
    const res = await call(root, 'GET', '/userTenants/?pageNumber=1');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ users: UserTenantDto[]; count: number; hasMore: boolean }>();
    expect(new Set(body.users.map((u) => u.tenantId))).toEqual(new Set([1, tenantB]));
    const bruno = body.users.find((u) => u.name === 'Bruno Beta')!;
    expect(bruno.tenant).toEqual({ id: tenantB, name: 'Beta Ltda' });
    expect(res.body).not.toMatch(/password/i);
    const search = (await call(root, 'GET', '/userTenants?searchParam=bruno')).json();
    expect(search).toMatchObject({ count: 1, hasMore: false });
  });

  it('creates a user in a given tenant, with the limits and duplicate rules', async () => {
    const res = await call(root, 'POST', '/userTenants', input(tenantB, { profile: 'admin' }));
    expect(res.statusCode).toBe(201);
    const created = res.json<UserTenantDto>();
    expect(created).toMatchObject({ tenantId: tenantB, profile: 'admin', tenant: { id: tenantB, name: 'Beta Ltda' } });
    expect(await links(created.id)).toEqual([{ tenant_id: tenantB }]);

    const dup = await call(root, 'POST', '/userTenants', input(1, { email: created.email }));
    expect(dup.json()).toMatchObject({ error: 'ERR_EMAIL_ALREADY_EXISTS' });
    const missing = await call(root, 'POST', '/userTenants', input(999_999));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'ERR_NO_TENANT_FOUND' });
    const full = await t.createTenant({ maxUsers: 1 });
    await t.createUser({ tenantId: full });
    const limited = await call(root, 'POST', '/userTenants', input(full));
    expect(limited.statusCode).toBe(403);
    expect(limited.json()).toEqual({ error: 'ERR_USER_LIMIT_USER_CREATION' });
  });

  it('edits a user and moves it to another tenant', async () => {
    const user = await t.createUser({ tenantId: 1 });
    const res = await call(root, 'PUT', `/userTenants/${user.id}`, { name: 'Moved', tenantId: tenantB });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, name: 'Moved', tenantId: tenantB, tenant: { id: tenantB } });
    expect(await homeTenant(user.id)).toBe(tenantB);
    expect(await links(user.id)).toEqual([{ tenant_id: tenantB }]);
    // Now a tenant-B user: tenant 1 no longer sees it.
    expect((await call(admin, 'GET', `/users/${user.id}`)).statusCode).toBe(404);

    const stay = await call(root, 'PUT', `/userTenants/${user.id}`, { profile: 'super', tenantId: tenantB });
    expect(stay.json()).toMatchObject({ profile: 'super', tenantId: tenantB });
  });

  it('refuses moves into a full or unknown tenant, unknown users, and own profile changes', async () => {
    const user = await t.createUser({ tenantId: 1 });
    const full = await t.createTenant({ maxUsers: 1 });
    await t.createUser({ tenantId: full });
    const limited = await call(root, 'PUT', `/userTenants/${user.id}`, { tenantId: full });
    expect(limited.json()).toEqual({ error: 'ERR_USER_LIMIT_USER_CREATION' });
    const unknownTenant = await call(root, 'PUT', `/userTenants/${user.id}`, { tenantId: 999_999 });
    expect(unknownTenant.json()).toEqual({ error: 'ERR_NO_TENANT_FOUND' });
    expect(await homeTenant(user.id)).toBe(1);
    const unknownUser = await call(root, 'PUT', '/userTenants/999999', { tenantId: 1 });
    expect(unknownUser.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
    const self = await call(root, 'PUT', `/userTenants/${root.id}`, { profile: 'admin', tenantId: 1 });
    expect(self.json()).toEqual({ error: 'ERR_PROFILE_ESCALATION' });
  });

  it('removes a user from its home tenant (link and user), with a JSON body on DELETE', async () => {
    const user = await t.createUser({ tenantId: tenantB });
    const res = await call(root, 'DELETE', `/userTenants/${user.id}`, { tenantId: tenantB });
    expect(res.statusCode).toBe(204);
    expect(await homeTenant(user.id)).toBeUndefined();
    expect(await links(user.id)).toEqual([]);
  });

  it('removes only the link for a tenant that is not the home one', async () => {
    const user = await t.createUser({ tenantId: 1 });
    await t.database.executeSql('insert into user_tenants (tenant_id, user_id) values ($1, $2)', [tenantB, user.id]);
    expect((await call(root, 'DELETE', `/userTenants/${user.id}`, { tenantId: tenantB })).statusCode).toBe(204);
    expect(await homeTenant(user.id)).toBe(1);
    expect(await links(user.id)).toEqual([{ tenant_id: 1 }]);
    const again = await call(root, 'DELETE', `/userTenants/${user.id}`, { tenantId: tenantB });
    expect(again.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
  });

  it('refuses deleting yourself, unknown ids, and the last superadmin', async () => {
    expect((await call(root, 'DELETE', `/userTenants/${root.id}`, { tenantId: 1 })).json()).toEqual({
      error: 'ERR_NO_PERMISSION',
    });
    expect((await call(root, 'DELETE', '/userTenants/999999', { tenantId: 1 })).json()).toEqual({
      error: 'ERR_NO_USER_FOUND',
    });
    const user = await t.createUser({ tenantId: 1 });
    expect((await call(root, 'DELETE', `/userTenants/${user.id}`, { tenantId: 999_999 })).json()).toEqual({
      error: 'ERR_NO_TENANT_FOUND',
    });
    expect((await call(root, 'DELETE', `/userTenants/${user.id}`, {})).statusCode).toBe(400);
  });

  it('never removes or demotes the last superadmin', async () => {
    // Leave `root` as the only superadmin, then act with the token of a superadmin demoted since it was issued.
    const stale = await t.createUser({ tenantId: 1, profile: 'superadmin' });
    const demoted = await t.database.executeSql(
      "update users set profile = 'admin' where profile = 'superadmin' and id <> $1 returning id",
      [root.id],
    );
    try {
      const del = await call(stale, 'DELETE', `/userTenants/${root.id}`, { tenantId: 1 });
      expect(del.statusCode).toBe(403);
      expect(del.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      const demote = await call(stale, 'PUT', `/userTenants/${root.id}`, { profile: 'admin', tenantId: 1 });
      expect(demote.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      expect(await homeTenant(root.id)).toBe(1);
    } finally {
      const ids = demoted.rows.map((row) => Number(row.id)).filter((id) => id !== stale.id);
      for (const id of ids) await t.database.executeSql("update users set profile = 'superadmin' where id = $1", [id]);
    }
  });

  it('filters by company (tenantId), and the company admin sees only its own users', async () => {
    const tenantC = await t.createTenant({ name: 'Gama Ltda' });
    const created = (
      await call(root, 'POST', '/userTenants', input(tenantC, { profile: 'admin' }))
    ).json<UserTenantDto>();
    const onlyC = (await call(root, 'GET', `/userTenants/?tenantId=${tenantC}`)).json<{
      users: UserTenantDto[];
      count: number;
    }>();
    expect(onlyC.users.map((u) => u.id)).toEqual([created.id]);
    expect(onlyC).toMatchObject({ count: 1 });
    expect(onlyC.users[0]?.tenant).toEqual({ id: tenantC, name: 'Gama Ltda' });
    const onlyB = (await call(root, 'GET', `/userTenants/?tenantId=${tenantB}`)).json<{ users: UserTenantDto[] }>();
    expect(onlyB.users.length).toBeGreaterThan(0);
    expect(onlyB.users.every((u) => u.tenantId === tenantB)).toBe(true);
    expect((await call(root, 'GET', '/userTenants/?tenantId=abc')).statusCode).toBe(400);
    // The new company's admin logs in to their company and lists only its users; tenant 1's admin never sees them.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: created.email, password: 'S3cret!pw' },
    });
    if (login.statusCode !== 404) expect(login.json()).toMatchObject({ tenantId: tenantC, profile: 'admin' });
    const adminC = { ...(await t.createUser({ tenantId: tenantC, profile: 'admin' })) };
    const listC = (await call(adminC, 'GET', '/users/')).json<{ users: UserDto[] }>();
    expect(listC.users.map((u) => u.id).sort()).toEqual([created.id, adminC.id].sort());
    const list1 = (await call(admin, 'GET', '/users/')).json<{ users: UserDto[] }>();
    expect(list1.users.some((u) => u.id === created.id)).toBe(false);
    expect((await call(admin, 'GET', `/users/${created.id}`)).statusCode).toBe(404);
  });

  it('asks the one password rule on create and edit (6 characters are refused)', async () => {
    const weak = await call(root, 'POST', '/userTenants', input(tenantB, { password: 'Ab1!xy' }));
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ error: 'ERR_WEAK_PASSWORD', field: 'password' });
    const user = await t.createUser({ tenantId: tenantB });
    const edit = await call(root, 'PUT', `/userTenants/${user.id}`, { tenantId: tenantB, password: 'abcdef' });
    expect(edit.json()).toMatchObject({ error: 'ERR_WEAK_PASSWORD', field: 'password' });
    const kept = await call(root, 'PUT', `/userTenants/${user.id}`, {
      tenantId: tenantB,
      password: '',
      name: 'Sem troca',
    });
    expect(kept.statusCode, kept.body).toBe(200);
  });
});
