/**
 * A stolen access token is not enough to take an account: changing one's own password or e-mail needs the current
 * password (PUT /users/{id} and the superadmin's /userTenants/{id} on themselves). An admin changing someone else's
 * password does not need it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../platform/crypto.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ tenantId: 1, profile: 'admin' });
});
afterAll(async () => t.close());

const row = async (id: number) =>
  (await t.database.executeSql('select email, password_hash, token_version from users where id = $1', [id]))
    .rows[0] as { email: string; password_hash: string; token_version: number };

describe('own password and e-mail need the current password', () => {
  it.each([
    ['password', { password: 'nova-senha-1' }],
    ['e-mail', { email: 'outro-endereco@test.local' }],
  ])('refuses a %s change without it (400 naming currentPassword), changing nothing', async (_what, change) => {
    const me = await t.createUser({ tenantId: 1 });
    const before = await row(me.id);
    for (const body of [change, { ...change, currentPassword: '' }]) {
      const res = await t.call(me, 'PUT', `/users/${me.id}`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'ERR_VALIDATION', field: 'currentPassword' });
    }
    expect(await row(me.id)).toEqual(before);
  });

  it.each([
    ['password', { password: 'nova-senha-1' }],
    ['e-mail', { email: 'mais-um-endereco@test.local' }],
  ])('refuses a %s change with a wrong one: 400 ERR_CURRENT_PASSWORD_INVALID, never 401', async (_what, change) => {
    const me = await t.createUser({ tenantId: 1 });
    const before = await row(me.id);
    const res = await t.call(me, 'PUT', `/users/${me.id}`, { ...change, currentPassword: 'not-my-password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_CURRENT_PASSWORD_INVALID', field: 'currentPassword' });
    expect(await row(me.id)).toEqual(before);
  });

  it('changes the password with the right one', async () => {
    const me = await t.createUser({ tenantId: 1 });
    const res = await t.call(me, 'PUT', `/users/${me.id}`, { password: 'nova-senha-1', currentPassword: me.password });
    expect(res.statusCode, res.body).toBe(200);
    expect(await verifyPassword((await row(me.id)).password_hash, 'nova-senha-1')).toBe(true);
    expect(typeof res.json().token).toBe('string');
  });

  it('changes the e-mail with the right one; a rename or the same e-mail echoed back needs none', async () => {
    const me = await t.createUser({ tenantId: 1 });
    const email = `novo-${me.id}@test.local`;
    const changed = await t.call(me, 'PUT', `/users/${me.id}`, { email, currentPassword: me.password });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await row(me.id)).email).toBe(email);
    const echoed = await t.call(me, 'PUT', `/users/${me.id}`, { name: 'Eu', email: email.toUpperCase() });
    expect(echoed.statusCode, echoed.body).toBe(200);
    expect(echoed.json()).toMatchObject({ name: 'Eu', email });
    expect(echoed.json()).not.toHaveProperty('token');
  });

  it("lets an admin change another user's password and e-mail without it", async () => {
    const other = await t.createUser({ tenantId: 1 });
    const res = await t.call(admin, 'PUT', `/users/${other.id}`, {
      password: 'definida-pelo-admin-1',
      email: `admin-set-${other.id}@test.local`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await verifyPassword((await row(other.id)).password_hash, 'definida-pelo-admin-1')).toBe(true);
  });

  it('asks the superadmin for it on their own /userTenants record too, not on others', async () => {
    const root = await t.createUser({ tenantId: 1, profile: 'superadmin' });
    const other = await t.createUser({ tenantId: 1 });
    const own = await t.call(root, 'PUT', `/userTenants/${root.id}`, { tenantId: 1, password: 'nova-senha-9' });
    expect(own.json()).toEqual({ error: 'ERR_VALIDATION', field: 'currentPassword' });
    const wrong = await t.call(root, 'PUT', `/userTenants/${root.id}`, {
      tenantId: 1,
      password: 'nova-senha-9',
      currentPassword: 'nope',
    });
    expect(wrong.json()).toEqual({ error: 'ERR_CURRENT_PASSWORD_INVALID', field: 'currentPassword' });
    const theirs = await t.call(root, 'PUT', `/userTenants/${other.id}`, { tenantId: 1, password: 'nova-senha-9' });
    expect(theirs.statusCode, theirs.body).toBe(200);
  });
});
