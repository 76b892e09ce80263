/**
 * The template cache: the template rules (placeholder count, readable rendering), and `GET /wabametaTemplate/{ref}`
 * over real HTTP against the Graph simulator: synced through every page, answered from the cache within the hour
 * (no Graph call), synced again when stale or forced (rows Graph dropped are deleted, changed ones updated), a
 * forced refresh for supervisors and up only, the channel named by id, phone number id or 'undefined', another
 * tenant's channel not found, a Graph outage answered from a stale cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WabaTemplateListResponse } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { startWabaSimulator, type WabaSimulator } from './waba.simulator.js';
import { HOUR, makeMetaChannel } from '../../../../test/waba-kit.js';
import { bodyParameterCount, cacheIsStale, renderTemplatePreview, type WabaTemplateRow } from './waba.templates.js';

const PHONE = '100200300400';
const ACCOUNT = '900800700600';
const TOKEN = 'EAAG-template-token';

const template = (n: number, status = 'APPROVED') => ({
  id: String(5000 + n),
  name: `modelo_${n}`,
  language: 'pt_BR',
  status,
  category: 'UTILITY',
  components: [{ type: 'BODY', text: `Modelo ${n}: {{1}}` }],
});

let sim: WabaSimulator;
let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let channelId: number;

const templateCalls = () => sim.requests.filter((r) => r.path.endsWith('/message_templates')).length;
const list = async (user: TestUser, ref: string | number, query = '') => {
  const res = await t.call(user, 'GET', `/wabametaTemplate/${ref}${query}`);
  return { res, names: res.statusCode === 200 ? res.json<WabaTemplateListResponse>().data.map((d) => d.name) : [] };
};

beforeAll(async () => {
  sim = await startWabaSimulator();
  sim.phones.set(PHONE, {
    token: TOKEN,
    displayPhoneNumber: '+55 11 3000-4000',
    verifiedName: 'Loja',
    businessAccountId: ACCOUNT,
  });
  sim.templates.set(
    ACCOUNT,
    [1, 2, 3, 4, 5].map((n) => template(n, n === 5 ? 'PENDING' : 'APPROVED')),
  );
  t = await createTestApp({ META_GRAPH_URL: sim.url });
  ({ admin, agent } = await t.createStaff());
  channelId = await makeMetaChannel(t, 1, { wabaId: PHONE, bmToken: ACCOUNT, tokenAPI: TOKEN });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('template rules', () => {
  const components = [
    { type: 'HEADER', format: 'TEXT', text: 'Olá {{1}}' },
    { type: 'BODY', text: 'Pedido {{1}} de {{2}}: total {{3}}. Obrigado, {{1}}!' },
    { type: 'FOOTER', text: 'Loja Exemplo' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Falar com atendente' }] },
  ];

  it('counts the distinct body placeholders, positional or named', () => {
    expect(bodyParameterCount(components)).toBe(3);
    expect(bodyParameterCount([{ type: 'BODY', text: 'Oi {{ nome }}, seu código é {{codigo}}' }])).toBe(2);
    expect(bodyParameterCount([{ type: 'BODY', text: 'Sem variáveis' }])).toBe(0);
    expect(bodyParameterCount([])).toBe(0);
  });

  it('renders header, body with the sent parameters, footer and button labels', () => {
    const sent = [
      { type: 'header', parameters: [{ type: 'text', text: 'Maria' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: '#123' },
          { type: 'date_time', date_time: { fallback_value: '02/01/2026' } },
          { type: 'currency', currency: { fallback_value: 'R$ 10,00', code: 'BRL', amount_1000: 10000 } },
        ],
      },
    ];
    expect(renderTemplatePreview(components, sent)).toBe(
      '*Olá Maria*\n\nPedido #123 de 02/01/2026: total R$ 10,00. Obrigado, #123!\n\n_Loja Exemplo_\n\n[Falar com atendente]',
    );
    // Named parameters, a media header (not text) and a missing parameter left as written.
    const named = [
      { type: 'HEADER', format: 'IMAGE' },
      { type: 'BODY', text: 'Oi {{nome}}, código {{codigo}}' },
    ];
    const params = [{ type: 'body', parameters: [{ type: 'text', parameter_name: 'nome', text: 'Ana' }] }];
    expect(renderTemplatePreview(named, params)).toBe('Oi Ana, código {{codigo}}');
  });

  it('a cache is stale when empty or synced an hour ago', () => {
    const now = Date.now();
    const row = (age: number) => ({ syncedAt: new Date(now - age) }) as WabaTemplateRow;
    expect(cacheIsStale([], now)).toBe(true);
    expect(cacheIsStale([row(HOUR - 1000)], now)).toBe(false);
    expect(cacheIsStale([row(HOUR - 1000), row(HOUR)], now)).toBe(true);
  });
});

describe('GET /wabametaTemplate/{tokenApi}', () => {
  it('an empty cache syncs every page from Graph (any staff member may read)', async () => {
    const { res, names } = await list(agent, channelId);
    expect(res.statusCode, res.body).toBe(200);
    expect(names).toEqual(['modelo_1', 'modelo_2', 'modelo_3', 'modelo_4', 'modelo_5']);
    // Five templates, two a page: three pages, all with the channel's token.
    expect(templateCalls()).toBe(3);
    expect(sim.requests.every((r) => r.token === TOKEN)).toBe(true);
    const statuses = res.json<WabaTemplateListResponse>().data.map((d) => d.status);
    expect(statuses).toEqual(['APPROVED', 'APPROVED', 'APPROVED', 'APPROVED', 'PENDING']);
    expect(res.json<WabaTemplateListResponse>().data[0]).toMatchObject({
      id: expect.any(Number),
      language: 'pt_BR',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Modelo 1: {{1}}' }],
    });
  });

  it('within the hour the cache answers without Graph; by phone number id and by "undefined" too', async () => {
    const before = templateCalls();
    expect((await list(agent, channelId)).names).toHaveLength(5);
    expect((await list(agent, PHONE)).names).toHaveLength(5);
    expect((await list(agent, 'undefined')).names).toHaveLength(5);
    expect(templateCalls()).toBe(before);
  });

  it('a forced refresh (supervisors and up) replaces the cache: dropped rows deleted, changed ones updated', async () => {
    sim.templates.set(ACCOUNT, [template(1, 'PAUSED'), template(2), template(6)]);
    expect((await list(agent, channelId, '?refresh=true')).res.json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    const { res, names } = await list(admin, channelId, '?refresh=true');
    expect(res.statusCode, res.body).toBe(200);
    expect(names).toEqual(['modelo_1', 'modelo_2', 'modelo_6']);
    expect(res.json<WabaTemplateListResponse>().data[0]!.status).toBe('PAUSED');
    const { rows } = await t.database.executeSql(
      'select count(*)::int as n from waba_templates where channel_id = $1',
      [channelId],
    );
    expect(rows[0]!.n).toBe(3);
  });

  it('a stale cache syncs on a plain read; a Graph outage then answers the stale cache', async () => {
    sim.templates.set(ACCOUNT, [template(7)]);
    await t.database.executeSql("update waba_templates set synced_at = now() - interval '61 minutes'");
    expect((await list(agent, channelId)).names).toEqual(['modelo_7']);

    await t.database.executeSql("update waba_templates set synced_at = now() - interval '2 hours'");
    await t.database.executeSql("update channels set token_api = 'revoked' where id = $1", [channelId]);
    const stale = await list(agent, channelId);
    expect(stale.res.statusCode).toBe(200);
    expect(stale.names).toEqual(['modelo_7']);
    // Forced, the refusal is the channel's data: 'Ops! Dados WABA incorretos.'
    const forced = await list(admin, channelId, '?refresh=true');
    expect(forced.res.statusCode).toBe(400);
    expect(forced.res.json()).toMatchObject({ error: 'ERR_WABA_DATA_INVALID' });
    await t.database.executeSql('update channels set token_api = $2 where id = $1', [channelId, TOKEN]);
  });

  it("an unknown reference, or another tenant's channel, is not found", async () => {
    const other = await t.createTenant();
    const { admin: intruder } = await t.createStaff(other);
    for (const ref of [String(channelId), PHONE, '999999']) {
      const { res } = await list(intruder, ref);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
    }
    // 'undefined' names the caller's only waba channel: the intruder has none.
    expect((await list(intruder, 'undefined')).res.statusCode).toBe(404);
  });
});
