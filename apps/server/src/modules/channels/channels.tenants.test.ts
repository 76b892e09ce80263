/** The superadmin's `/whatsappTenants` CRUD: another tenant's channels with that tenant's rules, nobody else. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

const TOKEN = '7000000031:AAH-tenants_bot_token_for_tests_0031';

let t: TestApp;
let superadmin: TestUser;
let admin: TestUser;
let tenant: number;

beforeAll(async () => {
  t = await createTestApp();
  superadmin = await t.createUser({ tenantId: 1, profile: 'superadmin' });
  tenant = await t.createTenant();
  admin = await t.createUser({ tenantId: tenant, profile: 'admin' });
});
afterAll(() => t.close());

const body = (extra: object = {}) => ({ name: 'Filial', type: 'telegram', tokenTelegram: TOKEN, ...extra });

describe('/whatsappTenants (superadmin)', () => {
  it('creates, reads, edits and deletes a channel of the named tenant; the tenant admin sees it as its own', async () => {
    const created = await t.call(superadmin, 'POST', '/whatsappTenants', body({ tenantId: tenant }));
    expect(created.statusCode, created.body).toBe(201);
    const channel = created.json<ChannelDto>();
    expect(channel).toMatchObject({ tenantId: tenant, name: 'Filial', isDefault: true });
    expect(created.body).not.toContain(TOKEN);
    const own = (await t.call(admin, 'GET', '/whatsapp')).json<ChannelDto[]>();
    expect(own.map((c) => c.id)).toEqual([channel.id]);
    // Another company (the superadmin's own included) never sees it.
    const outsider = await t.createUser({ tenantId: 1, profile: 'admin' });
    expect((await t.call(outsider, 'GET', '/whatsapp')).json<ChannelDto[]>().map((c) => c.id)).not.toContain(
      channel.id,
    );
    expect((await t.call(outsider, 'GET', `/whatsapp/${channel.id}`)).statusCode).toBe(404);
    const all = (await t.call(superadmin, 'GET', '/whatsappTenantsAll/')).json<{ id: number; tenantId: number }[]>();
    expect(all).toContainEqual(expect.objectContaining({ id: channel.id, tenantId: tenant }));

    expect((await t.call(superadmin, 'GET', `/whatsappTenants/${channel.id}`)).json()).toMatchObject({
      id: channel.id,
      tenantId: tenant,
    });
    // The echoed tenantId is ignored: the channel stays where it is.
    const edited = await t.call(
      superadmin,
      'PUT',
      `/whatsappTenants/${channel.id}`,
      body({ name: 'Matriz', tenantId: 1 }),
    );
    expect(edited.json()).toMatchObject({ id: channel.id, tenantId: tenant, name: 'Matriz' });

    expect((await t.call(superadmin, 'DELETE', `/whatsappTenants/${channel.id}`)).statusCode).toBe(204);
    expect((await t.call(admin, 'GET', '/whatsapp')).json()).toEqual([]);
    expect((await t.call(superadmin, 'GET', `/whatsappTenants/${channel.id}`)).json()).toEqual({
      error: 'ERR_NO_WAPP_FOUND',
    });
  });

  it('applies the tenant rules: unknown tenant, missing token, no tenant named', async () => {
    expect((await t.call(superadmin, 'POST', '/whatsappTenants', body({ tenantId: 999_999 }))).json()).toEqual({
      error: 'ERR_NO_TENANT_FOUND',
    });
    const noToken = await t.call(superadmin, 'POST', '/whatsappTenants', {
      name: 'Sem token',
      type: 'telegram',
      tenantId: tenant,
    });
    expect(noToken.json()).toMatchObject({ error: 'ERR_TELEGRAM_TOKEN_REQUIRED' });
    expect((await t.call(superadmin, 'POST', '/whatsappTenants', body())).statusCode).toBe(400);
  });

  it('refuses everyone but the superadmin', async () => {
    const channel = (
      await t.call(superadmin, 'POST', '/whatsappTenants', body({ tenantId: tenant }))
    ).json<ChannelDto>();
    for (const [method, path, payload] of [
      ['POST', '/whatsappTenants', body({ tenantId: tenant })],
      ['GET', `/whatsappTenants/${channel.id}`, undefined],
      ['PUT', `/whatsappTenants/${channel.id}`, body()],
      ['DELETE', `/whatsappTenants/${channel.id}`, undefined],
    ] as const) {
      const res = await t.call(admin, method, path, payload);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
    }
    expect((await t.call(admin, 'GET', '/whatsapp')).json<ChannelDto[]>()).toHaveLength(1);
  });
});
