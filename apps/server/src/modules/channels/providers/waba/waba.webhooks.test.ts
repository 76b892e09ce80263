/**
 * Meta webhooks of waba channels over the app's HTTP routes: the verification GETs (per channel and app level), the
 * signature rules (missing, wrong, another channel's or app's secret -> 401 and nothing stored), replays stored once,
 * oversized (413) and malformed (400) bodies, and the app-level POST routed by phone number id across tenants.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { messages } from '../../../messages/messages.tables.js';
import type { WebhookIntake } from '../../channels.intake.js';
import { createAdapterRegistry } from '../../channels.registry.js';
import { signMetaBody } from '../../providers/meta/meta.signature.js';
import { createMetaWebhookRouter } from '../../providers/meta/meta.webhook-routing.js';
import { startWabaSimulator, wabaWebhook, type WabaSimulator } from './waba.simulator.js';

const APP_SECRET = 'installation-app-secret';
const VERIFY_TOKEN = 'installation-verify-token';
const A = { phone: '1100001', token: 'EAAG-tenant-a', secret: 'channel-a-app-secret' };
const B = { phone: '1100002', token: 'EAAG-tenant-b', secret: 'channel-b-app-secret' };

let t: TestApp;
let sim: WabaSimulator;
let adminA: TestUser;
let adminB: TestUser;
let tenantB: number;
let channelA: ChannelDto;
let channelB: ChannelDto;

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;

/** A text message for a phone number id, with its own wamid. */
const textFor = (phone: string, id: string, from = '5511987654321') =>
  wabaWebhook(phone, {
    contacts: [{ wa_id: from, profile: { name: 'Cliente' } }],
    messages: [{ from, id, timestamp: '1763700000', type: 'text', text: { body: `mensagem ${id}` } }],
  });

function post(url: string, payload: object | string, secret: string | null, headers: Record<string, string> = {}) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/json',
      ...(secret ? { 'x-hub-signature-256': signMetaBody(body, secret) } : {}),
      ...headers,
    },
    payload: body,
  });
}

/** Provider ids of the messages stored in a tenant (RLS: only that tenant's rows). */
const stored = (tenantId: number) =>
  withTenant(t.platform.db, systemContext(tenantId), async (tx) =>
    (await tx.select({ id: messages.messageId }).from(messages)).map((row) => row.id ?? ''),
  );

async function connect(admin: TestUser, values: typeof A): Promise<ChannelDto> {
  const created = await t.call(admin, 'POST', '/whatsapp', {
    name: `WABA ${values.phone}`,
    type: 'waba',
    tokenAPI: values.token,
    wabaId: values.phone,
    bmToken: '2200001',
    metaAppSecret: values.secret,
  });
  expect(created.statusCode, created.body).toBe(201);
  const channel = created.json<ChannelDto>();
  const started = await t.call(admin, 'POST', `/whatsappsession/${channel.id}`);
  expect(started.statusCode, started.body).toBe(200);
  return (await t.call(admin, 'GET', `/whatsapp/${channel.id}`)).json<ChannelDto>();
}

