/** /api/tags (client-contract §8): every profile lists; supervisors and admins manage; the contact check on delete. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TAG_COLOR_MESSAGE, type ContactDto, type TagDto, type TicketListResponse } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeTicket } from '../../test/ticket-fixtures.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent, supervisor } = await t.createStaff());
});
afterAll(() => t.close());

const createTag = async (body: object, user: TestUser = admin) => {
  const res = await t.call(user, 'POST', '/tags', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TagDto>();
};

describe('tags', () => {
  it('creates (trimmed, colour lower-cased, default colour), lists as a bare array by name, filters by isActive', async () => {
    const vip = await createTag({ tag: ' VIP ', color: '#FF0000', isActive: true }, supervisor);
    expect(vip).toEqual({ id: expect.any(Number), tag: 'VIP', color: '#ff0000', isActive: true });
    const antigo = await createTag({ tag: 'Antigo', isActive: 'false' });
    expect(antigo).toEqual({ id: expect.any(Number), tag: 'Antigo', color: '#1976d2', isActive: false });
    for (const user of [admin, supervisor, agent]) {
      expect((await t.call(user, 'GET', '/tags/')).json()).toEqual([antigo, vip]);
    }
    expect((await t.call(agent, 'GET', '/tags/?isActive=null')).json()).toEqual([antigo, vip]);
    expect((await t.call(agent, 'GET', '/tags/?isActive=')).json()).toEqual([antigo, vip]);
    expect((await t.call(agent, 'GET', '/tags/?isActive=true')).json()).toEqual([vip]);
    expect((await t.call(agent, 'GET', '/tags/?isActive=false')).json()).toEqual([antigo]);
    const bad = await t.call(agent, 'GET', '/tags/?isActive=maybe');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'isActive' });
    await t.call(admin, 'DELETE', `/tags/${vip.id}`);
    await t.call(admin, 'DELETE', `/tags/${antigo.id}`);
  });

  it('validates name and colour, refuses a duplicate name in any case (ERR_TAG_EXISTS) and stores nothing', async () => {
    const suporte = await createTag({ tag: 'Suporte', color: '#00aa00' });
    for (const [body, field] of [
      [{ tag: '', color: '#000000' }, 'tag'],
      [{ color: '#000000' }, 'tag'],
      [{ tag: '   ' }, 'tag'],
      [{ tag: 'x'.repeat(61) }, 'tag'],
      [{ tag: 'Cor', color: 'red' }, 'color'],
      [{ tag: 'Cor', color: '#12345' }, 'color'],
      [{ tag: 'Cor', color: '#1234567' }, 'color'],
      [{ tag: 'Cor', color: '#gggggg' }, 'color'],
    ] as const) {
      const res = await t.call(admin, 'POST', '/tags', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
    const duplicate = await t.call(admin, 'POST', '/tags', { tag: ' SUPORTE ', color: '#000000' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ error: 'ERR_TAG_EXISTS' });
    const other = await createTag({ tag: 'Outra' });
    const onto = await t.call(supervisor, 'PUT', `/tags/${other.id}`, { tag: 'suporte' });
    expect(onto.statusCode).toBe(409);
    expect(onto.json()).toEqual({ error: 'ERR_TAG_EXISTS' });
    expect((await t.call(admin, 'GET', '/tags')).json()).toEqual([other, suporte]);
    await t.call(admin, 'DELETE', `/tags/${suporte.id}`);
    await t.call(admin, 'DELETE', `/tags/${other.id}`);
  });

  it('an invalid colour is refused on create and edit (400, field color, a clear message), never replaced', async () => {
    const tag = await createTag({ tag: 'Paleta', color: '#123456' });
    for (const color of ['red', '#fff', '#12345', 'rgb(1,2,3)', '', '   ', null, 123]) {
      for (const [method, path] of [
        ['POST', '/tags'],
        ['PUT', `/tags/${tag.id}`],
      ] as const) {
        const res = await t.call(admin, method, path, { tag: method === 'POST' ? 'Nova' : 'Paleta', color });
        expect(res.statusCode, `${method} ${JSON.stringify(color)}`).toBe(400);
        expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'color' });
      }
    }
    const refused = await t.call(admin, 'PUT', `/tags/${tag.id}`, { tag: 'Paleta', color: 'azul' });
    expect(refused.json<{ message: string }>().message).toBe(TAG_COLOR_MESSAGE);
    const tags = (await t.call(admin, 'GET', '/tags')).json<TagDto[]>();
    expect(tags.find((row) => row.id === tag.id)?.color).toBe('#123456');
    expect(tags.some((row) => row.tag === 'Nova')).toBe(false);
    await t.call(admin, 'DELETE', `/tags/${tag.id}`);
  });

  it('updates (echoed whole objects), answers ERR_NO_TAG_FOUND, refuses agents with ERR_NO_PERMISSION', async () => {
    const tag = await createTag({ tag: 'Lead', color: '#123456' });
    const res = await t.call(supervisor, 'PUT', `/tags/${tag.id}/`, {
      ...tag,
      id: 999,
      tag: 'Lead quente',
      isActive: 'false',
    });
    expect(res.json()).toEqual({ id: tag.id, tag: 'Lead quente', color: '#123456', isActive: false });
    const recoloured = await t.call(admin, 'PUT', `/tags/${tag.id}`, { tag: 'Lead quente', color: '#ABCDEF' });
    expect(recoloured.json()).toEqual({ id: tag.id, tag: 'Lead quente', color: '#abcdef', isActive: false });
    for (const [method, path] of [
      ['PUT', '/tags/999999'],
      ['DELETE', '/tags/999999'],
    ] as const) {
      const missing = await t.call(admin, method, path, method === 'PUT' ? { tag: 'Z' } : undefined);
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ error: 'ERR_NO_TAG_FOUND' });
    }
    for (const [method, path, body] of [
      ['POST', '/tags', { tag: 'Agente' }],
      ['PUT', `/tags/${tag.id}`, { tag: 'Agente' }],
      ['DELETE', `/tags/${tag.id}`, undefined],
    ] as const) {
      const refused = await t.call(agent, method, path, body);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect((await t.call(agent, 'GET', '/tags')).json()).toEqual([
      { id: tag.id, tag: 'Lead quente', color: '#abcdef', isActive: false },
    ]);
    await t.call(admin, 'DELETE', `/tags/${tag.id}`);
  });

  it('refuses to delete a tag while a contact carries it (409 ERR_TAG_CONTACTS_EXISTS), deletes it once freed', async () => {
    const tag = await createTag({ tag: 'Cliente', color: '#112233' });
    const contact = (
      await t.call(admin, 'POST', '/contacts', { name: 'Maria', number: '5511988887777' })
    ).json<ContactDto>();
    const tagged = await t.call(agent, 'PUT', `/contact-tags/${contact.id}`, { tags: [tag.id] });
    expect(tagged.json<ContactDto>().tags).toEqual([{ id: tag.id, tag: 'Cliente', color: '#112233' }]);
    const refused = await t.call(admin, 'DELETE', `/tags/${tag.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'ERR_TAG_CONTACTS_EXISTS' });
    // A rename shows on the contact (contacts read their tags by id).
    await t.call(admin, 'PUT', `/tags/${tag.id}`, { tag: 'Cliente fiel', color: '#112233' });
    expect((await t.call(agent, 'GET', `/contacts/${contact.id}`)).json<ContactDto>().tags).toEqual([
      { id: tag.id, tag: 'Cliente fiel', color: '#112233' },
    ]);
    await t.call(agent, 'PUT', `/contact-tags/${contact.id}`, { tags: [] });
    expect((await t.call(admin, 'DELETE', `/tags/${tag.id}`)).statusCode).toBe(204);
    expect((await t.call(admin, 'GET', '/tags')).json()).toEqual([]);
  });

  it('a ticket carries its contact’s tags: applied, renamed and removed on the contact, seen on the ticket list', async () => {
    const channelId = await makeChannel(t, 1);
    const tagged = await makeContact(t, 1, { name: 'Com etiqueta' });
    const plain = await makeContact(t, 1, { name: 'Sem etiqueta' });
    const ticketOf = new Map<number, number>();
    for (const contactId of [tagged, plain]) {
      ticketOf.set(contactId, await makeTicket(t, 1, { contactId, channelId, status: 'open', userId: admin.id }));
    }
    const tag = await createTag({ tag: 'Prioridade', color: '#ff8800' });
    await t.call(admin, 'PUT', `/contact-tags/${tagged}`, { tags: [tag.id] });
    const tagsOnTickets = async () => {
      const list = (await t.call(admin, 'GET', '/tickets?status=open&showAll=true')).json<TicketListResponse>();
      return [tagged, plain].map((contactId) => list.tickets.find((row) => row.id === ticketOf.get(contactId))?.tags);
    };
    expect(await tagsOnTickets()).toEqual([[{ id: tag.id, tag: 'Prioridade', color: '#ff8800' }], []]);
    await t.call(admin, 'PUT', `/tags/${tag.id}`, { tag: 'Urgente', color: '#ff0000' });
    expect(await tagsOnTickets()).toEqual([[{ id: tag.id, tag: 'Urgente', color: '#ff0000' }], []]);
    await t.call(admin, 'PUT', `/contact-tags/${tagged}`, { tags: [] });
    expect(await tagsOnTickets()).toEqual([[], []]);
    await t.call(admin, 'DELETE', `/tags/${tag.id}`);
  });

  it('publishes {T}:tag to the tenant after each change, nothing for a refused one', async () => {
    const publish = vi.spyOn(t.platform.realtime, 'publish');
    try {
      const tag = await createTag({ tag: 'Ao vivo', color: '#000000' });
      await t.call(admin, 'PUT', `/tags/${tag.id}`, { tag: 'Ao vivo 2', color: '#ffffff' });
      await t.call(admin, 'POST', '/tags', { tag: 'ao vivo 2' });
      await t.call(agent, 'DELETE', `/tags/${tag.id}`);
      await t.call(admin, 'DELETE', `/tags/${tag.id}`);
      const updated = { id: tag.id, tag: 'Ao vivo 2', color: '#ffffff', isActive: true };
      expect(publish.mock.calls.filter(([, event]) => event === '1:tag')).toEqual([
        ['tenant:1', '1:tag', { action: 'create', tag }],
        ['tenant:1', '1:tag', { action: 'update', tag: updated }],
        ['tenant:1', '1:tag', { action: 'delete', tag: updated }],
      ]);
    } finally {
      publish.mockRestore();
    }
  });
});
