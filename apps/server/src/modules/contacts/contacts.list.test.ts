/** GET /api/contacts (search, filters, paging, bounded count) and the tag and wallet set routes. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactDto } from '@conversa/shared';
import { queryRows } from '../../platform/db/client.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { tags } from './contacts.tables.js';

let t: TestApp;
let tenant: number;
let agent: TestUser;
let owner: TestUser;

interface ListBody {
  contacts: ContactDto[];
  count: number;
  countCapped: boolean;
  hasMore: boolean;
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant();
  agent = await t.createUser({ tenantId: tenant, name: 'Agente' });
  owner = await t.createUser({ tenantId: tenant, name: 'Dona da Carteira' });
});
afterAll(async () => t.close());

const call: TestApp['call'] = (...args) => t.call(...args);
const list = async (query: string, user = agent) => {
  const res = await call(user, 'GET', `/contacts/?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ListBody>();
};
const create = async (body: Record<string, unknown>) => {
  const res = await call(agent, 'POST', '/contacts', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ContactDto>();
};
const createTag = (tenantId: number, tag: string) =>
  withTenant(t.platform.db, systemContext(tenantId), async (tx) => {
    const [row] = await tx.insert(tags).values({ tenantId, tag, color: '#00ff00' }).returning();
    return row!.id;
  });

describe('GET /api/contacts search and filters', () => {
  let ana: ContactDto;
  let joao: ContactDto;
  let tagId: number;

  beforeAll(async () => {
    tagId = await createTag(tenant, 'Cliente');
    ana = await create({ name: 'ÂNGELA Müller', number: '5511912345001', email: 'angela@empresa.com.br' });
    joao = await create({ name: 'João Conceição', number: '5521987650002', tags: [tagId], wallets: [owner.id] });
    await create({ name: 'Zeca', number: '5531987650003', email: 'zeca@outro.com' });
  });

  it('matches names case- and accent-insensitively, both ways', async () => {
    for (const term of ['angela', 'ÁNGELA', 'muller', 'MÜLL']) {
      expect((await list(`searchParam=${encodeURIComponent(term)}`)).contacts.map((c) => c.id)).toEqual([ana.id]);
    }
    for (const term of ['joao', 'conceicao', 'CONCEIÇÃO', 'joão']) {
      expect((await list(`searchParam=${encodeURIComponent(term)}`)).contacts.map((c) => c.id)).toEqual([joao.id]);
    }
  });

  it('matches number digits (however typed) and e-mail', async () => {
    expect((await list('searchParam=98765')).contacts.map((c) => c.name)).toEqual(['João Conceição', 'Zeca']);
    expect((await list(`searchParam=${encodeURIComponent('(21) 98765')}`)).contacts.map((c) => c.id)).toEqual([
      joao.id,
    ]);
    expect((await list('searchParam=EMPRESA.com')).contacts.map((c) => c.id)).toEqual([ana.id]);
    expect((await list('searchParam=100%25')).contacts).toEqual([]);
  });

  it('filters by wallet and by tag, and answers the §20.4 shape', async () => {
    const byWallet = await list(`walletId=${owner.id}`);
    expect(byWallet.contacts.map((c) => c.id)).toEqual([joao.id]);
    expect(byWallet.contacts[0]).toMatchObject({
      tags: [{ id: tagId, tag: 'Cliente', color: '#00ff00' }],
      wallets: [{ id: owner.id, name: 'Dona da Carteira' }],
    });
    expect((await list(`tagId=${tagId}`)).contacts.map((c) => c.id)).toEqual([joao.id]);
    expect((await list(`tagId=${tagId}&walletId=${agent.id}`)).contacts).toEqual([]);
  });
});

describe('search keys (contact_search_keys) follow the contact', () => {
  const ids = async (term: string) =>
    (await list(`searchParam=${encodeURIComponent(term)}`)).contacts.map((c) => c.id).sort((a, b) => a - b);
  const keyRows = async (contactId: number) => {
    const [row] = await withTenant(t.platform.db, systemContext(tenant), (tx) =>
      queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from contact_search_keys where contact_id = ${contactId}`,
      ),
    );
    return row!.n;
  };

  it('finds any substring, also past a key’s length, and forgets old values after an edit or a delete', async () => {
    const oliveira = await create({ name: 'Maria Aparecida dos Santos Oliveira', number: '5511955550101' });
    const pereira = await create({ name: 'Maria Aparecida dos Santos Pereira', email: 'mapereira@exemplo.com' });
    expect(await ids('ecida dos sa')).toEqual([oliveira.id, pereira.id]);
    // 29 characters: longer than a key (SEARCH_KEY_LENGTH), the contact's own name decides.
    expect(await ids('aparecida dos santos oliveira')).toEqual([oliveira.id]);
    expect(await ids('aparecida dos santos pereira')).toEqual([pereira.id]);
    expect(await ids('955550')).toEqual([oliveira.id]);
    expect(await ids('pereira@exem')).toEqual([pereira.id]);

    const edited = await call(agent, 'PUT', `/contacts/${oliveira.id}`, {
      name: 'Maria Aparecida Brandão',
      number: '5511944440101',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await ids('oliveira')).toEqual([]);
    expect(await ids('955550')).toEqual([]);
    expect(await ids('brandao')).toEqual([oliveira.id]);
    expect(await ids('944440')).toEqual([oliveira.id]);

    expect(await keyRows(pereira.id)).toBeGreaterThan(0);
    const admin = await t.createUser({ tenantId: tenant, profile: 'admin' });
    expect((await call(admin, 'DELETE', `/contacts/${pereira.id}`)).statusCode).toBe(204);
    expect(await keyRows(pereira.id)).toBe(0);
    expect(await ids('pereira')).toEqual([]);
  });
});

describe('GET /api/contacts paging and count', () => {
  it('orders by name then id, 40 a page or rowsPerPage, with count and hasMore', async () => {
    const other = await t.createTenant();
    const user = await t.createUser({ tenantId: other });
    await t.database.executeSql(
      `insert into contacts (tenant_id, name, number)
       select $1, 'Pessoa ' || lpad(g::text, 3, '0'), '55119' || lpad(g::text, 8, '0') from generate_series(1, 45) g`,
      [other],
    );
    const first = await list('', user);
    expect(first).toMatchObject({ count: 45, countCapped: false, hasMore: true });
    expect(first.contacts).toHaveLength(40);
    expect(first.contacts[0]?.name).toBe('Pessoa 001');
    const second = await list('pageNumber=2', user);
    expect(second.contacts.map((c) => c.name)).toEqual(['041', '042', '043', '044', '045'].map((n) => `Pessoa ${n}`));
    expect(second.hasMore).toBe(false);
    const small = await list('pageNumber=3&rowsPerPage=20', user);
    expect(small.contacts.map((c) => c.name)).toEqual([
      'Pessoa 041',
      'Pessoa 042',
      'Pessoa 043',
      'Pessoa 044',
      'Pessoa 045',
    ]);
    const bad = await call(user, 'GET', '/contacts?rowsPerPage=1000');
    expect(bad.statusCode).toBe(400);
  });

  it('counts at most 10,000 matches and says when it stopped', async () => {
    const big = await t.createTenant();
    const user = await t.createUser({ tenantId: big });
    await t.database.executeSql(
      `insert into contacts (tenant_id, name, number)
       select $1, 'Massa ' || g, '55219' || lpad(g::text, 8, '0') from generate_series(1, 10003) g`,
      [big],
    );
    const all = await list('', user);
    expect(all).toMatchObject({ count: 10_000, countCapped: true, hasMore: true });
    const some = await list('searchParam=Massa%20999', user);
    expect(some).toMatchObject({ count: 11, countCapped: false, hasMore: false });
  });
});

describe('PUT /api/contact-tags/:id and /api/contact-wallet/:id', () => {
  it('replaces the sets from ids or objects, and refuses ids of another tenant', async () => {
    const a = await createTag(tenant, 'A');
    const b = await createTag(tenant, 'B');
    const contact = await create({ name: 'Sets', number: '5511912345100', tags: [a], wallets: [agent.id] });

    const tagged = await call(agent, 'PUT', `/contact-tags/${contact.id}`, { tags: [{ id: b, tag: 'B' }, a] });
    expect(tagged.statusCode, tagged.body).toBe(200);
    expect(tagged.json<ContactDto>().tags.map((x) => x.id)).toEqual([a, b]);
    const untagged = await call(agent, 'PUT', `/contact-tags/${contact.id}/`, { tags: [] });
    expect(untagged.json<ContactDto>().tags).toEqual([]);

    const wallets = await call(agent, 'PUT', `/contact-wallet/${contact.id}`, { wallets: [owner.id, agent.id] });
    expect(wallets.statusCode, wallets.body).toBe(200);
    expect(wallets.json<ContactDto>().wallets).toEqual([
      { id: agent.id, name: 'Agente' },
      { id: owner.id, name: 'Dona da Carteira' },
    ]);

    const foreignTag = await createTag(1, 'Tenant 1 tag');
    const foreignUser = await t.createUser({ tenantId: 1 });
    const badTags = await call(agent, 'PUT', `/contact-tags/${contact.id}`, { tags: [b, foreignTag] });
    expect(badTags.statusCode).toBe(400);
    expect(badTags.json()).toEqual({ error: 'ERR_VALIDATION', field: 'tags' });
    const badWallets = await call(agent, 'PUT', `/contact-wallet/${contact.id}`, { wallets: [foreignUser.id] });
    expect(badWallets.statusCode).toBe(400);
    expect(badWallets.json()).toEqual({ error: 'ERR_VALIDATION', field: 'wallets' });
    const missing = await call(agent, 'PUT', `/contact-tags/${contact.id}`, { tags: ['x'] });
    expect(missing.statusCode).toBe(400);

    const after = (await call(agent, 'GET', `/contacts/${contact.id}`)).json<ContactDto>();
    expect(after.tags).toEqual([]);
    expect(after.wallets.map((w) => w.id)).toEqual([agent.id, owner.id]);
  });
});
