import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownTenantDtoSchema } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let superadmin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  superadmin = await t.createUser({ tenantId: 1, profile: 'superadmin' });
});
afterAll(async () => t.close());

const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: user.auth, ...(payload ? { payload } : {}) });

const tenantRow = async (id: number) =>
  (await t.database.executeSql('select id, name, status from tenants where id = $1', [id])).rows[0];

describe('GET /api/tenants/:id (own tenant)', () => {
  it('answers the caller tenant as a one-element array, whatever the id', async () => {
    const tenantId = await t.createTenant({ name: 'Loja Dois', identity: '11222333000181', maxUsers: 4 });
    const user = await t.createUser({ tenantId });
    for (const id of ['undefined', String(tenantId), '1', 'abc']) {
      const res = await call(user, 'GET', `/api/tenants/${id}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toHaveLength(1);
      expect(ownTenantDtoSchema.strict().parse(body[0])).toMatchObject({
        id: tenantId,
        name: 'Loja Dois',
        status: 'active',
        identity: '11222333000181',
        maxUsers: 4,
      });
    }
  });

  it('tells the tenant’s time zone, in which the panel’s "today" and business hours are read', async () => {
    const tenantId = await t.createTenant();
    await t.database.executeSql(`update tenants set timezone = 'Asia/Tokyo' where id = $1`, [tenantId]);
    const user = await t.createUser({ tenantId, profile: 'user' });
    const res = await call(user, 'GET', '/api/tenants/undefined');
    expect(res.json()[0]).toMatchObject({ id: tenantId, timezone: 'Asia/Tokyo' });
  });

  it('still answers an inactive tenant, so clients can log their users out', async () => {
    const tenantId = await t.createTenant({ status: 'inactive' });
    const user = await t.createUser({ tenantId, profile: 'admin' });
    const res = await call(user, 'GET', '/api/tenants/undefined');
    expect(res.json()[0]).toMatchObject({ id: tenantId, status: 'inactive' });
  });

  it('needs a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/tenants/undefined' });
    expect(res.statusCode).toBe(401);
  });
});

describe('superadmin tenant management', () => {
  it('lists every tenant as a bare array', async () => {
    const other = await t.createTenant();
    const res = await call(superadmin, 'GET', '/api/tenants/');
    expect(res.statusCode).toBe(200);
    const ids = (res.json() as { id: number }[]).map((row) => row.id);
    expect(ids).toEqual(expect.arrayContaining([1, other]));
  });

  it('creates, edits and deletes a tenant', async () => {
    const created = await call(superadmin, 'POST', '/api/tenants/', {
      name: 'Nova Empresa',
      status: 'active',
      maxUsers: '5',
      maxConnections: 2,
      identity: '',
      trial: 'enabled',
      trialPeriod: 15,
      asaas: false,
      asaasToken: null,
      metaToken: '',
      bmToken: '',
    });
    expect(created.statusCode).toBe(201);
    const tenant = created.json();
    expect(tenant).toMatchObject({
      name: 'Nova Empresa',
      status: 'active',
      maxUsers: 5,
      maxConnections: 2,
      identity: null,
      trial: 'enabled',
      trialPeriod: 15,
    });
    const settings = await t.database.executeSql('select count(*)::int as n from settings where tenant_id = $1', [
      tenant.id,
    ]);
    expect(settings.rows[0]?.n).toBeGreaterThan(0);

    const edited = await call(superadmin, 'PUT', `/api/tenantsUpdate/${tenant.id}`, {
      ...tenant,
      name: 'Empresa Renomeada',
      status: 'inactive',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: tenant.id, name: 'Empresa Renomeada', status: 'inactive', maxUsers: 5 });

    const partial = await call(superadmin, 'PUT', `/api/tenantsUpdate/${tenant.id}`, { maxUsers: 9 });
    expect(partial.json()).toMatchObject({ name: 'Empresa Renomeada', status: 'inactive', maxUsers: 9 });

    const deleted = await call(superadmin, 'DELETE', `/api/tenants/${tenant.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(await tenantRow(tenant.id)).toBeUndefined();
    expect((await call(superadmin, 'DELETE', `/api/tenants/${tenant.id}`)).json()).toEqual({
      error: 'ERR_NO_TENANT_FOUND',
    });
  });

  it('validates the tenant body', async () => {
    const res = await call(superadmin, 'POST', '/api/tenants', { name: '', maxUsers: -1, maxConnections: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('answers 404 for an unknown tenant', async () => {
    const res = await call(superadmin, 'PUT', '/api/tenantsUpdate/999999', { name: 'x' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_TENANT_FOUND' });
  });

  it('never deactivates or deletes tenant 1', async () => {
    const deactivate = await call(superadmin, 'PUT', '/api/tenantsUpdate/1', { status: 'inactive' });
    expect(deactivate.statusCode).toBe(403);
    expect(deactivate.json()).toEqual({ error: 'ERR_TENANT_PROTECTED', field: 'status' });
    const remove = await call(superadmin, 'DELETE', '/api/tenants/1');
    expect(remove.statusCode).toBe(403);
    expect(remove.json()).toEqual({ error: 'ERR_TENANT_PROTECTED' });
    expect(await tenantRow(1)).toMatchObject({ id: 1, status: 'active' });
    // Other edits of tenant 1 stay possible.
    const rename = await call(superadmin, 'PUT', '/api/tenantsUpdate/1', { name: 'Matriz', status: 'active' });
    expect(rename.statusCode).toBe(200);
  });

  it('refuses everyone but the superadmin with 403 ERR_NO_PERMISSION, changing nothing', async () => {
    const target = await t.createTenant({ name: 'Alvo' });
    for (const profile of ['user', 'super', 'admin'] as const) {
      const user = await t.createUser({ tenantId: 1, profile });
      const attempts = [
        await call(user, 'GET', '/api/tenants/'),
        await call(user, 'POST', '/api/tenants/', { name: 'X', maxUsers: 1, maxConnections: 1 }),
        await call(user, 'PUT', `/api/tenantsUpdate/${target}`, { name: 'Hacked' }),
        await call(user, 'DELETE', `/api/tenants/${target}`),
      ];
      for (const res of attempts) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
      }
    }
    expect(await tenantRow(target)).toMatchObject({ name: 'Alvo', status: 'active' });
  });
});

describe('tenant isolation', () => {
  it('a user of tenant 2 asking for tenant 1 only ever sees tenant 2', async () => {
    const tenantId = await t.createTenant({ name: 'Isolada' });
    const admin = await t.createUser({ tenantId, profile: 'admin' });
    const res = await call(admin, 'GET', '/api/tenants/1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([expect.objectContaining({ id: tenantId, name: 'Isolada' })]);
    expect(JSON.stringify(res.json())).not.toContain('"id":1,');
  });
});
