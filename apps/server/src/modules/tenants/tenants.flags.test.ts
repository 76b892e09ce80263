/**
 * The tenant toggles of client-contract §10: defaults in `GET /tenants/{id}`, one `PUT /tenants<Name>/{id}` per field,
 * validated, for the tenant's admins only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TENANT_FLAG_PATHS, TENANT_LIMIT_DEFAULTS, TENANT_TOGGLE_DEFAULTS } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let otherAdmin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  const tenantId = await t.createTenant({ name: 'Loja Flags' });
  admin = await t.createUser({ tenantId, profile: 'admin' });
  agent = await t.createUser({ tenantId, profile: 'user' });
  supervisor = await t.createUser({ tenantId, profile: 'super' });
  otherAdmin = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin' });
});
afterAll(() => t.close());

const ownTenant = async (user: TestUser) =>
  (await t.call(user, 'GET', '/tenants/undefined')).json<Record<string, unknown>[]>()[0]!;

describe('tenant toggles', () => {
  it('GET /tenants/undefined answers every toggle with its default', async () => {
    const tenant = await ownTenant(agent);
    expect(tenant).toMatchObject({ ...TENANT_TOGGLE_DEFAULTS, ...TENANT_LIMIT_DEFAULTS });
  });

  it.each(Object.entries(TENANT_FLAG_PATHS))('PUT %s/{id} stores %s', async (path, field) => {
    const limit = field in TENANT_LIMIT_DEFAULTS;
    const value = limit
      ? 7
      : TENANT_TOGGLE_DEFAULTS[field as keyof typeof TENANT_TOGGLE_DEFAULTS] === 'enabled'
        ? 'disabled'
        : 'enabled';
    const res = await t.call(admin, 'PUT', `${path}/${admin.tenantId}`, { id: admin.tenantId, [field]: value });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: admin.tenantId, [field]: value });
    expect((await ownTenant(agent))[field]).toBe(value);
    // Another tenant sees nothing of it.
    expect((await ownTenant(otherAdmin))[field]).not.toBe(value);
  });

  it('accepts booleans and numeric strings, refuses other values (ERR_VALIDATION) without writing', async () => {
    const path = `/tenantsShowGroupsForAll/${admin.tenantId}`;
    expect((await t.call(admin, 'PUT', path, { id: admin.tenantId, showGroupsForAll: true })).json()).toMatchObject({
      showGroupsForAll: 'enabled',
    });
    const bad = await t.call(admin, 'PUT', path, { id: admin.tenantId, showGroupsForAll: 'maybe' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect((await ownTenant(admin)).showGroupsForAll).toBe('enabled');
    const limit = `/tenantsMaxRetries/${admin.tenantId}`;
    expect((await t.call(admin, 'PUT', limit, { maxRetries: '5' })).json()).toMatchObject({ maxRetries: 5 });
    for (const maxRetries of [0, -1, 'x', 5000]) {
      expect((await t.call(admin, 'PUT', limit, { maxRetries })).statusCode).toBe(400);
    }
    expect((await t.call(admin, 'PUT', limit, {})).statusCode).toBe(400);
    expect((await ownTenant(admin)).maxRetries).toBe(5);
  });

  it('only admins of that tenant write (ERR_NO_PERMISSION), nothing changes', async () => {
    const path = `/tenantsSupervisorAdmin/${admin.tenantId}`;
    await t.call(admin, 'PUT', path, { supervisorAdmin: 'disabled' });
    for (const user of [agent, supervisor]) {
      const res = await t.call(user, 'PUT', path, { supervisorAdmin: 'enabled' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    }
    const foreign = await t.call(otherAdmin, 'PUT', path, { id: admin.tenantId, supervisorAdmin: 'enabled' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    expect((await ownTenant(admin)).supervisorAdmin).toBe('disabled');
  });
});
