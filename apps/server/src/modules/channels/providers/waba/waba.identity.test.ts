/**
 * Provider identity is a credential (issue 22) for WhatsApp Cloud API channels, over the app's HTTP routes and the
 * Graph simulator: tenant B cannot take tenant A's number by editing its own connected channel to A's phone number id
 * (the edit disconnects, the start is refused, A's customers keep landing in A through both webhook URLs); a token
 * that does reach the number still finds it claimed (409); the number must be one of the named business account's;
 * every identity field edit disconnects and releases the claim; the database refuses a second claim; the app-level
 * router refuses an id two channels answer to; the verification GET is no id oracle.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChannelDto } from '@conversa/shared';
import { systemContext, withSystem, withTenant } from '../../../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { messages } from '../../../messages/messages.tables.js';
import { isProviderKeyConflict } from '../../channels.identity.js';
import type { WebhookIntake } from '../../channels.intake.js';
import { createAdapterRegistry, type AdapterRegistry } from '../../channels.registry.js';
import * as repo from '../../channels.repository.js';
import { createSessionsService } from '../../channels.sessions.js';
import { channels } from '../../channels.tables.js';
import { signMetaBody } from '../../providers/meta/meta.signature.js';
import { createMetaWebhookRouter } from '../../providers/meta/meta.webhook-routing.js';
import { startWabaSimulator, wabaWebhook, type WabaSimulator } from './waba.simulator.js';

const APP_SECRET = 'identity-app-secret';
const A = { phone: '3300001', account: '4400001', token: 'EAAG-identity-a', secret: 'identity-a-secret' };
const B = { phone: '3300002', account: '4400002', token: 'EAAG-identity-b', secret: 'identity-b-secret' };
/** A BSP's token that reaches both business accounts (it proves ownership of both numbers). */
const SHARED_TOKEN = 'EAAG-identity-bsp';
const FRESH = { ...A, phone: '3300101', token: 'EAAG-identity-c', secret: 'identity-c-secret' };
const RACE = { ...A, phone: '3300202', token: 'EAAG-identity-d', secret: 'identity-d-secret' };

let t: TestApp;
let sim: WabaSimulator;
let adminA: TestUser;
let adminB: TestUser;
let tenantB: number;
let channelA: ChannelDto;
let channelB: ChannelDto;

const textFor = (phone: string, id: string, from = '5511987650001') =>
  wabaWebhook(phone, {
    contacts: [{ wa_id: from, profile: { name: 'Cliente' } }],
    messages: [{ from, id, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: id } }],
  });

function post(url: string, payload: object, secret: string) {
  const body = JSON.stringify(payload);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(body, secret) },
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
const start = (admin: TestUser, id: number) => t.call(admin, 'POST', `/whatsappsession/${id}`);
const edit = async (admin: TestUser, id: number, patch: object) =>
  t.call(admin, 'PUT', `/whatsapp/${id}`, { ...(await dto(admin, id)), ...patch });

