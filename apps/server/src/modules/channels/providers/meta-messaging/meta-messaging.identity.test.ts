/**
 * Provider identity is a credential (issue 22) for Instagram and Messenger channels, over the app's HTTP routes and
 * the Graph simulator. Instagram: tenant B creates a channel with tenant A's account id and B's own valid page token
 * and starts it: refused (the account is not B's page's), and A's customers keep landing in A through both webhook
 * URLs. Messenger: B edits its connected channel to A's page: disconnected, its start refused; a channel that merely
 * names A's page reserves nothing (A still connects); a page someone else claims is refused with 409. Edits of the
 * identity fields disconnect and release the claim.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto } from '@conversa/shared';
import { systemContext, withSystem, withTenant } from '../../../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { messages } from '../../../messages/messages.tables.js';
import { channels } from '../../channels.tables.js';
import { signMetaBody } from '../../providers/meta/meta.signature.js';
import { startMetaMessagingSimulator, type MetaMessagingSimulator } from './meta-messaging.simulator.js';

const APP_SECRET = 'identity-meta-app-secret';
const A = { page: '5500001', pageToken: 'EAAG-page-a', ig: '17841400000000011', user: '10220000000000011' };
const B = { page: '5500002', pageToken: 'EAAG-page-b', ig: '17841400000000022', user: '10220000000000022' };
const USER_A = 'EAAG-user-a';
const USER_B = 'EAAG-user-b';

let t: TestApp;
let sim: MetaMessagingSimulator;
let adminA: TestUser;
let adminB: TestUser;
let tenantB: number;

/** One customer message for a page (object `page`) or an Instagram account (object `instagram`). */
const inbound = (type: 'messenger' | 'instagram', id: string, mid: string) => ({
  object: type === 'messenger' ? 'page' : 'instagram',
  entry: [
    {
      id,
      time: Date.now(),
      messaging: [
        {
          sender: { id: type === 'messenger' ? '7001002003009001' : '5501002003009002' },
          recipient: { id },
          timestamp: Date.now(),
          message: { mid, text: mid },
        },
      ],
    },
  ],
});

function post(url: string, payload: object) {
  const body = JSON.stringify(payload);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(body, APP_SECRET) },
    payload: body,
  });
}
const stored = (tenantId: number) =>
  withTenant(t.platform.db, systemContext(tenantId), async (tx) =>
    (await tx.select({ id: messages.messageId }).from(messages)).map((row) => row.id ?? ''),
  );
const row = async (id: number) =>
  (
    await withSystem(t.platform.db, 'channels.webhook-lookup', (tx) =>
      tx.select().from(channels).where(eq(channels.id, id)),
    )
  )[0]!;
const dto = async (admin: TestUser, id: number) => (await t.call(admin, 'GET', `/whatsapp/${id}`)).json<ChannelDto>();
const create = async (admin: TestUser, values: object) => {
  const created = await t.call(admin, 'POST', '/whatsapp', values);
  expect(created.statusCode, created.body).toBe(201);
  return created.json<ChannelDto>();
};
const start = (admin: TestUser, id: number) => t.call(admin, 'POST', `/whatsappsession/${id}`);
const edit = async (admin: TestUser, id: number, patch: object) =>
  t.call(admin, 'PUT', `/whatsapp/${id}`, { ...(await dto(admin, id)), ...patch });