beforeAll(async () => {
  sim = await startWabaSimulator();
  for (const [v, display] of [
    [A, '+55 11 3000-0001'],
    [B, '+55 11 3000-0002'],
  ] as const) {
    sim.phones.set(v.phone, {
      token: v.token,
      displayPhoneNumber: display,
      verifiedName: 'Loja',
      businessAccountId: '2200001',
    });
  }
  t = await createTestApp({
    META_GRAPH_URL: sim.url,
    META_APP_SECRET: APP_SECRET,
    META_VERIFY_TOKEN: VERIFY_TOKEN,
    PUBLIC_URL: 'https://conversa.example',
  });
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

describe('waba channel and its webhook URL', () => {
  it('start verified the number against Graph: CONNECTED with its digits', () => {
    expect(channelA).toMatchObject({ status: 'CONNECTED', number: '551130000001' });
  });

  it('the DTO carries the URL and verify token to paste into Meta; Meta’s GET is answered with the challenge', async () => {
    expect(channelA.metaWebhook).toEqual({
      url: `https://conversa.example/api/webhooks/waba/${channelA.id}`,
      verifyToken: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const verify = (id: number, token: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/webhooks/waba/${id}?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=1158201444`,
      });
    const ok = await verify(channelA.id, channelA.metaWebhook!.verifyToken);
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('1158201444');
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
    expect((await verify(channelA.id, 'wrong')).statusCode).toBe(403);
    // Another channel's token does not verify this one.
    expect((await verify(channelA.id, channelB.metaWebhook!.verifyToken)).statusCode).toBe(403);
  });

  it('the app-level URL verifies with META_VERIFY_TOKEN only', async () => {
    const verify = (token: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/webhooks/meta?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=42`,
      });
    const ok = await verify(VERIFY_TOKEN);
    expect([ok.statusCode, ok.body]).toEqual([200, '42']);
    expect((await verify(channelA.metaWebhook!.verifyToken)).statusCode).toBe(403);
  });
});

describe('per-channel POST signature rules', () => {
  const url = () => `/api/webhooks/waba/${channelA.id}`;

  it('missing, wrong, another channel’s and another app’s signature: 401, nothing stored', async () => {
    const body = textFor(A.phone, 'wamid.sig-refused');
    const refused = [
      await post(url(), body, null),
      await post(url(), body, 'not-the-secret'),
      await post(url(), body, B.secret),
      await post(url(), body, 'some-other-meta-app'),
      await post(url(), body, null, { 'x-hub-signature-256': 'sha256=' + '0'.repeat(64) }),
      await post(url(), body, null, { 'x-hub-signature-256': 'sha1=abc' }),
    ];
    for (const response of refused) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'ERR_WEBHOOK_UNAUTHORIZED' });
    }
    expect(await stored(1)).not.toContain('wamid.sig-refused');
  });

  it('the channel’s own secret and the installation’s app secret are accepted; a replay is stored once', async () => {
    const first = await post(url(), textFor(A.phone, 'wamid.sig-own'), A.secret);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ ok: true, received: 1, ignored: false });
    expect((await post(url(), textFor(A.phone, 'wamid.sig-app'), APP_SECRET)).statusCode).toBe(200);
    expect((await post(url(), textFor(A.phone, 'wamid.sig-own'), A.secret)).statusCode).toBe(200);
    const ids = await stored(1);
    expect(ids.filter((id) => id === 'wamid.sig-own')).toHaveLength(1);
    expect(ids).toContain('wamid.sig-app');
  });

  it('a signature over other bytes than the body is refused (re-serialised JSON)', async () => {
    const payload = textFor(A.phone, 'wamid.sig-bytes');
    const body = JSON.stringify(payload, null, 2);
    const response = await t.app.inject({
      method: 'POST',
      url: url(),
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signMetaBody(JSON.stringify(payload), A.secret),
      },
      payload: body,
    });
    expect(response.statusCode).toBe(401);
  });

  it('another number’s change on this channel’s URL stores nothing', async () => {
    const response = await post(url(), textFor(B.phone, 'wamid.wrong-number'), A.secret);
    expect(response.json()).toEqual({ ok: true, received: 0, ignored: false });
    expect([...(await stored(1)), ...(await stored(tenantB))]).not.toContain('wamid.wrong-number');
  });

  it('malformed JSON and a body of the wrong shape: 400; oversized: 413; nothing stored', async () => {
    const bad = await post(url(), '{"object": "whatsapp_business_account", "entry": [', A.secret);
    expect(bad.statusCode).toBe(400);
    const wrong = await post(
      url(),
      { object: 'whatsapp_business_account', entry: [{ id: 1, changes: 'x' }] },
      A.secret,
    );
    expect([wrong.statusCode, wrong.json()]).toEqual([400, { error: 'ERR_VALIDATION', field: 'body' }]);
    const hostile = fixture('text');
    (
      hostile.entry as { changes: { value: { messages: { text: { body: unknown } }[] } }[] }[]
    )[0]!.changes[0]!.value.messages[0]!.text.body = {
      toString: 'x',
    };
    expect((await post(url(), hostile, A.secret)).statusCode).toBe(400);
    const big = textFor(A.phone, 'wamid.too-big') as {
      entry: { changes: { value: { messages: { text: { body: string } }[] } }[] }[];
    };
    big.entry[0]!.changes[0]!.value.messages[0]!.text.body = 'x'.repeat(1024 * 1024 + 10);
    expect((await post(url(), big, A.secret)).statusCode).toBe(413);
    expect(await stored(1)).not.toContain('wamid.too-big');
  });
});

