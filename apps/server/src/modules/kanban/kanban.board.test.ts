/**
 * The boards: a lane's or a tag's column page by page (keyset), the contract's /contactsKanban and /contactsTags,
 * moving a card between lanes (PUT /contacts/{id} { kanban }) and between tags (POST /contacts/{id}/move-tag).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ColumnPage, ContactDto, KanbanCard, LaneDto } from '@conversa/shared';
import { sql } from 'drizzle-orm';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { contacts, contactTags, tags } from '../contacts/contacts.tables.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent } = await t.createStaff());
});
afterAll(() => t.close());

const lane = async (name: string) => (await t.call(admin, 'POST', '/kanban', { name })).json<LaneDto>();

async function insertContacts(rows: { name: string; kanban?: number | null; number?: string }[]) {
  return withTenant(t.platform.db, systemContext(1), async (tx) =>
    (
      await tx
        .insert(contacts)
        .values(rows.map((r) => ({ tenantId: 1, ...r })))
        .returning({ id: contacts.id })
    ).map((r) => r.id),
  );
}

async function insertTag(tag: string, contactIds: number[] = []): Promise<number> {
  return withTenant(t.platform.db, systemContext(1), async (tx) => {
    const [row] = await tx.insert(tags).values({ tenantId: 1, tag, color: '#123456' }).returning();
    if (contactIds.length > 0) {
      await tx.insert(contactTags).values(contactIds.map((contactId) => ({ tenantId: 1, contactId, tagId: row!.id })));
    }
    return row!.id;
  });
}

async function allPages(path: string, limit: number): Promise<{ pages: ColumnPage[]; names: string[] }> {
  const pages: ColumnPage[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `?limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const res = await t.call(agent, 'GET', `${path}${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<ColumnPage>();
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor);
  return { pages, names: pages.flatMap((p) => p.contacts.map((c) => c.name)) };
}

describe('kanban boards', () => {
  it('pages a lane by name across pages (equal names kept apart by id), and the contacts in no lane', async () => {
    const sales = await lane('Vendas');
    await insertContacts([
      { name: 'Carla', kanban: sales.id },
      { name: 'Ana', kanban: sales.id },
      { name: 'Bia', kanban: sales.id },
      { name: 'Bia', kanban: sales.id },
      { name: 'Davi', kanban: sales.id },
      { name: 'Sem coluna', kanban: null },
    ]);
    const { pages, names } = await allPages(`/kanban/${sales.id}/contacts`, 2);
    expect(names).toEqual(['Ana', 'Bia', 'Bia', 'Carla', 'Davi']);
    expect(pages.map((p) => p.hasMore)).toEqual([true, true, false]);
    expect(pages[0]!.contacts[0]).toEqual({
      id: expect.any(Number),
      name: 'Ana',
      pushname: null,
      number: null,
      profilePicUrl: null,
      isGroup: false,
      kanban: sales.id,
    } satisfies KanbanCard);
    const none = await allPages('/kanban/none/contacts', 40);
    expect(none.names).toContain('Sem coluna');
    expect(none.names).not.toContain('Ana');
    const search = (await t.call(agent, 'GET', `/kanban/${sales.id}/contacts?searchParam=bi`)).json<ColumnPage>();
    expect(search.contacts.map((c) => c.name)).toEqual(['Bia', 'Bia']);
  });

  it('refuses a bad cursor and a bad limit with ERR_VALIDATION', async () => {
    const l = await lane('Cursor');
    for (const query of [
      'cursor=abc',
      `cursor=${Buffer.from('[1,2]').toString('base64url')}`,
      'limit=0',
      'limit=101',
    ]) {
      const res = await t.call(agent, 'GET', `/kanban/${l.id}/contacts?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const tag = await insertTag('Cursor');
    const res = await t.call(agent, 'GET', `/kanban-tags/${tag}/contacts?cursor=-1`);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'cursor' });
    expect((await t.call(agent, 'GET', '/kanban/999999/contacts')).json()).toEqual({ error: 'ERR_NO_LANE_FOUND' });
    expect((await t.call(agent, 'GET', '/kanban-tags/999999/contacts')).json()).toEqual({ error: 'ERR_NO_TAG_FOUND' });
  });

  it('a lane of 10,000 contacts answers its first page with hasMore, and the page after it', async () => {
    const big = await lane('Grande');
    await withTenant(t.platform.db, systemContext(1), (tx) =>
      tx.execute(sql`insert into contacts (tenant_id, name, kanban)
        select 1, 'Cliente ' || lpad(g::text, 5, '0'), ${big.id} from generate_series(1, 10000) g`),
    );
    const first = (await t.call(agent, 'GET', `/kanban/${big.id}/contacts`)).json<ColumnPage>();
    expect(first.contacts).toHaveLength(40);
    expect(first.hasMore).toBe(true);
    expect(first.contacts[0]!.name).toBe('Cliente 00001');
    const second = (
      await t.call(agent, 'GET', `/kanban/${big.id}/contacts?cursor=${encodeURIComponent(first.nextCursor!)}`)
    ).json<ColumnPage>();
    expect(second.contacts.map((c) => c.name).slice(0, 2)).toEqual(['Cliente 00041', 'Cliente 00042']);
  });

  it('pages a tag column by contact id', async () => {
    const ids = await insertContacts([{ name: 'T1' }, { name: 'T2' }, { name: 'T3' }]);
    const tag = await insertTag('Quente', ids);
    const { pages, names } = await allPages(`/kanban-tags/${tag}/contacts`, 2);
    expect(names).toEqual(['T1', 'T2', 'T3']);
    expect(pages.map((p) => p.hasMore)).toEqual([true, false]);
    // A page that ends exactly at the column's end says there is no more.
    const exact = await allPages(`/kanban-tags/${tag}/contacts`, 3);
    expect(exact.pages.map((p) => [p.contacts.length, p.hasMore, p.nextCursor])).toEqual([[3, false, null]]);
  });

  it('moves a card between lanes with PUT /contacts/{id} { kanban }: stored, validated, pushed live', async () => {
    const from = await lane('De');
    const to = await lane('Para');
    const [id] = await insertContacts([{ name: 'Movido', kanban: from.id, number: '5511999990001' }]);
    const publish = vi.spyOn(t.platform.realtime, 'publish');
    try {
      const res = await t.call(agent, 'PUT', `/contacts/${id}`, { number: '5511999990001', kanban: to.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<ContactDto>().kanban).toBe(to.id);
      await vi.waitFor(() =>
        expect(publish).toHaveBeenCalledWith('tenant:1', '1:contactList', {
          type: 'contact:update',
          payload: expect.objectContaining({ id, kanban: to.id }),
        }),
      );
    } finally {
      publish.mockRestore();
    }
    expect(
      (await t.call(agent, 'GET', `/kanban/${to.id}/contacts`)).json<ColumnPage>().contacts.map((c) => c.id),
    ).toEqual([id]);
    const missing = await t.call(agent, 'PUT', `/contacts/${id}`, { kanban: 999999 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'ERR_NO_LANE_FOUND' });
    expect((await t.call(agent, 'PUT', `/contacts/${id}`, { kanban: 'x' })).statusCode).toBe(400);
    expect((await t.call(agent, 'GET', `/contacts/${id}`)).json<ContactDto>().kanban).toBe(to.id);
    const out = await t.call(agent, 'PUT', `/contacts/${id}`, { kanban: null });
    expect(out.json<ContactDto>().kanban).toBeNull();
  });

  it('moves a card between tags in one transaction; validates the tags and the contact', async () => {
    const [id] = await insertContacts([{ name: 'Etiquetado' }]);
    const cold = await insertTag('Frio', [id!]);
    const warm = await insertTag('Morno');
    const keep = await insertTag('Fica', [id!]);
    const publish = vi.spyOn(t.platform.realtime, 'publish');
    try {
      const res = await t.call(agent, 'POST', `/contacts/${id}/move-tag`, { from: cold, to: warm });
      expect(res.statusCode, res.body).toBe(200);
      expect(
        res
          .json<ContactDto>()
          .tags.map((tag) => tag.id)
          .sort(),
      ).toEqual([warm, keep].sort());
      await vi.waitFor(() =>
        expect(publish).toHaveBeenCalledWith('tenant:1', '1:contactList', {
          type: 'contact:update',
          payload: expect.objectContaining({ id }),
        }),
      );
    } finally {
      publish.mockRestore();
    }
    for (const [body, error, status] of [
      [{ from: warm, to: 999999 }, 'ERR_NO_TAG_FOUND', 404],
      [{ from: 999999, to: cold }, 'ERR_NO_TAG_FOUND', 404],
      [{ from: warm }, 'ERR_VALIDATION', 400],
    ] as const) {
      const bad = await t.call(agent, 'POST', `/contacts/${id}/move-tag`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(status);
      expect(bad.json()).toMatchObject({ error });
    }
    const noContact = await t.call(agent, 'POST', '/contacts/999999/move-tag', { from: warm, to: cold });
    expect(noContact.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    // Nothing changed by the refused moves.
    const after = (await t.call(agent, 'GET', `/contacts/${id}`)).json<ContactDto>();
    expect(after.tags.map((tag) => tag.id).sort()).toEqual([warm, keep].sort());
  });

  it('answers the contract boards: /contactsKanban (cards) and /contactsTags (cards with tags), 40 a page', async () => {
    const res = await t.call(agent, 'GET', '/contactsKanban/?pageNumber=1&searchParam=');
    expect(res.statusCode).toBe(200);
    const page = res.json<{ contacts: KanbanCard[]; hasMore: boolean }>();
    expect(page.contacts).toHaveLength(40);
    expect(page.hasMore).toBe(true);
    expect(Object.keys(page.contacts[0]!).sort()).toEqual(
      ['id', 'isGroup', 'kanban', 'name', 'number', 'profilePicUrl', 'pushname'].sort(),
    );
    const tagged = (await t.call(agent, 'GET', '/contactsTags/?pageNumber=1&searchParam=etiquetado')).json<{
      contacts: (KanbanCard & { tags: { tag: string }[] })[];
    }>();
    expect(tagged.contacts.map((c) => [c.name, c.tags.map((tag) => tag.tag).sort()])).toEqual([
      ['Etiquetado', ['Fica', 'Morno']],
    ]);
  });
});
