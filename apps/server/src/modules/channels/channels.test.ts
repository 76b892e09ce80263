/** Channel CRUD and sessions through the API, against the local Telegram simulator. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChannelDto, ChannelSessionState } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { queues } from '../queues/queues.tables.js';
import { startTelegramSimulator, type TelegramSimulator } from './providers/telegram/telegram.simulator.js';

const TOKEN = '7000000001:AAH-first_bot_token_for_tests_00001';
const OTHER_TOKEN = '7000000002:AAH-second_bot_token_for_tests_0002';

let t: TestApp;
let sim: TelegramSimulator;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;

beforeAll(async () => {
  sim = await startTelegramSimulator();
  sim.bots.set(TOKEN, { id: 7000000001, username: 'loja_bot' });
  sim.bots.set(OTHER_TOKEN, { id: 7000000002, username: 'loja2_bot' });
  t = await createTestApp({ TELEGRAM_API_ROOT: sim.url, PUBLIC_URL: 'https://conversa.example' });
  ({ admin, agent, supervisor } = await t.createStaff());
});
afterAll(async () => {
  await t.close();
  await sim.close();
});
beforeEach(() => void sim.calls.splice(0));

const call: TestApp['call'] = (...args) => t.call(...args);
const telegram = (name: string, extra: object = {}) => ({ name, type: 'telegram', tokenTelegram: TOKEN, ...extra });

/** A bot of its own (one live channel per bot: a second channel of the same bot cannot connect). */
let bots = 0;
function ownBot(): string {
  bots += 1;
  const id = 7000000100 + bots;
  const token = `${id}:AAH-own_bot_token_for_tests_${String(bots).padStart(5, '0')}`;
  sim.bots.set(token, { id, username: 'loja_bot' });
  return token;
}

async function createChannel(name: string, extra: object = {}, user = admin): Promise<ChannelDto> {
  const res = await call(user, 'POST', '/whatsapp', telegram(name, extra));
  expect(res.statusCode, res.body).toBe(201);
  return res.json<ChannelDto>();
}

describe('POST /api/whatsapp', () => {
  it('creates a Telegram channel, hides the token and makes the first channel the default', async () => {
    const res = await call(
      admin,
      'POST',
      '/whatsapp',
      telegram('Loja', { farewellMessage: 'Até logo', sendEvaluation: true }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.body).not.toContain(TOKEN);
    expect(res.json()).toMatchObject({
      name: 'Loja',
      type: 'telegram',
      status: 'DISCONNECTED',
      isDefault: true,
      farewellMessage: 'Até logo',
      sendEvaluation: 'enabled',
      configuredSecrets: ['tokenTelegram'],
    });
    expect(res.json()).not.toHaveProperty('tokenTelegram');
    expect(res.json()).not.toHaveProperty('webhookSecret');
  });

  it('refuses a Telegram channel without a token, a malformed token, an unknown type and an agent', async () => {
    const cases: [TestUser, object, number, string, string?][] = [
      [admin, { name: 'x', type: 'telegram' }, 400, 'ERR_TELEGRAM_TOKEN_REQUIRED', 'tokenTelegram'],
      [admin, { name: 'x', type: 'telegram', tokenTelegram: '   ' }, 400, 'ERR_TELEGRAM_TOKEN_REQUIRED'],
      [admin, { name: 'x', type: 'telegram', tokenTelegram: '../../getMe' }, 400, 'ERR_VALIDATION', 'tokenTelegram'],
      [admin, { name: 'x', type: 'fax' }, 400, 'ERR_VALIDATION', 'type'],
      [admin, { type: 'telegram', tokenTelegram: TOKEN }, 400, 'ERR_VALIDATION', 'name'],
      [admin, telegram('x', { queueId: 999999 }), 400, 'ERR_VALIDATION', 'queueId'],
      [admin, telegram('x', { chatFlowId: 3 }), 400, 'ERR_VALIDATION', 'chatFlowId'],
      [agent, telegram('x'), 403, 'ERR_NO_PERMISSION'],
      [supervisor, telegram('x'), 403, 'ERR_NO_PERMISSION'],
    ];
    for (const [user, body, status, error, field] of cases) {
      const res = await call(user, 'POST', '/whatsapp', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ error, ...(field ? { field } : {}) });
    }
  });

  it("enforces the tenant's maxConnections", async () => {
    const tenantId = await t.createTenant({ maxConnections: 1 });
    const owner = await t.createUser({ tenantId, profile: 'admin' });
    await createChannel('Única', {}, owner);
    const res = await call(owner, 'POST', '/whatsapp', telegram('Demais'));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_CONNECTION_LIMIT' });
  });
});

