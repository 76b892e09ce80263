/**
 * `/fb/register-pages` and `/fb/logout-pages` through the Graph simulator: the page chosen and stored (token kept on
 * the server), the app subscribed, the answer without tokens; refusals change nothing; another tenant's channel and
 * channels of other types are not reachable.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChannelDto, RegisterPagesResponse } from '@conversa/shared';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { withSystem } from '../../../../platform/db/tenancy.js';
import { channels } from '../../channels.tables.js';
import { startMetaMessagingSimulator, type MetaMessagingSimulator } from './meta-messaging.simulator.js';

const USER = '10220000000000001';
const USER_TOKEN = 'EAAG-user-token-from-facebook-login';
const SHOP = { id: '1122334455', name: 'Loja Exemplo', token: 'EAAG-page-token-shop' };
const BLOG = { id: '2233445566', name: 'Blog', token: 'EAAG-page-token-blog' };
const IG = { id: '17841400000000001', username: 'loja.exemplo' };

let t: TestApp;
let sim: MetaMessagingSimulator;
let admin: TestUser;
let agent: TestUser;
let intruder: TestUser;

const create = async (type: string, name: string) =>
  (await t.call(admin, 'POST', '/whatsapp', { name, type })).json<ChannelDto>();
const stored = async (id: number) =>
  (
    await withSystem(t.platform.db, 'channels.webhook-lookup', (tx) =>
      tx.select().from(channels).where(eq(channels.id, id)),
    )
  )[0]!;
const register = (user: TestUser, whatsapp: unknown, patch: object = {}) =>
  t.call(user, 'POST', '/fb/register-pages', { whatsapp, accountId: USER, userToken: USER_TOKEN, ...patch });

beforeAll(async () => {
  sim = await startMetaMessagingSimulator();
  sim.pages.set(BLOG.token, { id: BLOG.id, name: BLOG.name, instagram: null });
  sim.pages.set(SHOP.token, { id: SHOP.id, name: SHOP.name, instagram: IG });
  sim.users.set(USER_TOKEN, { id: USER, pageTokens: [BLOG.token, SHOP.token] });
  t = await createTestApp({ META_GRAPH_URL: sim.url, PUBLIC_URL: 'https://conversa.example' });
  ({ admin, agent } = await t.createStaff());
  intruder = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin' });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});
beforeEach(() => void sim.calls.splice(0));

describe('POST /fb/register-pages', () => {
  it('connects a messenger channel to the first page: stored with its page token, subscribed, CONNECTED', async () => {
    const channel = await create('messenger', 'Messenger');
    // The reference client sends the whole channel object: only its id is read.
    const answer = await register(admin, { ...channel, tenantId: 999, tokenAPI: 'forged' });
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json<RegisterPagesResponse>();
    expect(body.page_details).toEqual([
      { id: BLOG.id, name: BLOG.name, instagramId: null },
      { id: SHOP.id, name: SHOP.name, instagramId: IG.id },
    ]);
    expect(body.channel).toMatchObject({ id: channel.id, status: 'CONNECTED', wabaId: BLOG.id });
    expect(answer.body).not.toContain('EAAG');
    const accounts = sim.callsTo('GET', new RegExp(`^${USER}/accounts$`))[0]!;
    expect(accounts).toMatchObject({ token: USER_TOKEN });
    expect(accounts.query.fields).toBe('id,name,access_token,instagram_business_account{id,username}');
    expect(sim.callsTo('POST', /subscribed_apps$/)[0]).toMatchObject({
      path: `${BLOG.id}/subscribed_apps`,
      token: BLOG.token,
    });
    const row = await stored(channel.id);
    expect(row).toMatchObject({ tokenAPI: BLOG.token, wabaId: BLOG.id, fbObject: { id: BLOG.id, name: BLOG.name } });
    expect(row.providerState).toMatchObject({ pageId: BLOG.id });
    expect(row.providerKey).toBe(`messenger:${BLOG.id}`);
  });

  it('a channel that names its page (wabaId) gets that page', async () => {
    const channel = await create('messenger', 'Shop Messenger');
    await t.call(admin, 'PUT', `/whatsapp/${channel.id}`, { ...channel, wabaId: SHOP.id });
    const answer = await register(admin, channel.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect((await stored(channel.id)).tokenAPI).toBe(SHOP.token);
  });

  it('an instagram channel takes the page with an Instagram account and stores the account', async () => {
    const channel = await create('instagram', 'Instagram');
    const answer = await register(admin, String(channel.id));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json<RegisterPagesResponse>().channel).toMatchObject({ wabaId: IG.id, instagramUser: IG.username });
    const row = await stored(channel.id);
    expect(row).toMatchObject({
      tokenAPI: SHOP.token,
      fbObject: { pageId: SHOP.id, pageName: SHOP.name, instagramId: IG.id, username: IG.username },
    });
    expect(sim.callsTo('POST', /subscribed_apps$/)[0]!.path).toBe(`${SHOP.id}/subscribed_apps`);
  });

  it('a page another channel claims is refused (webhooks route by its id): 409, nothing subscribed or stored', async () => {
    const channel = await create('messenger', 'Duplicate');
    await t.call(admin, 'PUT', `/whatsapp/${channel.id}`, { ...channel, wabaId: BLOG.id });
    const answer = await register(admin, channel.id);
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ error: 'ERR_CHANNEL_IDENTITY_TAKEN' });
    expect(sim.callsTo('POST', /subscribed_apps$/)).toHaveLength(0);
    expect(await stored(channel.id)).toMatchObject({ tokenAPI: null, status: 'DISCONNECTED', providerKey: null });
  });

  it('a refused user token, a failed subscription or no fitting page change nothing', async () => {
    const channel = await create('instagram', 'IG 2');
    const badToken = await register(admin, channel.id, { userToken: 'expired' });
    expect(badToken.statusCode).toBe(502);
    expect(badToken.json()).toMatchObject({ error: 'ERR_CHANNEL_PROVIDER' });
    sim.users.set('only-blog', { id: USER, pageTokens: [BLOG.token] });
    const noInstagram = await register(admin, channel.id, { userToken: 'only-blog' });
    expect(noInstagram.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'accountId' });
    const other = await create('messenger', 'Messenger 3');
    sim.pages.set('page-888', { id: '888000', name: 'Eight', instagram: null });
    sim.users.set('eight', { id: USER, pageTokens: ['page-888'] });
    sim.failNext(/subscribed_apps$/, 400, { message: '(#200) Permissions error', code: 200 });
    const refused = await register(admin, other.id, { userToken: 'eight' });
    expect(refused.statusCode).toBe(502);
    for (const id of [channel.id, other.id]) {
      expect(await stored(id)).toMatchObject({ tokenAPI: null, wabaId: null, status: 'DISCONNECTED' });
    }
  });

  it('validates the body, needs an admin, and never reaches another tenant or another type', async () => {
    const channel = await create('messenger', 'Messenger 4');
    expect((await register(admin, channel.id, { accountId: '../me' })).json()).toMatchObject({
      error: 'ERR_VALIDATION',
    });
    expect((await register(admin, 'abc')).json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect((await register(agent, channel.id)).json()).toMatchObject({ error: 'ERR_NO_PERMISSION' });
    const foreign = await register(intruder, channel.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
    const telegram = await t.call(admin, 'POST', '/whatsapp', {
      name: 'Bot',
      type: 'telegram',
      tokenTelegram: '7000000001:AAH-test_token_for_the_simulator_0001',
    });
    expect((await register(admin, telegram.json<ChannelDto>().id)).json()).toMatchObject({
      error: 'ERR_CHANNEL_TYPE_UNSUPPORTED',
    });
    expect(sim.calls).toHaveLength(0);
    expect(await stored(channel.id)).toMatchObject({ tokenAPI: null, status: 'DISCONNECTED' });
  });
});

describe('POST /fb/logout-pages', () => {
  it('unsubscribes, clears the token and disconnects; another tenant cannot', async () => {
    const channel = await create('messenger', 'Logout');
    sim.pages.set('page-777', { id: '777000', name: 'Seven', instagram: null });
    sim.users.set('seven', { id: USER, pageTokens: ['page-777'] });
    expect((await register(admin, channel.id, { userToken: 'seven' })).statusCode).toBe(200);
    const foreign = await t.call(intruder, 'POST', '/fb/logout-pages', { whatsapp: channel.id });
    expect(foreign.json()).toMatchObject({ error: 'ERR_NO_WAPP_FOUND' });
    expect((await stored(channel.id)).tokenAPI).toBe('page-777');
    const answer = await t.call(admin, 'POST', '/fb/logout-pages', { whatsapp: { ...channel } });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ ok: true });
    expect(sim.callsTo('DELETE', /subscribed_apps$/)[0]).toMatchObject({
      path: '777000/subscribed_apps',
      token: 'page-777',
    });
    expect(await stored(channel.id)).toMatchObject({ tokenAPI: null, status: 'DISCONNECTED', providerKey: null });
  });

  it('a revoked token still disconnects; a transient Graph failure keeps the channel connected', async () => {
    const channel = await create('messenger', 'Logout 2');
    await t.call(admin, 'PUT', `/whatsapp/${channel.id}`, { ...channel, wabaId: '5550001' });
    sim.pages.set('page-5550001', { id: '5550001', name: 'Five', instagram: null });
    sim.users.set('five', { id: USER, pageTokens: ['page-5550001'] });
    expect((await register(admin, channel.id, { userToken: 'five' })).statusCode).toBe(200);
    sim.failNext(/subscribed_apps$/, 500, { message: 'An unexpected error has occurred.', code: 2 });
    const transient = await t.call(admin, 'POST', '/fb/logout-pages', { whatsapp: channel.id });
    expect(transient.statusCode).toBe(502);
    expect(await stored(channel.id)).toMatchObject({ tokenAPI: 'page-5550001', status: 'CONNECTED' });
    sim.pages.delete('page-5550001');
    const revoked = await t.call(admin, 'POST', '/fb/logout-pages', { whatsapp: channel.id });
    expect(revoked.statusCode).toBe(200);
    expect(await stored(channel.id)).toMatchObject({ tokenAPI: null, status: 'DISCONNECTED' });
  });
});