async function connect(admin: TestUser, values: typeof A): Promise<ChannelDto> {
  const created = await t.call(admin, 'POST', '/whatsapp', {
    name: `WABA ${values.phone}`,
    type: 'waba',
    tokenAPI: values.token,
    wabaId: values.phone,
    bmToken: values.account,
    metaAppSecret: values.secret,
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json<ChannelDto>().id;
  const started = await start(admin, id);
  expect(started.statusCode, started.body).toBe(200);
  return dto(admin, id);
}

beforeAll(async () => {
  sim = await startWabaSimulator();
  for (const v of [A, B]) {
    sim.phones.set(v.phone, {
      token: v.token,
      displayPhoneNumber: `+55 11 3300-000${v.phone.at(-1)}`,
      verifiedName: 'Loja',
      businessAccountId: v.account,
    });
  }
  sim.accountAccess.set(SHARED_TOKEN, new Set([A.account, B.account]));
  // A third number of A's account for the edit cases (its own token).
  for (const extra of [FRESH, RACE]) {
    sim.phones.set(extra.phone, {
      token: extra.token,
      displayPhoneNumber: `+55 11 ${extra.phone}`,
      verifiedName: 'Loja',
      businessAccountId: A.account,
    });
  }
  t = await createTestApp({ META_GRAPH_URL: sim.url, META_APP_SECRET: APP_SECRET, PUBLIC_URL: 'https://c.example' });
  ({ admin: adminA } = await t.createStaff());
  tenantB = await t.createTenant();
  ({ admin: adminB } = await t.createStaff(tenantB));
  channelA = await connect(adminA, A);
  channelB = await connect(adminB, B);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('a start claims the number it proved', () => {
  it('both tenants connected their own numbers, each holding its claim', async () => {
    expect(channelA.status).toBe('CONNECTED');
    expect(channelB.status).toBe('CONNECTED');
    expect((await row(channelA.id)).providerKey).toBe(`waba:${A.phone}`);
    expect((await row(channelB.id)).providerKey).toBe(`waba:${B.phone}`);
  });
});

describe("tenant B tries to take tenant A's number", () => {
  it("editing its connected channel to A's number disconnects it at once; its start is refused", async () => {
    const sessions: { id: number; status: string }[] = [];
    const off = t.platform.events.subscribe('channels.session_changed', ({ session }) => void sessions.push(session));
    const edited = await edit(adminB, channelB.id, { wabaId: A.phone });
    off();
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<ChannelDto>().status).toBe('DISCONNECTED');
    expect(sessions).toContainEqual(expect.objectContaining({ id: channelB.id, status: 'DISCONNECTED' }));
    expect((await row(channelB.id)).providerKey).toBeNull();

    // B's token does not reach A's number (nor A's business account).
    const refused = await start(adminB, channelB.id);
    expect([refused.statusCode, refused.json()]).toEqual([502, { error: 'ERR_CHANNEL_PROVIDER' }]);
    expect(await edit(adminB, channelB.id, { bmToken: A.account })).toMatchObject({ statusCode: 200 });
    expect((await start(adminB, channelB.id)).statusCode).toBe(502);
    expect(await row(channelB.id)).toMatchObject({ status: 'DISCONNECTED', providerKey: null });
    expect((await row(channelA.id)).providerKey).toBe(`waba:${A.phone}`);
  });

  it("A's customers still land in A only, through the app-level and the per-channel URL", async () => {
    const app = await post('/api/webhooks/meta', textFor(A.phone, 'wamid.id-app-1'), APP_SECRET);
    expect([app.statusCode, app.json()]).toEqual([200, { ok: true, received: 1, ignored: 0 }]);
    const own = await post(`/api/webhooks/waba/${channelA.id}`, textFor(A.phone, 'wamid.id-own-1'), A.secret);
    expect(own.statusCode).toBe(200);
    // B's own URL, signed with B's own app secret: B's channel is not connected, nothing is stored.
    const intoB = await post(`/api/webhooks/waba/${channelB.id}`, textFor(A.phone, 'wamid.id-b-1'), B.secret);
    expect(intoB.json()).toMatchObject({ received: 0 });
    const inA = await stored(1);
    expect(inA).toEqual(expect.arrayContaining(['wamid.id-app-1', 'wamid.id-own-1']));
    expect(await stored(tenantB)).toEqual([]);
  });

  it('a token that does reach the number finds it claimed: 409, B left disconnected', async () => {
    expect((await edit(adminB, channelB.id, { tokenAPI: SHARED_TOKEN })).statusCode).toBe(200);
    const taken = await start(adminB, channelB.id);
    expect([taken.statusCode, taken.json()]).toEqual([409, { error: 'ERR_CHANNEL_IDENTITY_TAKEN' }]);
    expect(await row(channelB.id)).toMatchObject({ status: 'DISCONNECTED', providerKey: null });
    const app = await post('/api/webhooks/meta', textFor(A.phone, 'wamid.id-app-2'), APP_SECRET);
    expect(app.json()).toMatchObject({ received: 1, ignored: 0 });
    expect(await stored(tenantB)).toEqual([]);
    expect(await stored(1)).toContain('wamid.id-app-2');
  });

  it('a disconnect releases the claim: then the other proven channel may take the number, and A is refused', async () => {
    expect((await t.call(adminA, 'DELETE', `/whatsappsession/${channelA.id}`)).statusCode).toBe(200);
    expect((await row(channelA.id)).providerKey).toBeNull();
    expect((await start(adminB, channelB.id)).statusCode).toBe(200);
    expect((await row(channelB.id)).providerKey).toBe(`waba:${A.phone}`);
    expect((await start(adminA, channelA.id)).json()).toEqual({ error: 'ERR_CHANNEL_IDENTITY_TAKEN' });
    // Back as it was: B on its own number, A on its own.
    expect((await edit(adminB, channelB.id, { wabaId: B.phone, bmToken: B.account })).statusCode).toBe(200);
    expect((await start(adminB, channelB.id)).statusCode).toBe(200);
    expect((await start(adminA, channelA.id)).statusCode).toBe(200);
    expect((await row(channelA.id)).providerKey).toBe(`waba:${A.phone}`);
  });

  it("the number must be one of the named business account's, even for a token that reaches both", async () => {
    // The shared token reaches A's account, but B's number is not listed under it.
    expect((await edit(adminB, channelB.id, { bmToken: A.account })).statusCode).toBe(200);
    expect((await start(adminB, channelB.id)).statusCode).toBe(502);
    expect(sim.requests.at(-1)).toMatchObject({ path: `/${A.account}/phone_numbers` });
    expect((await edit(adminB, channelB.id, { bmToken: B.account })).statusCode).toBe(200);
    expect((await start(adminB, channelB.id)).statusCode).toBe(200);
  });
});

describe('an edit of an identity field disconnects and releases the claim', () => {
  it.each([
    ['wabaId', { wabaId: '3399999' }],
    ['tokenAPI', { tokenAPI: 'EAAG-identity-other' }],
    ['bmToken', { bmToken: '4499999' }],
    ['metaAppSecret', { metaAppSecret: 'another-app-secret' }],
  ])('%s', async (field, patch) => {
    const fresh = await connect(adminA, FRESH);
    expect((await row(fresh.id)).providerKey).toBe(`waba:${FRESH.phone}`);
    const before = await post('/api/webhooks/meta', textFor(FRESH.phone, `wamid.before-${field}`), APP_SECRET);
    expect(before.json()).toMatchObject({ received: 1 });
    const edited = await edit(adminA, fresh.id, patch);
    expect(edited.json<ChannelDto>().status).toBe('DISCONNECTED');
    expect((await row(fresh.id)).providerKey).toBeNull();
    // The router dropped its cached route at once: the number's traffic is no longer this channel's.
    const app = await post('/api/webhooks/meta', textFor(FRESH.phone, `wamid.edit-${field}`), APP_SECRET);
    expect(app.json()).toMatchObject({ received: 0, ignored: 1 });
  });

  it('other fields, the same values again and empty secrets keep it connected with its claim', async () => {
    const fresh = await connect(adminA, FRESH);
    const edited = await edit(adminA, fresh.id, {
      name: 'Renamed',
      farewellMessage: 'Tchau',
      wabaId: FRESH.phone,
      tokenAPI: '',
      metaAppSecret: '',
    });
    expect(edited.json<ChannelDto>()).toMatchObject({ status: 'CONNECTED', name: 'Renamed' });
    expect((await row(fresh.id)).providerKey).toBe(`waba:${FRESH.phone}`);
  });
});

describe('an identity edit made while the start is at Graph', () => {
  it('wins: the start proved the old values, so it writes nothing and claims nothing', async () => {
    const fresh = await connect(adminA, RACE);
    expect((await t.call(adminA, 'DELETE', `/whatsappsession/${fresh.id}`)).statusCode).toBe(200);
    const real = createAdapterRegistry(t.platform.config);
    const waba = real.forType('waba')!;
    // Graph answers only after the admin saved another number on the channel (the edit's own write).
    const slow: AdapterRegistry = {
      ...real,
      forType: (type) =>
        type !== 'waba'
          ? real.forType(type)
          : {
              ...waba,
              async start(channel, url, options) {
                const started = await waba.start(channel, url, options);
                await withTenant(t.platform.db, systemContext(1), (tx) =>
                  repo.updateChannel(tx, systemContext(1).tenantId, fresh.id, {
                    wabaId: '3399999',
                    status: 'DISCONNECTED',
                    providerKey: null,
                  }),
                );
                return started;
              },
            },
    };
    const sessions = createSessionsService({
      db: t.platform.db,
      events: t.platform.events,
      registry: slow,
      logger: t.platform.logger,
      publicUrl: 'https://c.example',
      jobs: t.jobs,
      host: () => undefined,
    });
    const state = await sessions.startSession(systemContext(1), fresh.id);
    expect(state.status).toBe('DISCONNECTED');
    expect(await row(fresh.id)).toMatchObject({ wabaId: '3399999', status: 'DISCONNECTED', providerKey: null });
  });
});

describe('the claim is held by the database', () => {
  const insert = (tenantId: number, values: Partial<typeof channels.$inferInsert>) =>
    withTenant(t.platform.db, systemContext(tenantId), (tx) =>
      tx
        .insert(channels)
        .values({ tenantId, name: 'Direct', type: 'waba', webhookSecret: 'x', ...values })
        .returning({ id: channels.id }),
    );

  it("a second claim of a held key fails in any tenant (insert or update); unclaimed rows don't collide", async () => {
    const error = await insert(tenantB, { providerKey: `waba:${A.phone}`, status: 'CONNECTED' }).catch((e) => e);
    expect(isProviderKeyConflict(error)).toBe(true);
    const [free] = await insert(tenantB, { wabaId: A.phone });
    await insert(tenantB, { wabaId: A.phone });
    const update = await withTenant(t.platform.db, systemContext(tenantB), (tx) =>
      tx
        .update(channels)
        .set({ providerKey: `waba:${A.phone}` })
        .where(eq(channels.id, free!.id)),
    ).catch((e) => e);
    expect(isProviderKeyConflict(update)).toBe(true);
    await withTenant(t.platform.db, systemContext(tenantB), (tx) =>
      tx.delete(channels).where(eq(channels.name, 'Direct')),
    );
  });
});

describe('the app-level router and an id two channels answer to', () => {
  it('refuses it (ignored, a warning), stores nothing anywhere, and routes again once only the claimant is left', async () => {
    // A connected row that names A's number without the claim: data from before the claims existed.
    const [legacy] = await withTenant(t.platform.db, systemContext(tenantB), (tx) =>
      tx
        .insert(channels)
        .values({
          tenantId: tenantB,
          name: 'Legacy',
          type: 'waba',
          wabaId: A.phone,
          status: 'CONNECTED',
          webhookSecret: 'legacy',
          metaAppSecret: B.secret,
        })
        .returning({ id: channels.id }),
    );
    // Written behind the service's back: the app's router is told, as an edit would tell it.
    t.platform.events.publish('channels.deleted', { tenantId: tenantB, channelId: legacy!.id });
    const warn = vi.fn();
    const router = createMetaWebhookRouter({
      db: t.platform.db,
      events: t.platform.events,
      registry: createAdapterRegistry(t.platform.config),
      // Never reached: a refused id is handed to nobody.
      intake: {} as WebhookIntake,
      appSecret: APP_SECRET,
      logger: { warn },
    });
    const request = (id: string) => {
      const payload = textFor(A.phone, id);
      const rawBody = Buffer.from(JSON.stringify(payload));
      return { headers: { 'x-hub-signature-256': signMetaBody(rawBody, APP_SECRET) }, body: payload, rawBody };
    };
    expect(await router.receive(request('wamid.two-1'))).toEqual({ ok: true, received: 0, ignored: 1 });
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ providerKey: `waba:${A.phone}`, channelIds: [channelA.id, legacy!.id] }),
      expect.stringContaining('several channels'),
    );
    // Over HTTP too (the app's own router).
    const app = await post('/api/webhooks/meta', textFor(A.phone, 'wamid.two-2'), APP_SECRET);
    expect(app.json()).toMatchObject({ received: 0, ignored: 1 });
    const all = [...(await stored(1)), ...(await stored(tenantB))];
    expect(all.filter((id) => id.startsWith('wamid.two-'))).toEqual([]);

    await withTenant(t.platform.db, systemContext(tenantB), (tx) =>
      tx.delete(channels).where(eq(channels.id, legacy!.id)),
    );
    t.platform.events.publish('channels.deleted', { tenantId: tenantB, channelId: legacy!.id });
    const again = await post('/api/webhooks/meta', textFor(A.phone, 'wamid.two-3'), APP_SECRET);
    expect(again.json()).toMatchObject({ received: 1, ignored: 0 });
    expect(await stored(1)).toContain('wamid.two-3');
    expect(await stored(tenantB)).toEqual([]);
  });
});

describe('the verification GET is no id oracle', () => {
  it('an unknown id, another type’s channel and a wrong token answer alike', async () => {
    const verify = (type: string, id: number, token: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/webhooks/${type}/${id}?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=777`,
      });
    const good = await verify('waba', channelA.id, channelA.metaWebhook!.verifyToken);
    expect([good.statusCode, good.body]).toEqual([200, '777']);
    const answers = [
      await verify('waba', channelA.id, 'wrong'),
      await verify('waba', 987654321, 'wrong'),
      await verify('waba', 987654321, channelA.metaWebhook!.verifyToken),
      await verify('messenger', channelA.id, channelA.metaWebhook!.verifyToken),
      await verify('instagram', 987654321, 'wrong'),
    ];
    for (const answer of answers) {
      expect([answer.statusCode, answer.json()]).toEqual([403, { error: 'ERR_NO_PERMISSION' }]);
    }
  });
});