describe('app-level POST /api/webhooks/meta', () => {
  const url = '/api/webhooks/meta';
  /** One body with a change for each number (and one no channel has). */
  const mixed = (suffix: string) => {
    const a = textFor(A.phone, `wamid.app-a-${suffix}`) as { entry: { changes: unknown[] }[] };
    const b = textFor(B.phone, `wamid.app-b-${suffix}`, '5521999998888') as { entry: { changes: unknown[] }[] };
    const unknown = textFor('9900009', `wamid.app-x-${suffix}`) as { entry: { changes: unknown[] }[] };
    a.entry[0]!.changes.push(b.entry[0]!.changes[0], unknown.entry[0]!.changes[0]);
    return a;
  };

  it('routes each change to its number’s channel (each in its own tenant); unknown numbers are ignored', async () => {
    const response = await post(url, mixed('1'), APP_SECRET);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ ok: true, received: 2, ignored: 1 });
    const inA = await stored(1);
    const inB = await stored(tenantB);
    expect(inA).toContain('wamid.app-a-1');
    expect(inA).not.toContain('wamid.app-b-1');
    expect(inB).toContain('wamid.app-b-1');
    expect(inB).not.toContain('wamid.app-a-1');
    expect([...inA, ...inB]).not.toContain('wamid.app-x-1');
    // Tenant A's admin sees only tenant A's conversation.
    const list = (await t.call(adminA, 'GET', '/tickets?status=pending&showAll=true')).json<{
      tickets: { contact: { number: string } }[];
    }>();
    const numbers = list.tickets.map((ticket) => ticket.contact.number);
    expect(numbers).toContain('5511987654321');
    expect(numbers).not.toContain('5521999998888');
  });

  it('a channel’s own secret signs only for that channel: a body that also targets another is 401, nothing stored', async () => {
    expect((await post(url, textFor(A.phone, 'wamid.app-own'), A.secret)).statusCode).toBe(200);
    const refused = await post(url, mixed('2'), A.secret);
    expect(refused.statusCode).toBe(401);
    const all = [...(await stored(1)), ...(await stored(tenantB))];
    expect(all).toContain('wamid.app-own');
    expect(all.filter((id) => id.endsWith('-2'))).toEqual([]);
  });

  it('unsigned, wrongly signed or malformed: 401/400, nothing stored', async () => {
    expect((await post(url, mixed('3'), null)).statusCode).toBe(401);
    expect((await post(url, mixed('3'), 'other-app')).statusCode).toBe(401);
    expect((await post(url, { object: 'whatsapp_business_account', entry: 'x' }, APP_SECRET)).statusCode).toBe(400);
    expect((await post(url, { object: 'something_else', entry: [] }, APP_SECRET)).statusCode).toBe(400);
    const all = [...(await stored(1)), ...(await stored(tenantB))];
    expect(all.filter((id) => id.endsWith('-3'))).toEqual([]);
  });

  it('a malformed change of one channel stores nothing of the others', async () => {
    const body = mixed('4') as { entry: { changes: { value: { messages: { timestamp: unknown }[] } }[] }[] };
    body.entry[0]!.changes[1]!.value.messages[0]!.timestamp = 'yesterday';
    expect((await post(url, body, APP_SECRET)).statusCode).toBe(400);
    expect((await stored(1)).filter((id) => id.endsWith('-4'))).toEqual([]);
  });
});

describe('the app-level router under a flood of made-up ids', () => {
  const router = () =>
    createMetaWebhookRouter({
      db: t.platform.db,
      events: t.platform.events,
      registry: createAdapterRegistry(t.platform.config),
      // Never reached: no made-up id has a channel.
      intake: {} as WebhookIntake,
      appSecret: APP_SECRET,
      routeCacheMax: 50,
    });
  const pages = (from: number) => ({
    object: 'page',
    entry: Array.from({ length: 40 }, (_, i) => ({ id: String(900_000 + from + i), time: 1, messaging: [] })),
  });
  const request = (payload: object, signature?: string) => {
    const rawBody = Buffer.from(JSON.stringify(payload));
    return {
      headers: { 'x-hub-signature-256': signature ?? signMetaBody(rawBody, APP_SECRET) },
      body: payload,
      rawBody,
    };
  };

  it('keeps at most its cap of provider ids, and looks nothing up for a request without a signature', async () => {
    const flooded = router();
    for (const from of [0, 40, 80, 120]) {
      expect(await flooded.receive(request(pages(from)))).toEqual({ ok: true, received: 0, ignored: 40 });
      expect(flooded.cachedRoutes()).toBeLessThanOrEqual(50);
    }
    const unsigned = router();
    await expect(unsigned.receive(request(pages(0), 'sha256=nope'))).rejects.toMatchObject({
      code: 'ERR_WEBHOOK_UNAUTHORIZED',
    });
    expect(unsigned.cachedRoutes()).toBe(0);
  });
});
