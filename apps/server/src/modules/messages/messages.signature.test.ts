/** The signature of an agent's text sends (client-contract §5.2): the user's switch, the tenant's force, no double prefix. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeTicket } from '../../test/ticket-fixtures.js';

let t: TestApp;
let ana: TestUser;
let ticketId: number;

async function setting(key: string, value: string) {
  await t.database.executeSql('update settings set value = $2 where tenant_id = 1 and key = $1', [key, value]);
}

async function send(body: object): Promise<string> {
  const res = await t.call(ana, 'POST', `/messages/${ticketId}`, body);
  expect(res.statusCode, res.body).toBe(200);
  const { rows } = await t.database.executeSql('select body from messages where id = $1', [res.json().id]);
  return rows[0]!.body as string;
}

beforeAll(async () => {
  t = await createTestApp();
  ana = await t.createUser({ tenantId: 1, profile: 'user', name: 'Ana' });
  const channelId = await makeChannel(t, 1);
  const contactId = await makeContact(t, 1);
  ticketId = await makeTicket(t, 1, { contactId, channelId, status: 'open', userId: ana.id });
});
afterAll(() => t.close());

describe('signature', () => {
  it('is off until the user turns it on (PUT /users/{id}/configs { signature })', async () => {
    expect(await send({ body: 'Sem assinatura' })).toBe('Sem assinatura');
    const res = await t.call(ana, 'PUT', `/users/${ana.id}/configs`, { signature: true });
    expect(res.json()).toMatchObject({ signature: true });
    expect(await send({ body: 'Olá' })).toBe('*Ana*:\n Olá');
    // The reference client signed it already: not twice.
    expect(await send({ body: '*Ana*:\n Já assinada' })).toBe('*Ana*:\n Já assinada');
    // System flows (farewell, rating, protocol...) name a sendType and are never signed.
    expect(await send({ body: 'Tchau', sendType: 'farewell' })).toBe('Tchau');
    await t.call(ana, 'PUT', `/users/${ana.id}/configs`, { signature: false });
    expect(await send({ body: 'De novo sem' })).toBe('De novo sem');
  });

  it('the tenant setting `signed` (or userDisableSignature) signs whatever the user chose', async () => {
    await setting('signed', 'enabled');
    expect(await send({ body: 'Forçada' })).toBe('*Ana*:\n Forçada');
    await setting('signed', 'disabled');
    await setting('userDisableSignature', 'enabled');
    expect(await send({ body: 'Forçada 2' })).toBe('*Ana*:\n Forçada 2');
    await setting('userDisableSignature', 'disabled');
    expect(await send({ body: 'Livre' })).toBe('Livre');
  });

  it('the tenant switch `agentSignature` turns every signature off, even a forced one', async () => {
    const admin = await t.createUser({ tenantId: 1, profile: 'admin' });
    await t.call(ana, 'PUT', `/users/${ana.id}/configs`, { signature: true });
    expect(await send({ body: 'Assinada' })).toBe('*Ana*:\n Assinada');
    const res = await t.call(admin, 'PUT', '/settings/agentSignature', { key: 'agentSignature', value: 'disabled' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await send({ body: 'Sem nome' })).toBe('Sem nome');
    await setting('signed', 'enabled');
    expect(await send({ body: 'Ainda sem' })).toBe('Ainda sem');
    await setting('signed', 'disabled');
    await t.call(admin, 'PUT', '/settings/agentSignature', { key: 'agentSignature', value: 'enabled' });
    expect(await send({ body: 'De volta' })).toBe('*Ana*:\n De volta');
  });
});