describe('GET and PUT /api/whatsapp', () => {
  it('lists the channels for every user as a bare array, without secrets', async () => {
    const created = await createChannel('Lista');
    const res = await call(agent, 'GET', '/whatsapp/');
    expect(res.statusCode).toBe(200);
    expect(res.json<ChannelDto[]>().map((c) => c.id)).toContain(created.id);
    expect(res.body).not.toContain(TOKEN);
    expect((await call(agent, 'GET', `/whatsapp/${created.id}`)).json()).toMatchObject({ name: 'Lista' });
    expect((await call(agent, 'GET', '/whatsapp/999999')).json()).toEqual({ error: 'ERR_NO_WAPP_FOUND' });
  });

  it('keeps the stored token when the echoed object leaves it empty, and checks queue ids', async () => {
    const created = await createChannel('Eco');
    const [queue] = await withTenant(t.platform.db, systemContext(1), (tx) =>
      tx.insert(queues).values({ tenantId: 1, queue: 'Vendas' }).returning(),
    );
    const echoed = {
      ...created,
      name: 'Eco 2',
      tokenTelegram: '',
      queueId: queue!.id,
      integrations: { chatgptApiKey: 'sk-1' },
    };
    const res = await call(admin, 'PUT', `/whatsapp/${created.id}`, echoed);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Eco 2',
      queueId: queue!.id,
      configuredSecrets: ['tokenTelegram', 'chatgptApiKey'],
    });
    expect(res.json<ChannelDto>().integrations).toEqual({});
    // The token is still there: connecting uses it.
    expect((await call(admin, 'POST', `/whatsappsession/${created.id}`)).statusCode).toBe(200);
    expect(sim.callsOf('getMe')[0]!.token).toBe(TOKEN);
    const typeChange = await call(admin, 'PUT', `/whatsapp/${created.id}`, { ...echoed, type: 'waba' });
    expect(typeChange.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'type' });
  });

  it('moves the default with POST /setDefault, leaving exactly one default', async () => {
    const target = await createChannel('Novo padrão');
    const res = await call(admin, 'POST', '/setDefault', { whatsappId: target.id, extra: 'ignored' });
    expect(res.statusCode, res.body).toBe(200);
    const defaults = (await call(agent, 'GET', '/whatsapp')).json<ChannelDto[]>().filter((c) => c.isDefault);
    expect(defaults.map((c) => c.id)).toEqual([target.id]);
    expect((await call(admin, 'POST', '/setDefault', { whatsappId: 999999 })).statusCode).toBe(404);
  });
});

