/** GET /api/contacts/duplicates (ninth digit) and POST /api/contacts/merge. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { tags } from './contacts.tables.js';

let t: TestApp;
let tenant: number;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant();
  admin = await t.createUser({ tenantId: tenant, profile: 'admin', name: 'Admin' });
  agent = await t.createUser({ tenantId: tenant, name: 'Agente' });
});
afterAll(async () => t.close());

const call: TestApp['call'] = (...args) => t.call(...args);
const create = async (body: Record<string, unknown>) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/contacts', headers: admin.auth, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ContactDto>();
};

describe('duplicates and merge', () => {
  let withNine: ContactDto;
  let withoutNine: ContactDto;
  let tagA: number;
  let tagB: number;

  beforeAll(async () => {
    [tagA, tagB] = await withTenant(t.platform.db, systemContext(tenant), async (tx) => {
      const rows = await tx
        .insert(tags)
        .values([
          { tenantId: tenant, tag: 'A' },
          { tenantId: tenant, tag: 'B' },
        ])
        .returning();
      return [rows[0]!.id, rows[1]!.id];
    });
    withNine = await create({
      name: 'Com Nove',
      number: '5511912345678',
      tags: [tagA],
      wallets: [admin.id],
      extraInfo: [{ name: 'Origem', value: 'site' }],
    });
    withoutNine = await create({
      name: 'Sem Nove',
      number: '551112345678',
      email: 'sem@example.com',
      cpf: '529.982.247-25',
      birthdayDate: '1980-02-29',
      tags: [tagA, tagB],
      wallets: [agent.id],
      extraInfo: [
        { name: 'Origem', value: 'loja' },
        { name: 'Cidade', value: 'São Paulo' },
      ],
    });
    await create({ name: 'Outro DDD', number: '5521912345678' });
    await create({ name: 'Estrangeiro', number: '+1 202 555 0143' });
  });

  it('groups the numbers that differ only by the ninth digit', async () => {
    const res = await call(admin, 'GET', '/contacts/duplicates');
    expect(res.statusCode, res.body).toBe(200);
    const { groups } = res.json<{ groups: { key: string; contacts: ContactDto[] }[] }>();
    expect(groups).toHaveLength(1);
    expect(groups[0]!.key).toBe('551112345678');
    expect(groups[0]!.contacts.map((c) => c.id)).toEqual([withNine.id, withoutNine.id]);
    expect(groups[0]!.contacts[1]).toMatchObject({ tags: [{ tag: 'A' }, { tag: 'B' }] });
  });

  it('is for admin and super: agents get 403 and nothing changes', async () => {
    expect((await call(agent, 'GET', '/contacts/duplicates')).statusCode).toBe(403);
    const res = await call(agent, 'POST', '/contacts/merge', { targetId: withNine.id, sourceIds: [withoutNine.id] });
    expect(res.statusCode).toBe(403);
    expect((await call(admin, 'GET', `/contacts/${withoutNine.id}`)).statusCode).toBe(200);
  });

  it('refuses unknown ids (404) and the target among the sources (400), changing nothing', async () => {
    const unknown = await call(admin, 'POST', '/contacts/merge', { targetId: withNine.id, sourceIds: [999999] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    const unknownTarget = await call(admin, 'POST', '/contacts/merge', { targetId: 999999, sourceIds: [withNine.id] });
    expect(unknownTarget.statusCode).toBe(404);
    const self = await call(admin, 'POST', '/contacts/merge', { targetId: withNine.id, sourceIds: [withNine.id] });
    expect(self.statusCode).toBe(400);
    expect(self.json()).toEqual({ error: 'ERR_VALIDATION', field: 'sourceIds' });
    expect((await call(admin, 'GET', `/contacts/${withNine.id}`)).json()).toEqual(withNine);
  });

  it('keeps the target, unions tags and wallets, fills its empty fields, merges extra info, deletes the sources', async () => {
    const res = await call(admin, 'POST', '/contacts/merge', { targetId: withNine.id, sourceIds: [withoutNine.id] });
    expect(res.statusCode, res.body).toBe(200);
    const merged = res.json<ContactDto>();
    expect(merged).toMatchObject({
      id: withNine.id,
      name: 'Com Nove',
      number: '5511912345678',
      email: 'sem@example.com',
      cpf: '529.982.247-25',
      birthdayDate: '1980-02-29',
      tags: [
        { id: tagA, tag: 'A' },
        { id: tagB, tag: 'B' },
      ],
      wallets: [
        { id: admin.id, name: 'Admin' },
        { id: agent.id, name: 'Agente' },
      ],
      extraInfo: [
        { name: 'Origem', value: 'site' },
        { name: 'Cidade', value: 'São Paulo' },
      ],
    });
    expect((await call(admin, 'GET', `/contacts/${withNine.id}`)).json()).toEqual(merged);
    expect((await call(admin, 'GET', `/contacts/${withoutNine.id}`)).statusCode).toBe(404);
    expect((await call(admin, 'GET', '/contacts/duplicates')).json()).toEqual({ groups: [] });
  });

  it('lets the target take over a source number when it has none', async () => {
    const target = await create({ name: 'Só Telegram', telegramId: 'tg-merge' });
    const source = await create({ name: 'Só Número', number: '5531987654321', messengerId: 'm-1' });
    const res = await call(admin, 'POST', '/contacts/merge', { targetId: target.id, sourceIds: [source.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ number: '5531987654321', telegramId: 'tg-merge', messengerId: 'm-1' });
  });
});
