/** Contact CRUD through the API: create, read, edit (full and partial), delete, and every refusal. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContactDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { tags } from './contacts.tables.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent, supervisor } = await t.createStaff());
});
afterAll(async () => t.close());

const call: TestApp['call'] = (...args) => t.call(...args);

const createTag = (tenantId: number, tag: string) =>
  withTenant(t.platform.db, systemContext(tenantId), async (tx) => {
    const [row] = await tx.insert(tags).values({ tenantId, tag, color: '#ff0000' }).returning();
    return row!.id;
  });

const VALID_CPF = '529.982.247-25';
const VALID_CNPJ = '11.222.333/0001-81';

describe('POST /api/contacts', () => {
  it('creates a contact with a normalized number, tags and wallets', async () => {
    const tagId = await createTag(1, 'VIP');
    const res = await call(agent, 'POST', '/contacts', {
      name: 'João da Silva',
      number: '+55 (11) 98765-4321',
      email: 'Joao@Example.com',
      cpf: VALID_CPF,
      birthdayDate: '1990-05-17',
      extraInfo: [{ name: 'Plano', value: 'Ouro' }],
      tags: [tagId],
      wallets: [{ id: agent.id, name: 'ignored' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const contact = res.json<ContactDto>();
    expect(contact).toMatchObject({
      name: 'João da Silva',
      number: '5511987654321',
      email: 'joao@example.com',
      cpf: VALID_CPF,
      birthdayDate: '1990-05-17',
      isGroup: false,
      blocked: false,
      chatbotBlocked: false,
      kanban: null,
      extraInfo: [{ name: 'Plano', value: 'Ouro' }],
      tags: [{ id: tagId, tag: 'VIP', color: '#ff0000' }],
      wallets: [{ id: agent.id, name: 'Zé Agente' }],
    });
    const read = await call(agent, 'GET', `/contacts/${contact.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(contact);
  });

  it('accepts a CNPJ, no number at all, and international digits without +', async () => {
    const res = await call(agent, 'POST', '/contacts/', { name: 'Empresa', cpf: VALID_CNPJ, telegramId: 'tg-1' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ number: null, cpf: VALID_CNPJ, telegramId: 'tg-1' });
    const pt = await call(agent, 'POST', '/contacts', { name: 'Lisboa', number: '351912345678' });
    expect(pt.statusCode, pt.body).toBe(201);
    expect(pt.json()).toMatchObject({ number: '351912345678' });
  });

  it('refuses an invalid number with ERR_WAPP_INVALID_CONTACT on number', async () => {
    for (const number of ['123', 'abc', '+55 11 1']) {
      const res = await call(agent, 'POST', '/contacts', { name: 'Bad', number });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'ERR_WAPP_INVALID_CONTACT', field: 'number' });
    }
  });

  it('refuses a duplicate number, also when written differently, with 409 ERR_DUPLICATED_CONTACT', async () => {
    expect((await call(agent, 'POST', '/contacts', { name: 'First', number: '5511912340001' })).statusCode).toBe(201);
    for (const number of ['5511912340001', '+55 11 91234-0001', '(11) 91234-0001']) {
      const res = await call(agent, 'POST', '/contacts', { name: 'Second', number });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: 'ERR_DUPLICATED_CONTACT', field: 'number' });
    }
    const again = await call(agent, 'POST', '/contacts', { name: 'Other', telegramId: 'tg-1' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'ERR_DUPLICATED_CONTACT', field: 'telegramId' });
  });

  it('keeps one contact when the same number is created twice at once', async () => {
    const results = await Promise.all(
      [0, 1, 2].map(() => call(agent, 'POST', '/contacts', { name: 'Race', number: '5511912340777' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
  });

  it('refuses an invalid CPF/CNPJ, and tags or wallets of another tenant', async () => {
    const cpf = await call(agent, 'POST', '/contacts', { name: 'Cpf', number: '5511912340002', cpf: '123.456.789-00' });
    expect(cpf.statusCode).toBe(400);
    expect(cpf.json()).toEqual({ error: 'ERR_INVALID_CPF_CNPJ', field: 'cpf' });

    const tenant2 = await t.createTenant();
    const foreignTag = await createTag(tenant2, 'Alheia');
    const foreignUser = await t.createUser({ tenantId: tenant2 });
    const badTag = await call(agent, 'POST', '/contacts', { name: 'T', number: '5511912340003', tags: [foreignTag] });
    expect(badTag.statusCode).toBe(400);
    expect(badTag.json()).toEqual({ error: 'ERR_VALIDATION', field: 'tags' });
    const badWallet = await call(agent, 'POST', '/contacts', {
      name: 'W',
      number: '5511912340003',
      wallets: [foreignUser.id],
    });
    expect(badWallet.statusCode).toBe(400);
    expect(badWallet.json()).toEqual({ error: 'ERR_VALIDATION', field: 'wallets' });
    // Nothing was written by the refused calls.
    const { rows } = await t.database.executeSql(`select count(*)::int as n from contacts where number = $1`, [
      '5511912340003',
    ]);
    expect(rows[0]?.n).toBe(0);
  });

  it('validates the body: name required, e-mail and birthday format', async () => {
    const noName = await call(agent, 'POST', '/contacts', { number: '5511912340004' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'name' });
    const email = await call(agent, 'POST', '/contacts', { name: 'E', email: 'not-an-email' });
    expect(email.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'email' });
    const birthday = await call(agent, 'POST', '/contacts', { name: 'B', birthdayDate: '31/12/1990' });
    expect(birthday.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'birthdayDate' });
  });
});

describe('GET/PUT/DELETE /api/contacts/:id', () => {
  const create = async (number: string, extra: Record<string, unknown> = {}) => {
    const res = await call(agent, 'POST', '/contacts', { name: 'Editable', number, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ContactDto>();
  };

  it('answers 404 ERR_NO_CONTACT_FOUND for an unknown id', async () => {
    for (const res of [
      await call(agent, 'GET', '/contacts/999999'),
      await call(agent, 'PUT', '/contacts/999999', { name: 'X' }),
      await call(admin, 'DELETE', '/contacts/999999'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    }
  });

  it('applies a partial body ({ number, blocked }) and leaves the rest alone', async () => {
    const contact = await create('5511912340010', { email: 'keep@example.com', cpf: VALID_CPF });
    const res = await call(agent, 'PUT', `/contacts/${contact.id}`, { number: '5511912340010', blocked: 'true' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ...contact, blocked: true, updatedAt: expect.any(String) });
    const chatbot = await call(agent, 'PUT', `/contacts/${contact.id}/`, { chatbotBlocked: true });
    expect(chatbot.json()).toMatchObject({ blocked: true, chatbotBlocked: true, email: 'keep@example.com' });
  });

  it('applies a full body, clearing fields sent empty, and replaces tags and wallets', async () => {
    const tagId = await createTag(1, 'Full');
    const contact = await create('5511912340011', { email: 'old@example.com', tags: [tagId], wallets: [agent.id] });
    const res = await call(agent, 'PUT', `/contacts/${contact.id}`, {
      ...contact,
      name: 'Renamed',
      number: '+55 11 91234-0012',
      email: '',
      cpf: '',
      tags: [],
      wallets: [{ id: admin.id, name: 'Ana Admin' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Renamed',
      number: '5511912340012',
      email: '',
      cpf: null,
      tags: [],
      wallets: [{ id: admin.id, name: 'Ana Admin' }],
    });
  });

  it('refuses an edit to a taken number, an invalid number or CPF, and leaves the row unchanged', async () => {
    await create('5511912340020');
    const contact = await create('5511912340021');
    const cases: [Record<string, unknown>, number, Record<string, unknown>][] = [
      [{ number: '+55 (11) 91234-0020' }, 409, { error: 'ERR_DUPLICATED_CONTACT', field: 'number' }],
      [{ number: '99' }, 400, { error: 'ERR_WAPP_INVALID_CONTACT', field: 'number' }],
      [{ cpf: '111.111.111-11' }, 400, { error: 'ERR_INVALID_CPF_CNPJ', field: 'cpf' }],
      [{ name: '' }, 400, { error: 'ERR_VALIDATION', field: 'name' }],
    ];
    for (const [body, status, error] of cases) {
      const res = await call(agent, 'PUT', `/contacts/${contact.id}`, body);
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject(error);
    }
    expect((await call(agent, 'GET', `/contacts/${contact.id}`)).json()).toEqual(contact);
  });

  it('lets admin and super delete, not agents (403, contact kept)', async () => {
    const contact = await create('5511912340030');
    const refused = await call(agent, 'DELETE', `/contacts/${contact.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await call(agent, 'GET', `/contacts/${contact.id}`)).statusCode).toBe(200);

    const bySuper = await call(supervisor, 'DELETE', `/contacts/${contact.id}`);
    expect(bySuper.statusCode).toBe(204);
    expect((await call(agent, 'GET', `/contacts/${contact.id}`)).statusCode).toBe(404);
    const other = await create('5511912340031');
    expect((await call(admin, 'DELETE', `/contacts/${other.id}`)).statusCode).toBe(204);
    // The number is free again.
    expect((await call(agent, 'POST', '/contacts', { name: 'Back', number: '5511912340031' })).statusCode).toBe(201);
  });

  it('needs a login', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/contacts/' });
    expect(res.statusCode).toBe(401);
  });
});