describe('distribution (N/R/B) and selfDistribute kept in step', () => {
  const put = async (channel: ChannelDto, extra: object) => {
    const res = await call(admin, 'PUT', `/whatsapp/${channel.id}`, { ...channel, tokenTelegram: '', ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ChannelDto>();
  };
  const modes = (c: ChannelDto) => [c.distribution, c.selfDistribute];

  it('a new mode decides selfDistribute (enabled exactly when not N), on create and on update', async () => {
    expect(modes(await createChannel('Sem modo'))).toEqual(['N', 'disabled']);
    const random = await createChannel('Aleatório', { distribution: 'R', selfDistribute: 'disabled' });
    expect(modes(random)).toEqual(['R', 'enabled']);
    expect(modes((await call(agent, 'GET', `/whatsapp/${random.id}`)).json())).toEqual(['R', 'enabled']);
    const balanced = await put(random, { distribution: 'B' });
    expect(modes(balanced)).toEqual(['B', 'enabled']);
    // The echoed switch (still enabled) does not undo a new N.
    const none = await put(balanced, { distribution: 'N' });
    expect(modes(none)).toEqual(['N', 'disabled']);
    const again = await put(none, { distribution: 'R', selfDistribute: 'disabled' });
    expect(modes(again)).toEqual(['R', 'enabled']);
  });

  it('without a new mode, selfDistribute decides: enabled makes N into B (R stays), disabled makes N', async () => {
    const legacy = await createChannel('Só o interruptor', { selfDistribute: 'enabled' });
    expect(modes(legacy)).toEqual(['B', 'enabled']);
    const off = await put(legacy, { selfDistribute: 'disabled' });
    expect(modes(off)).toEqual(['N', 'disabled']);
    const on = await put(off, { selfDistribute: true });
    expect(modes(on)).toEqual(['B', 'enabled']);
    const random = await put(on, { distribution: 'R' });
    // An older form echoes the mode it was shown and flips only the switch.
    expect(modes(await put(random, { selfDistribute: 'enabled' }))).toEqual(['R', 'enabled']);
    expect(modes(await put(random, { selfDistribute: 'disabled' }))).toEqual(['N', 'disabled']);
    // Neither field: nothing changes.
    const { distribution: _d, selfDistribute: _s, ...rest } = await put(random, { distribution: 'B' });
    expect(modes(await put({ ...rest } as ChannelDto, {}))).toEqual(['B', 'enabled']);
  });

  it('refuses an unknown mode (ERR_VALIDATION, field distribution) and changes nothing', async () => {
    const channel = await createChannel('Modo inválido', { distribution: 'B' });
    for (const distribution of ['X', 'b', '', null, 2]) {
      const created = await call(admin, 'POST', '/whatsapp', telegram('x', { distribution }));
      expect(created.statusCode, JSON.stringify(distribution)).toBe(400);
      expect(created.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'distribution' });
      const updated = await call(admin, 'PUT', `/whatsapp/${channel.id}`, { ...channel, distribution });
      expect(updated.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'distribution' });
    }
    expect(modes((await call(admin, 'GET', `/whatsapp/${channel.id}`)).json())).toEqual(['B', 'enabled']);
  });
});

describe('chatFlowId', () => {
  const insertFlow = (tenantId: number, isDeleted = false) =>
    withTenant(t.platform.db, systemContext(tenantId), async (tx) => {
      const result = (await tx.execute(
        sql`insert into chat_flows (tenant_id, name, flow, is_deleted)
            values (${tenantId}, 'Fluxo', '{"nodeList":[],"lineList":[]}'::jsonb, ${isDeleted}) returning id`,
      )) as unknown as { rows: { id: number }[] };
      return Number(result.rows[0]!.id);
    });

  it("names one of the tenant's flows that is not deleted; clears with null", async () => {
    const flowId = await insertFlow(1);
    const channel = await createChannel('Com fluxo', { chatFlowId: flowId });
    expect(channel.chatFlowId).toBe(flowId);
    const cleared = await call(admin, 'PUT', `/whatsapp/${channel.id}`, { ...channel, chatFlowId: null });
    expect(cleared.json()).toMatchObject({ chatFlowId: null });
    const otherTenant = await insertFlow(await t.createTenant());
    for (const id of [await insertFlow(1, true), otherTenant, 999999]) {
      const res = await call(admin, 'PUT', `/whatsapp/${channel.id}`, { ...channel, chatFlowId: id });
      expect(res.statusCode, String(id)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'chatFlowId' });
    }
  });
});