beforeAll(async () => {
  sim = await startMetaMessagingSimulator();
  sim.pages.set(A.pageToken, { id: A.page, name: 'Loja A', instagram: { id: A.ig, username: 'loja.a' } });
  sim.pages.set(B.pageToken, { id: B.page, name: 'Loja B', instagram: { id: B.ig, username: 'loja.b' } });
  sim.users.set(USER_A, { id: A.user, pageTokens: [A.pageToken] });
  sim.users.set(USER_B, { id: B.user, pageTokens: [B.pageToken] });
  t = await createTestApp({ META_GRAPH_URL: sim.url, META_APP_SECRET: APP_SECRET, PUBLIC_URL: 'https://c.example' });
  ({ admin: adminA } = await t.createStaff());
  tenantB = await t.createTenant();
  ({ admin: adminB } = await t.createStaff(tenantB));
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe("Instagram: tenant B tries to take tenant A's account", () => {
  let channelA: ChannelDto;
  let channelB: ChannelDto;

  it("A's channel, started with its page token, claims its account", async () => {
    channelA = await create(adminA, { name: 'IG A', type: 'instagram', wabaId: A.ig, tokenAPI: A.pageToken });
    expect((await start(adminA, channelA.id)).statusCode).toBe(200);
    expect(await row(channelA.id)).toMatchObject({ status: 'CONNECTED', providerKey: `instagram:${A.ig}` });
    // Graph was asked which account is the page's, with the page's own token.
    const asked = sim.callsTo('GET', /^me$/).at(-1)!;
    expect([asked.token, asked.query.fields]).toEqual([A.pageToken, 'id,name,instagram_business_account']);
  });

  it("B's channel with A's account id and B's valid page token is refused and stays disconnected", async () => {
    channelB = await create(adminB, { name: 'IG B', type: 'instagram', wabaId: A.ig, tokenAPI: B.pageToken });
    const refused = await start(adminB, channelB.id);
    expect([refused.statusCode, refused.json()]).toEqual([502, { error: 'ERR_CHANNEL_PROVIDER' }]);
    expect(await row(channelB.id)).toMatchObject({ status: 'DISCONNECTED', providerKey: null });
    // Nothing was subscribed for B either: the check comes before the subscription.
    expect(sim.callsTo('POST', /subscribed_apps$/).filter((call) => call.token === B.pageToken)).toEqual([]);
  });

  it("A's customers land in A only, through the app-level and the per-channel URL", async () => {
    const app = await post('/api/webhooks/meta', inbound('instagram', A.ig, 'ig-app-1'));
    expect([app.statusCode, app.json()]).toEqual([200, { ok: true, received: 1, ignored: 0 }]);
    expect(
      (await post(`/api/webhooks/instagram/${channelA.id}`, inbound('instagram', A.ig, 'ig-own-1'))).statusCode,
    ).toBe(200);
    const intoB = await post(`/api/webhooks/instagram/${channelB.id}`, inbound('instagram', A.ig, 'ig-b-1'));
    expect(intoB.json()).toMatchObject({ received: 0 });
    expect(await stored(1)).toEqual(expect.arrayContaining(['ig-app-1', 'ig-own-1']));
    expect(await stored(tenantB)).toEqual([]);
  });

  it('with no account id, the start takes the page’s own account; B’s own account connects', async () => {
    expect((await edit(adminB, channelB.id, { wabaId: null })).statusCode).toBe(200);
    expect((await start(adminB, channelB.id)).statusCode).toBe(200);
    expect(await row(channelB.id)).toMatchObject({
      status: 'CONNECTED',
      providerKey: `instagram:${B.ig}`,
      providerState: expect.objectContaining({ instagramId: B.ig, pageId: B.page }),
    });
    const app = await post('/api/webhooks/meta', inbound('instagram', B.ig, 'ig-app-b'));
    expect(app.json()).toMatchObject({ received: 1 });
    expect(await stored(tenantB)).toEqual(['ig-app-b']);
  });

  it.each([
    ['wabaId', { wabaId: A.ig }],
    ['tokenAPI', { tokenAPI: A.pageToken }],
    ['metaAppSecret', { metaAppSecret: 'another-app' }],
    ['instagramKey', { instagramKey: 'another-key' }],
  ])('an edit of %s disconnects it and releases the claim', async (_field, patch) => {
    expect((await start(adminB, channelB.id)).statusCode).toBe(200);
    expect((await row(channelB.id)).providerKey).toBe(`instagram:${B.ig}`);
    const edited = await edit(adminB, channelB.id, patch);
    expect(edited.json<ChannelDto>().status).toBe('DISCONNECTED');
    expect((await row(channelB.id)).providerKey).toBeNull();
    expect((await post('/api/webhooks/meta', inbound('instagram', B.ig, `ig-after-${_field}`))).json()).toMatchObject({
      received: 0,
      ignored: 1,
    });
    // Back to B's own values for the next case.
    await edit(adminB, channelB.id, { wabaId: null, tokenAPI: B.pageToken });
  });
});

describe("Messenger: tenant B tries to take tenant A's page", () => {
  let squat: ChannelDto;
  let channelA: ChannelDto;
  let channelB: ChannelDto;

  it("a channel that only names A's page reserves nothing: A connects its page through Facebook login", async () => {
    squat = await create(adminB, { name: 'Squat', type: 'messenger', wabaId: A.page, tokenAPI: B.pageToken });
    channelA = await create(adminA, { name: 'Messenger A', type: 'messenger' });
    const registered = await t.call(adminA, 'POST', '/fb/register-pages', {
      whatsapp: channelA.id,
      accountId: A.user,
      userToken: USER_A,
    });
    expect(registered.statusCode, registered.body).toBe(200);
    expect(await row(channelA.id)).toMatchObject({ status: 'CONNECTED', providerKey: `messenger:${A.page}` });
    // The squatting channel's start fails: its token is another page's.
    expect((await start(adminB, squat.id)).statusCode).toBe(502);
    expect((await row(squat.id)).providerKey).toBeNull();
  });

  it("B's connected channel edited to A's page is disconnected at once and cannot start", async () => {
    channelB = await create(adminB, { name: 'Messenger B', type: 'messenger', wabaId: B.page, tokenAPI: B.pageToken });
    expect((await start(adminB, channelB.id)).statusCode).toBe(200);
    expect((await row(channelB.id)).providerKey).toBe(`messenger:${B.page}`);
    const edited = await edit(adminB, channelB.id, { wabaId: A.page });
    expect(edited.json<ChannelDto>().status).toBe('DISCONNECTED');
    expect((await row(channelB.id)).providerKey).toBeNull();
    expect((await start(adminB, channelB.id)).statusCode).toBe(502);
    expect((await row(channelB.id)).status).toBe('DISCONNECTED');
  });

  it("A's customers land in A only, through the app-level and the per-channel URL", async () => {
    expect((await post('/api/webhooks/meta', inbound('messenger', A.page, 'm-app-1'))).json()).toMatchObject({
      received: 1,
      ignored: 0,
    });
    expect(
      (await post(`/api/webhooks/messenger/${channelA.id}`, inbound('messenger', A.page, 'm-own-1'))).statusCode,
    ).toBe(200);
    expect(
      (await post(`/api/webhooks/messenger/${channelB.id}`, inbound('messenger', A.page, 'm-b-1'))).json(),
    ).toMatchObject({
      received: 0,
    });
    expect(await stored(1)).toEqual(expect.arrayContaining(['m-app-1', 'm-own-1']));
    expect((await stored(tenantB)).filter((id) => id.startsWith('m-'))).toEqual([]);
  });

  it('a manager of both pages who registers A’s page on B’s channel gets 409; nothing changes', async () => {
    sim.users.set('EAAG-user-both', { id: B.user, pageTokens: [A.pageToken, B.pageToken] });
    const taken = await t.call(adminB, 'POST', '/fb/register-pages', {
      whatsapp: channelB.id,
      accountId: B.user,
      userToken: 'EAAG-user-both',
    });
    expect([taken.statusCode, taken.json()]).toEqual([409, { error: 'ERR_CHANNEL_IDENTITY_TAKEN' }]);
    expect(await row(channelB.id)).toMatchObject({ status: 'DISCONNECTED', providerKey: null, tokenAPI: B.pageToken });
    expect((await row(channelA.id)).providerKey).toBe(`messenger:${A.page}`);
  });

  it('a logout releases the claim', async () => {
    expect((await t.call(adminA, 'POST', '/fb/logout-pages', { whatsapp: channelA.id })).statusCode).toBe(200);
    expect(await row(channelA.id)).toMatchObject({ status: 'DISCONNECTED', providerKey: null });
  });
});
