/**
 * The QR gateways' public webhook routes before authentication: an unknown id, another type's channel and a wrong
 * credential answer alike (no id oracle); nothing larger than 1 MiB is held in memory before the credential is
 * proven (Evolution's header secret is checked before the body is read, Wuzapi's HMAC while it streams); only then
 * may a body reach 32 MiB. Evolution's "webhook by events" URLs are the channel's own.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChannelDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import type { ChannelCredentials, InboundEvent } from './channels.adapter.js';
import { setInboundSink } from './channels.intake.js';
import type * as Repository from './channels.repository.js';
import { GATEWAY_WEBHOOK_MAX_BYTES } from './channels.webhooks.routes.js';
import type * as Spool from './channels.webhooks.spool.js';
import { EVOLUTION_SECRET_HEADER } from './providers/evolution/evolution.schemas.js';
import { WUZAPI_SIGNATURE_HEADER } from './providers/wuzapi/wuzapi.adapter.js';

const channelReads = vi.hoisted(() => ({ count: 0 }));
// What each spooled read found (the real read runs).
const spoolReads = vi.hoisted(() => [] as Promise<{ spilled: boolean; body: Buffer | null }>[]);
vi.mock('./channels.webhooks.spool.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Spool>();
  return {
    ...actual,
    readSignedBody: (...args: Parameters<typeof actual.readSignedBody>) => {
      const read = actual.readSignedBody(...args);
      spoolReads.push(read);
      return read;
    },
  };
});
vi.mock('./channels.repository.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Repository>();
  return {
    ...actual,
    findChannelById: async (...args: Parameters<typeof actual.findChannelById>) => {
      channelReads.count += 1;
      return actual.findChannelById(...args);
    },
  };
});

let t: TestApp;
let admin: TestUser;
let evo: ChannelDto;
let meow: ChannelDto;
let telegram: ChannelDto;
const secrets = new Map<number, string>();
const received: { channel: ChannelCredentials; event: InboundEvent }[] = [];
const REFUSED = { error: 'ERR_WEBHOOK_UNAUTHORIZED' };

const sign = (body: string | Buffer, key: string) => crypto.createHmac('sha256', key).update(body).digest('hex');
const wuzapiEvents = JSON.parse(
  fs.readFileSync(new URL('./providers/wuzapi/fixtures/events.json', import.meta.url), 'utf8'),
) as { text: { event: { Info: Record<string, unknown>; Message: Record<string, unknown> } } };
const wuzapiText = (id: string, padding = '') => {
  const text = structuredClone(wuzapiEvents.text);
  text.event.Info.ID = id;
  text.event.Message.conversation = `oi${padding}`;
  return JSON.stringify(text);
};
const evolutionText = (id: string, instance: string, padding = '') =>
  JSON.stringify({
    event: 'messages.upsert',
    instance,
    data: {
      key: { remoteJid: '5511987654321@s.whatsapp.net', fromMe: false, id },
      pushName: 'Maria',
      message: { conversation: `oi${padding}` },
      messageType: 'conversation',
      messageTimestamp: 1_763_700_000,
    },
  });
const claim = (id: number, key: string | null) =>
  t.database.executeSql('update channels set provider_key = $1 where id = $2', [key, id]);
const post = (url: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', ...headers }, payload });

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://conversa.example' });
  ({ admin } = await t.createStaff());
  const create = async (body: object) => {
    const res = await t.call(admin, 'POST', '/whatsapp', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ChannelDto>();
  };
  evo = await create({ name: 'Loja', type: 'evo', remotePath: 'http://127.0.0.1:9', tokenAPI: 'evo-key' });
  meow = await create({ name: 'Meow', type: 'meow', remotePath: 'http://127.0.0.1:9', tokenAPI: 'wuz-token' });
  telegram = await create({
    name: 'Tg',
    type: 'telegram',
    tokenTelegram: '7000000009:AAH-gateway_tests_bot_token_0009',
  });
  const { rows } = await t.database.executeSql('select id, webhook_secret from channels');
  for (const row of rows as { id: number; webhook_secret: string }[]) secrets.set(row.id, row.webhook_secret);
  // As a start the gateway accepted leaves them (the sessions service's claim), without starting anything here.
  for (const channel of [evo, meow]) await claim(channel.id, `test:${channel.type}:${channel.id}`);
  setInboundSink(t.platform, {
    async receive(channel, event) {
      received.push({ channel, event });
    },
  });
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  received.splice(0);
});

describe('no id oracle on the public webhook routes', () => {
  it('answers an unknown id, another type, a malformed id and a wrong credential with the same 401', async () => {
    const evoBody = evolutionText('A1', evo.wabaId!);
    const meowBody = wuzapiText('M1');
    const attempts = [
      // Evolution: no such channel, a Wuzapi channel's id, a malformed id, no secret, a wrong secret.
      post('/api/webhooks/evo/999999', evoBody, { [EVOLUTION_SECRET_HEADER]: secrets.get(evo.id)! }),
      post(`/api/webhooks/evo/${meow.id}`, evoBody, { [EVOLUTION_SECRET_HEADER]: secrets.get(meow.id)! }),
      post('/api/webhooks/evo/abc', evoBody),
      post(`/api/webhooks/evo/${evo.id}`, evoBody),
      post(`/api/webhooks/evo/${evo.id}`, evoBody, { [EVOLUTION_SECRET_HEADER]: `${secrets.get(evo.id)}x` }),
      post(`/api/webhooks/evo/999999/messages-upsert`, evoBody),
      post(`/api/webhooks/evo/${evo.id}/messages-upsert`, evoBody, { [EVOLUTION_SECRET_HEADER]: 'wrong' }),
      // Wuzapi: no such channel, an Evolution channel's id, no signature, a wrong one.
      post('/api/webhooks/meow/999999', meowBody, {
        [WUZAPI_SIGNATURE_HEADER]: sign(meowBody, secrets.get(meow.id)!),
      }),
      post(`/api/webhooks/meow/${evo.id}`, meowBody, {
        [WUZAPI_SIGNATURE_HEADER]: sign(meowBody, secrets.get(evo.id)!),
      }),
      post(`/api/webhooks/meow/${meow.id}`, meowBody),
      post(`/api/webhooks/meow/${meow.id}`, meowBody, { [WUZAPI_SIGNATURE_HEADER]: sign(meowBody, 'x'.repeat(43)) }),
      // Any other provider's route: an unknown channel, a known one with a wrong secret, an unknown provider.
      post('/api/webhooks/telegram/999999', '{"update_id":1}'),
      post(`/api/webhooks/telegram/${telegram.id}`, '{"update_id":1}'),
      post(`/api/webhooks/nosuch/${telegram.id}`, '{"update_id":1}'),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json()).toEqual(REFUSED);
    }
    expect(received).toEqual([]);
  });

  it('accepts the same calls with the channel credential', async () => {
    const evoBody = evolutionText('A2', evo.wabaId!);
    const ok = await post(`/api/webhooks/evo/${evo.id}`, evoBody, { [EVOLUTION_SECRET_HEADER]: secrets.get(evo.id)! });
    expect(ok.statusCode, ok.body).toBe(200);
    const meowBody = wuzapiText('M2');
    const signed = await post(`/api/webhooks/meow/${meow.id}`, meowBody, {
      [WUZAPI_SIGNATURE_HEADER]: sign(meowBody, secrets.get(meow.id)!),
    });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(received.map((r) => [r.channel.id, (r.event as { providerMessageId?: string }).providerMessageId])).toEqual([
      [evo.id, 'A2'],
      [meow.id, 'M2'],
    ]);
  });
});

describe('a disconnected gateway channel', () => {
  it('stores what an authenticated webhook brings while it holds its claim, whatever its status', async () => {
    // Neither channel ever connected (DISCONNECTED), both hold their claim: the calls above were stored.
    for (const id of [evo.id, meow.id]) {
      expect((await t.call(admin, 'GET', `/whatsapp/${id}`)).json()).toMatchObject({ status: 'DISCONNECTED' });
    }
    const headers = { [EVOLUTION_SECRET_HEADER]: secrets.get(evo.id)! };
    const stored = await post(`/api/webhooks/evo/${evo.id}`, evolutionText('D1', evo.wabaId!), headers);
    expect(stored.json()).toEqual({ ok: true, received: 1, ignored: false });
    expect(received.map((r) => (r.event as { providerMessageId?: string }).providerMessageId)).toEqual(['D1']);
  });

  it('drops it (200, ignored) once the claim is released (a disconnect, an identity edit) or the channel is off', async () => {
    const headers = { [EVOLUTION_SECRET_HEADER]: secrets.get(evo.id)! };
    // Another process released the claim: seen once the kept row expires.
    await claim(evo.id, null);
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 60_000);
    try {
      const dropped = await post(`/api/webhooks/evo/${evo.id}`, evolutionText('D2', evo.wabaId!), headers);
      expect(dropped.json()).toEqual({ ok: true, received: 0, ignored: true });
    } finally {
      await claim(evo.id, `test:evo:${evo.id}`);
      clock.mockReturnValue(Date.now() + 120_000);
    }
    const reclaimed = await post(`/api/webhooks/evo/${evo.id}`, evolutionText('D3', evo.wabaId!), headers);
    clock.mockRestore();
    expect(reclaimed.json()).toEqual({ ok: true, received: 1, ignored: false });
    const active = async (isActive: boolean) => {
      const res = await t.call(admin, 'PUT', `/whatsapp/${evo.id}`, { ...evo, isActive });
      expect(res.statusCode, res.body).toBe(200);
    };
    await active(false);
    try {
      const off = await post(`/api/webhooks/evo/${evo.id}`, evolutionText('D4', evo.wabaId!), headers);
      expect(off.json()).toEqual({ ok: true, received: 0, ignored: true });
    } finally {
      await active(true);
    }
    expect(received.map((r) => (r.event as { providerMessageId?: string }).providerMessageId)).toEqual(['D3']);
  });
});

describe('Evolution "webhook by events" URLs', () => {
  it('take each event at <url>/<event-in-kebab-case> with the same authentication', async () => {
    const headers = { [EVOLUTION_SECRET_HEADER]: secrets.get(evo.id)! };
    const byEvent = await post(
      `/api/webhooks/evo/${evo.id}/messages-upsert`,
      evolutionText('E1', evo.wabaId!),
      headers,
    );
    expect(byEvent.statusCode, byEvent.body).toBe(200);
    expect(byEvent.json()).toEqual({ ok: true, received: 1, ignored: false });
    const state = JSON.stringify({ event: 'connection.update', instance: evo.wabaId, data: { state: 'connecting' } });
    expect((await post(`/api/webhooks/evo/${evo.id}/connection-update`, state, headers)).statusCode).toBe(200);
    expect((await t.call(admin, 'GET', `/whatsapp/${evo.id}`)).json()).toMatchObject({ status: 'OPENING' });
    // Only a kebab-case event name is a suffix Evolution builds.
    expect((await post(`/api/webhooks/evo/${evo.id}/Messages_Upsert`, '{}', headers)).statusCode).toBe(400);
    expect(received.map((r) => r.event.kind)).toEqual(['message']);
  });
});

describe('body limits before authentication', () => {
  const big = (bytes: number) => `{"padding":"${'x'.repeat(bytes)}"}`;

  it('refuses an unauthenticated Evolution body over 1 MiB before reading it (not even its JSON)', async () => {
    const reads = channelReads.count;
    const notJson = `{${'x'.repeat(2 * 1024 * 1024)}`;
    const wrong = await post(`/api/webhooks/evo/${evo.id}`, notJson, { [EVOLUTION_SECRET_HEADER]: 'wrong' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual(REFUSED);
    expect(wrong.headers.connection).toBe('close');
    const unknown = await post('/api/webhooks/evo/999999', notJson);
    expect(unknown.json()).toEqual(REFUSED);
    // One channel read each at most (the row is kept for a few seconds): no body was parsed.
    expect(channelReads.count - reads).toBeLessThanOrEqual(2);
  });

  it('lets an authenticated Evolution webhook reach 32 MiB, and no further', async () => {
    const headers = { [EVOLUTION_SECRET_HEADER]: secrets.get(evo.id)! };
    const large = await post(
      `/api/webhooks/evo/${evo.id}`,
      evolutionText('B1', evo.wabaId!, 'y'.repeat(3 << 20)),
      headers,
    );
    expect(large.statusCode, large.body).toBe(200);
    const over = await post(`/api/webhooks/evo/${evo.id}`, big(GATEWAY_WEBHOOK_MAX_BYTES), headers);
    expect(over.statusCode).toBe(413);
    expect(over.json()).toEqual({ error: 'ERR_PAYLOAD_TOO_LARGE' });
  });

  it('reads a Wuzapi body over 1 MiB through a file while checking its HMAC, parsing it only when it matches', async () => {
    spoolReads.splice(0);
    const body = wuzapiText('W1', 'z'.repeat(3 << 20));
    const forged = await post(`/api/webhooks/meow/${meow.id}`, body, { [WUZAPI_SIGNATURE_HEADER]: 'ab'.repeat(32) });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual(REFUSED);
    const signed = await post(`/api/webhooks/meow/${meow.id}`, body, {
      [WUZAPI_SIGNATURE_HEADER]: sign(body, secrets.get(meow.id)!),
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const reads = await Promise.all(spoolReads);
    expect(reads.map((read) => [read.spilled, read.body !== null])).toEqual([
      [true, false],
      [true, true],
    ]);
    expect(received.map((r) => (r.event as { providerMessageId?: string }).providerMessageId)).toEqual(['W1']);
    const over = await post(`/api/webhooks/meow/${meow.id}`, big(GATEWAY_WEBHOOK_MAX_BYTES), {
      [WUZAPI_SIGNATURE_HEADER]: 'ab'.repeat(32),
    });
    expect(over.statusCode).toBe(413);
  });

  it('keeps every other webhook route at the app limit of 1 MiB', async () => {
    const res = await post(`/api/webhooks/telegram/${telegram.id}`, big(2 << 20));
    expect(res.statusCode).toBe(413);
  });
});
