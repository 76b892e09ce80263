/**
 * Cross-tenant takeover attempts on the QR gateways (issue 22, item 1), through real HTTP on both sides (the
 * Evolution and Wuzapi simulators). Run on PostgreSQL too: TEST_DATABASE_URL=... npx vitest run <this file>.
 *
 * - Evolution, the installation's shared gateway (the superadmin gives companies A and B the same evoHost/evoToken):
 *   B names its channel like A's and starts it; B gets an instance of its own, never A's session, and nothing B's
 *   start does names A's instance. A's instance's events posted to B's URL (with B's secret, or with A's instance
 *   token) are refused and stored nowhere. Even a stored instance name equal to A's does not reach A's instance.
 * - Wuzapi: B types A's user token into its channel; its start is refused (409) before anything is asked of Wuzapi,
 *   so A's webhook and HMAC key stay A's. A's events carrying A's user id posted to B's URL are refused.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { startEvolutionSimulator, type EvolutionSimulator } from './providers/evolution/evolution.simulator.js';
import { wuzapiSignature } from './providers/wuzapi/wuzapi.adapter.js';
import { startWuzapiSimulator, type WuzapiSimulator } from './providers/wuzapi/wuzapi.simulator.js';

let t: TestApp;
let evo: EvolutionSimulator;
let wuz: WuzapiSimulator;
let adminA: TestUser;
let adminB: TestUser;

const sql = async <T>(text: string, params: unknown[] = []) => (await t.database.executeSql(text, params)).rows as T[];
const messagesOf = async (tenantId: number) =>
  Number((await sql<{ n: number }>('select count(*)::int as n from messages where tenant_id = $1', [tenantId]))[0]!.n);
const providerKeyOf = async (id: number) =>
  (await sql<{ key: string | null }>('select provider_key as key from channels where id = $1', [id]))[0]!.key;
const instanceOf = async (id: number) =>
  (
    await sql<{ state: Record<string, unknown> }>('select provider_state as state from channels where id = $1', [id])
  )[0]!.state.instanceName as string;
const text = (id: string) => ({
  key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id },
  pushName: 'Maria Souza',
  message: { conversation: 'mensagem da empresa A' },
  messageType: 'conversation',
  messageTimestamp: 1_763_700_000,
});
const deliver = (path: string, headers: Record<string, string>, payload: string | object) =>
  t.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', ...headers }, payload });

beforeAll(async () => {
  evo = await startEvolutionSimulator('installation-evolution-key', { exposeTokens: true });
  wuz = await startWuzapiSimulator();
  t = await createTestApp({ PUBLIC_URL: 'https://conversa.example' });
  ({ admin: adminA } = await t.createStaff());
  const tenantB = await t.createTenant();
  ({ admin: adminB } = await t.createStaff(tenantB));
  const root = await t.createUser({ tenantId: 1, profile: 'superadmin' });
  for (const tenantId of [adminA.tenantId, adminB.tenantId]) {
    const res = await t.call(root, 'PUT', `/tenantsEvolutionHost/${tenantId}`, {
      evoHost: evo.url,
      evoToken: evo.apiKey,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(async () => {
  await t.close();
  await evo.close();
  await wuz.close();
});

describe('Evolution: tenant B on the shared gateway names its channel like A and starts it', () => {
  let channelA: ChannelDto;
  let channelB: ChannelDto;
  let instanceA: string;
  let instanceB: string;

  it("A connects; B's start gets an instance of its own and never touches A's session", async () => {
    channelA = (await t.call(adminA, 'POST', '/whatsapp', { name: 'Loja Centro', type: 'evo' })).json<ChannelDto>();
    expect((await t.call(adminA, 'POST', `/whatsappsession/${channelA.id}`)).statusCode).toBe(200);
    instanceA = await instanceOf(channelA.id);
    const open = evo.open(instanceA, '5511900000001@s.whatsapp.net');
    expect((await deliver(open.path, open.headers, open.payload)).statusCode).toBe(200);
    expect((await t.call(adminA, 'GET', `/whatsapp/${channelA.id}`)).json()).toMatchObject({ status: 'CONNECTED' });

    evo.calls.splice(0);
    const created = await t.call(adminB, 'POST', '/whatsapp', { name: 'Loja Centro', type: 'evo' });
    expect(created.statusCode, created.body).toBe(201);
    channelB = created.json<ChannelDto>();
    expect(channelB.wabaId).toBe(channelA.wabaId);
    const started = await t.call(adminB, 'POST', `/whatsappsession/${channelB.id}`);
    expect(started.statusCode, started.body).toBe(200);
    // B waits for its own QR code: A's connected session is not B's.
    expect(started.json()).toMatchObject({ status: 'qrcode', number: null });
    instanceB = await instanceOf(channelB.id);
    expect(instanceB).toMatch(/^LojaCentro_[0-9a-f]{20}$/);
    expect(instanceB).not.toBe(instanceA);
    expect(evo.calls.filter((call) => call.instance === instanceA || call.body.instanceName === instanceA)).toEqual([]);
    expect(evo.instances.get(instanceA)!.webhook!.url).toBe(`https://conversa.example/api/webhooks/evo/${channelA.id}`);
    expect(await providerKeyOf(channelB.id)).not.toBe(await providerKeyOf(channelA.id));
    expect((await t.call(adminA, 'GET', `/whatsapp/${channelA.id}`)).json()).toMatchObject({ status: 'CONNECTED' });
  });

  it("refuses A's instance's events posted to B's URL, with B's secret or A's instance token, and stores nothing", async () => {
    const before = { a: await messagesOf(adminA.tenantId), b: await messagesOf(adminB.tenantId) };
    const fromA = evo.webhook(instanceA, 'messages.upsert', text('3A5FCROSS0001'));
    const secretB = evo.instances.get(instanceB)!.webhook!.headers;
    const toB = `/api/webhooks/evo/${channelB.id}`;
    const attempts = [
      // A's body (A's instance, A's instance token) with B's header secret.
      deliver(toB, secretB, fromA.payload),
      // The same with B's instance token: the instance is still A's.
      deliver(toB, secretB, { ...fromA.payload, apikey: evo.instances.get(instanceB)!.token }),
      // B's instance name with A's instance token.
      deliver(toB, secretB, { ...fromA.payload, instance: instanceB }),
      // A's own secret at B's URL.
      deliver(toB, fromA.headers, fromA.payload),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual({ error: 'ERR_WEBHOOK_UNAUTHORIZED' });
    }
    expect({ a: await messagesOf(adminA.tenantId), b: await messagesOf(adminB.tenantId) }).toEqual(before);
    // A's own webhook lands in A.
    expect((await deliver(fromA.path, fromA.headers, fromA.payload)).json()).toMatchObject({ received: 1 });
    expect(await messagesOf(adminA.tenantId)).toBe(before.a + 1);
    expect(await messagesOf(adminB.tenantId)).toBe(before.b);
  });

  it("does not reach A's instance even when B's stored instance name is A's", async () => {
    // As if B had chosen the name: a start on the shared gateway never connects an instance it did not create.
    await sql(`update channels set waba_id = $1, provider_state = '{}'::jsonb where id = $2`, [instanceA, channelB.id]);
    evo.calls.splice(0);
    const started = await t.call(adminB, 'POST', `/whatsappsession/${channelB.id}`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'qrcode' });
    expect(await instanceOf(channelB.id)).not.toBe(instanceA);
    expect(evo.calls.filter((call) => call.instance === instanceA || call.body.instanceName === instanceA)).toEqual([]);
    expect(evo.instances.get(instanceA)!.webhook!.url).toBe(`https://conversa.example/api/webhooks/evo/${channelA.id}`);
  });
});

describe("Wuzapi: tenant B types A's user token", () => {
  const TOKEN_A = 'EMPRESA-A-WUZAPI-TOKEN';
  let channelA: ChannelDto;
  let channelB: ChannelDto;

  it("B's start is refused before Wuzapi is asked anything: A's webhook and HMAC key stay A's", async () => {
    wuz.addUser(TOKEN_A);
    const meow = { type: 'meow', remotePath: wuz.url, tokenAPI: TOKEN_A };
    channelA = (await t.call(adminA, 'POST', '/whatsapp', { name: 'Wuz A', ...meow })).json<ChannelDto>();
    expect((await t.call(adminA, 'POST', `/whatsappsession/${channelA.id}`)).statusCode).toBe(200);
    const hookA = { ...wuz.users.get(TOKEN_A)! };
    channelB = (await t.call(adminB, 'POST', '/whatsapp', { name: 'Wuz B', ...meow })).json<ChannelDto>();
    const calls = wuz.calls.length;
    const refused = await t.call(adminB, 'POST', `/whatsappsession/${channelB.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: 'ERR_CHANNEL_IDENTITY_TAKEN' });
    expect(wuz.calls.length).toBe(calls);
    expect(wuz.users.get(TOKEN_A)).toMatchObject({ webhook: hookA.webhook, hmacKey: hookA.hmacKey });
    expect(await providerKeyOf(channelB.id)).toBeNull();
  });

  it("refuses A's user's events posted to B's URL under B's key; nothing is stored in B", async () => {
    const before = await messagesOf(adminB.tenantId);
    const [row] = await sql<{ secret: string }>('select webhook_secret as secret from channels where id = $1', [
      channelB.id,
    ]);
    const body = JSON.stringify({
      type: 'Message',
      userID: wuz.users.get(TOKEN_A)!.live.id,
      token: TOKEN_A,
      event: {
        Info: { Chat: '5511987650001@s.whatsapp.net', ID: crypto.randomUUID(), Timestamp: '2025-11-21T01:20:00Z' },
      },
    });
    const res = await deliver(
      `/api/webhooks/meow/${channelB.id}`,
      { 'x-hmac-signature': wuzapiSignature(body, row!.secret) },
      body,
    );
    // B holds no claim (and no user id): the webhook is B's secret but names A's user.
    expect(res.statusCode).toBe(401);
    expect(await messagesOf(adminB.tenantId)).toBe(before);
  });
});
