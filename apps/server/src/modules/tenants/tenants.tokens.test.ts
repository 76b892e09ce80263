/**
 * The tenant's Meta and hub tokens: write-only routes (`/tenantsMetaUpdate/{id}`, `/tenantsHubToken/{id}`), the
 * booleans on GET /tenants/{id}, and the accessor the channel code reads them through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { readTenantTokens } from './index.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let otherAdmin: TestUser;
let otherTenant: number;

const tokensOf = (tenantId: number) =>
  withTenant(t.platform.db, systemContext(tenantId), (tx) => readTenantTokens(tx, tenantId));

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent } = await t.createStaff());
  otherTenant = await t.createTenant({ name: 'Outra' });
  ({ admin: otherAdmin } = await t.createStaff(otherTenant));
});
afterAll(() => t.close());

describe('tenant tokens', () => {
  it('stores the Meta tokens write-only: the answer and GET /tenants/{id} tell only whether each is set', async () => {
    const saved = await t.call(admin, 'PUT', `/tenantsMetaUpdate/${admin.tenantId}`, {
      id: admin.tenantId,
      metaToken: 'EAAG-meta-user-token',
      wabaToken: 'EAAG-waba-token',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ metaTokenConfigured: true, wabaTokenConfigured: true, hubTokenConfigured: false });
    const [tenant] = (await t.call(agent, 'GET', '/tenants/undefined')).json<Record<string, unknown>[]>();
    expect(tenant).toMatchObject({ metaTokenConfigured: true, wabaTokenConfigured: true, hubTokenConfigured: false });
    expect(JSON.stringify(tenant)).not.toContain('EAAG');
    expect(await tokensOf(admin.tenantId)).toEqual({
      metaToken: 'EAAG-meta-user-token',
      wabaToken: 'EAAG-waba-token',
      hubToken: null,
    });
  });

  it('an empty or absent token keeps the stored one; null clears it', async () => {
    const path = `/tenantsMetaUpdate/${admin.tenantId}`;
    expect((await t.call(admin, 'PUT', path, { metaToken: '', wabaToken: '  ' })).json()).toMatchObject({
      metaTokenConfigured: true,
      wabaTokenConfigured: true,
    });
    expect((await t.call(admin, 'PUT', path, { wabaToken: null })).json()).toMatchObject({
      metaTokenConfigured: true,
      wabaTokenConfigured: false,
    });
    expect(await tokensOf(admin.tenantId)).toMatchObject({ metaToken: 'EAAG-meta-user-token', wabaToken: null });
  });

  it('stores and clears the hub token', async () => {
    const path = `/tenantsHubToken/${admin.tenantId}`;
    const saved = await t.call(admin, 'PUT', path, { id: admin.tenantId, hubToken: 'hub-token-1' });
    expect(saved.json()).toEqual({ metaTokenConfigured: true, wabaTokenConfigured: false, hubTokenConfigured: true });
    expect((await tokensOf(admin.tenantId)).hubToken).toBe('hub-token-1');
    expect((await t.call(admin, 'PUT', path, {})).json()).toMatchObject({ hubTokenConfigured: true });
    expect((await t.call(admin, 'PUT', path, { hubToken: null })).json()).toMatchObject({ hubTokenConfigured: false });
  });

  it('refuses agents, another tenant id and bad bodies, changing nothing', async () => {
    await t.call(admin, 'PUT', `/tenantsHubToken/${admin.tenantId}`, { hubToken: 'kept' });
    expect((await t.call(agent, 'PUT', `/tenantsHubToken/${admin.tenantId}`, { hubToken: 'x' })).statusCode).toBe(403);
    const foreign = await t.call(admin, 'PUT', `/tenantsHubToken/${otherTenant}`, { hubToken: 'x' });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const foreignMeta = await t.call(otherAdmin, 'PUT', `/tenantsMetaUpdate/${admin.tenantId}`, { metaToken: 'x' });
    expect(foreignMeta.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const bad = await t.call(admin, 'PUT', `/tenantsHubToken/${admin.tenantId}`, { hubToken: 42 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    const long = await t.call(admin, 'PUT', `/tenantsMetaUpdate/${admin.tenantId}`, { metaToken: 'x'.repeat(2001) });
    expect(long.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'metaToken' });
    expect(await tokensOf(admin.tenantId)).toMatchObject({ metaToken: 'EAAG-meta-user-token', hubToken: 'kept' });
    expect(await tokensOf(otherTenant)).toEqual({ metaToken: null, wabaToken: null, hubToken: null });
  });
});