describe('sessions', () => {
  it('connects: checks the token, registers the webhook with the channel secret, reports CONNECTED', async () => {
    const created = await createChannel('Conecta', { tokenTelegram: ownBot() });
    const seen: ChannelSessionState[] = [];
    const off = t.platform.events.subscribe('channels.session_changed', ({ session }) => void seen.push(session));
    const res = await call(admin, 'POST', `/whatsappsession/${created.id}`);
    off();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: created.id, status: 'CONNECTED', number: '@loja_bot', retries: 0 });
    const [hook] = sim.callsOf('setWebhook');
    expect(hook!.params).toMatchObject({
      url: `https://conversa.example/api/webhooks/telegram/${created.id}`,
      secret_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(seen.map((s) => s.status)).toEqual(['OPENING', 'CONNECTED']);
  });

  it('reports a token Telegram refuses as ERR_CHANNEL_PROVIDER and counts the retry', async () => {
    const created = await createChannel('Recusado', { tokenTelegram: '7000000009:AAH-unknown_bot_token_000000009' });
    const res = await call(admin, 'POST', `/whatsappsession/${created.id}`);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: 'ERR_CHANNEL_PROVIDER' });
    expect((await call(agent, 'GET', `/whatsapp/${created.id}`)).json()).toMatchObject({
      status: 'DISCONNECTED',
      retries: 1,
    });
  });

  it('disconnects; a transient Telegram failure keeps the channel connected', async () => {
    const created = await createChannel('Desconecta', { tokenTelegram: ownBot() });
    await call(admin, 'PUT', `/whatsappsession/${created.id}`, { id: created.id, isQrcode: true });
    sim.failNext('deleteWebhook', { error_code: 502, description: 'Bad Gateway' });
    const failed = await call(admin, 'DELETE', `/whatsappsession/${created.id}`);
    expect(failed.json()).toEqual({ error: 'ERR_CHANNEL_PROVIDER' });
    expect((await call(agent, 'GET', `/whatsapp/${created.id}`)).json()).toMatchObject({ status: 'CONNECTED' });
    const res = await call(admin, 'DELETE', `/whatsappsession/${created.id}`);
    expect(res.json()).toMatchObject({ status: 'DISCONNECTED' });
    expect(sim.callsOf('deleteWebhook')).toHaveLength(2);
    expect((await call(agent, 'DELETE', `/whatsappsession/${created.id}`)).statusCode).toBe(403);
  });

  it('a new bot token disconnects the channel and releases the old bot webhook', async () => {
    const token = ownBot();
    const created = await createChannel('Troca', { tokenTelegram: token });
    await call(admin, 'POST', `/whatsappsession/${created.id}`);
    const res = await call(admin, 'PUT', `/whatsapp/${created.id}`, { ...created, tokenTelegram: OTHER_TOKEN });
    expect(res.json()).toMatchObject({ status: 'DISCONNECTED', number: null });
    await vi.waitFor(() => expect(sim.callsOf('deleteWebhook')).toHaveLength(1));
    expect(sim.callsOf('deleteWebhook')[0]!.token).toBe(token);
  });

  it('one live channel per bot, across tenants: a second channel of a connected bot is refused with 409', async () => {
    const token = ownBot();
    const first = await createChannel('Dono', { tokenTelegram: token });
    expect((await call(admin, 'POST', `/whatsappsession/${first.id}`)).statusCode).toBe(200);
    const otherAdmin = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin' });
    const second = await createChannel('Intruso', { tokenTelegram: token }, otherAdmin);
    const refused = await call(otherAdmin, 'POST', `/whatsappsession/${second.id}`);
    expect([refused.statusCode, refused.json()]).toEqual([409, { error: 'ERR_CHANNEL_IDENTITY_TAKEN' }]);
    expect((await call(otherAdmin, 'GET', `/whatsapp/${second.id}`)).json()).toMatchObject({ status: 'DISCONNECTED' });
    // The owner's disconnect releases the bot: then the other channel connects.
    expect((await call(admin, 'DELETE', `/whatsappsession/${first.id}`)).statusCode).toBe(200);
    expect((await call(otherAdmin, 'POST', `/whatsappsession/${second.id}`)).statusCode).toBe(200);
  });
});

describe('DELETE /api/whatsapp/:id and the superadmin overview', () => {
  it('deletes a connected channel and unregisters its webhook', async () => {
    const created = await createChannel('Apaga', { tokenTelegram: ownBot() });
    await call(admin, 'POST', `/whatsappsession/${created.id}`);
    const deleted: number[] = [];
    const off = t.platform.events.subscribe('channels.deleted', ({ channelId }) => void deleted.push(channelId));
    expect((await call(agent, 'DELETE', `/whatsapp/${created.id}`)).statusCode).toBe(403);
    expect((await call(admin, 'DELETE', `/whatsapp/${created.id}`)).statusCode).toBe(204);
    off();
    expect(deleted).toEqual([created.id]);
    expect((await call(agent, 'GET', `/whatsapp/${created.id}`)).statusCode).toBe(404);
    await vi.waitFor(() => expect(sim.callsOf('deleteWebhook')).toHaveLength(1));
  });

  it('lists every tenant for the superadmin only', async () => {
    const tenantId = await t.createTenant();
    const other = await createChannel('Outro', {}, await t.createUser({ tenantId, profile: 'admin' }));
    const superadmin = await t.createUser({ tenantId: 1, profile: 'superadmin' });
    expect((await call(admin, 'GET', '/whatsappTenantsAll/')).statusCode).toBe(403);
    const res = await call(superadmin, 'GET', '/whatsappTenantsAll/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toContainEqual(expect.objectContaining({ id: other.id, tenantId, name: 'Outro' }));
    expect(res.body).not.toContain(TOKEN);
  });
});
