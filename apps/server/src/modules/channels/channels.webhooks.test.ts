/**
 * Webhook intake: only the channel's secret opens it, a malformed update is a 400, events reach the inbound sink
 * with the channel, and the provider is answered 2xx only after the sink stored them.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChannelDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import type { ChannelCredentials, InboundEvent } from './channels.adapter.js';
import { setInboundSink, WEBHOOK_CHANNEL_TTL_MS } from './channels.intake.js';
import type * as Repository from './channels.repository.js';
import { TELEGRAM_SECRET_HEADER } from './providers/telegram/telegram.adapter.js';
import { startTelegramSimulator, type TelegramSimulator } from './providers/telegram/telegram.simulator.js';

// Counts the webhook's channel reads (the real read runs), and can hold them until a test lets them go.
const channelReads = vi.hoisted(() => ({ count: 0, gate: null as Promise<void> | null }));
vi.mock('./channels.repository.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Repository>();
  return {
    ...actual,
    findChannelById: async (...args: Parameters<typeof actual.findChannelById>) => {
      channelReads.count += 1;
      if (channelReads.gate) await channelReads.gate;
      return actual.findChannelById(...args);
    },
  };
});

const TOKEN = '7000000001:AAH-webhook_bot_token_for_tests_001';
const fixture = (name: string): object =>
  JSON.parse(fs.readFileSync(new URL(`./providers/telegram/fixtures/${name}.json`, import.meta.url), 'utf8'));

let t: TestApp;
let sim: TelegramSimulator;
let admin: TestUser;
let channel: ChannelDto;
let secret: string;
const received: { channel: ChannelCredentials; event: InboundEvent }[] = [];
let sinkFailure: Error | null = null;

beforeAll(async () => {
  sim = await startTelegramSimulator();
  sim.bots.set(TOKEN, { id: 7000000001, username: 'hook_bot' });
  t = await createTestApp({ TELEGRAM_API_ROOT: sim.url, PUBLIC_URL: 'https://conversa.example' });
  ({ admin } = await t.createStaff());
  channel = (await t.call(admin, 'POST', '/whatsapp', { name: 'Hook', type: 'telegram', tokenTelegram: TOKEN })).json();
  await t.call(admin, 'POST', `/whatsappsession/${channel.id}`);
  secret = String(sim.callsOf('setWebhook')[0]!.params.secret_token);
  setInboundSink(t.platform, {
    async receive(ch, event) {
      if (sinkFailure) throw sinkFailure;
      received.push({ channel: ch, event });
    },
  });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});
beforeEach(() => {
  received.splice(0);
  sinkFailure = null;
});

const post = (path: string, payload: object, headers: Record<string, string> = { [TELEGRAM_SECRET_HEADER]: secret }) =>
  t.app.inject({ method: 'POST', url: `/api/webhooks/${path}`, headers, payload });

describe('POST /api/webhooks/telegram/:channelId', () => {
  it('hands the parsed events to the sink with the channel, then answers 200', async () => {
    const res = await post(`telegram/${channel.id}`, fixture('text-message'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, received: 1, ignored: false });
    expect(received).toHaveLength(1);
    expect(received[0]!.channel).toMatchObject({ id: channel.id, tenantId: 1, type: 'telegram' });
    expect(received[0]!.event).toMatchObject({
      kind: 'message',
      providerMessageId: '555000111:41',
      body: 'Olá, preciso de ajuda com meu pedido',
    });
  });

  it('refuses a missing or wrong secret with 401 and stores nothing', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { [TELEGRAM_SECRET_HEADER]: `${secret}x` },
      { [TELEGRAM_SECRET_HEADER]: 'secret' },
    ];
    for (const headers of attempts) {
      const res = await post(`telegram/${channel.id}`, fixture('text-message'), headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'ERR_WEBHOOK_UNAUTHORIZED' });
    }
    expect(received).toEqual([]);
  });

  it('answers an unknown channel or provider like a wrong secret (401), 400 for a malformed update', async () => {
    // No id oracle: which ids exist is not told to someone without their secret.
    expect((await post('telegram/999999', fixture('text-message'))).json()).toEqual({
      error: 'ERR_WEBHOOK_UNAUTHORIZED',
    });
    expect((await post(`waba/${channel.id}`, fixture('text-message'))).statusCode).toBe(401);
    expect((await post(`Telegram/${channel.id}`, fixture('text-message'))).statusCode).toBe(400);
    const malformed = await post(`telegram/${channel.id}`, { update_id: 'x', message: { text: 'oi' } });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    expect(received).toEqual([]);
  });

  it('lets only an existing gateway channel post a body over 1 MiB, and checks that before reading it', async () => {
    const big = JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) });
    const raw = (path: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/webhooks/${path}`,
        headers: { 'content-type': 'application/json' },
        payload: big,
      });
    // Telegram keeps the app's limit.
    expect((await raw(`telegram/${channel.id}`)).statusCode).toBe(413);
    // A gateway address with no such channel (or another type's channel) is refused before the body is read: a
    // body that is not even JSON answers 401, not the parser's 400 (channels.webhooks.gateways.test.ts has the rest).
    const reads = channelReads.count;
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/meow/999999',
      headers: { 'content-type': 'application/json' },
      payload: `{${'x'.repeat(2 * 1024 * 1024)}`,
    });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ error: 'ERR_WEBHOOK_UNAUTHORIZED' });
    expect(channelReads.count).toBe(reads + 1);
    expect((await raw(`evo/${channel.id}`)).json()).toEqual({ error: 'ERR_WEBHOOK_UNAUTHORIZED' });
    expect((await raw('meow/abc')).statusCode).toBe(401);
    expect(received).toEqual([]);
  });

  it('acknowledges service messages with no event', async () => {
    const res = await post(`telegram/${channel.id}`, fixture('member-joined'));
    expect(res.json()).toEqual({ ok: true, received: 0, ignored: false });
    expect(received).toEqual([]);
  });

  it('does not acknowledge when the sink fails, so Telegram resends', async () => {
    sinkFailure = new Error('database went away');
    const res = await post(`telegram/${channel.id}`, fixture('text-message'));
    expect(res.statusCode).toBe(500);
  });

  it('reuses the channel it read for WEBHOOK_CHANNEL_TTL_MS, then sees a change made by another process', async () => {
    expect((await post(`telegram/${channel.id}`, fixture('text-message'))).json()).toMatchObject({ ignored: false });
    // Another process disconnects the channel: no event reaches this one.
    const status = async (value: string) =>
      t.database.executeSql(`update channels set status = $1 where id = $2`, [value, channel.id]);
    await status('DISCONNECTED');
    const cached = await post(`telegram/${channel.id}`, fixture('text-message'));
    expect(cached.json()).toEqual({ ok: true, received: 1, ignored: false });
    const later = Date.now() + WEBHOOK_CHANNEL_TTL_MS + 1;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      const res = await post(`telegram/${channel.id}`, fixture('text-message'));
      expect(res.json()).toEqual({ ok: true, received: 0, ignored: true });
    } finally {
      clock.mockRestore();
      await status('CONNECTED');
    }
    expect(received).toHaveLength(2);
  });

  it('webhooks that find no fresh channel row share one read of it', async () => {
    // Well past the expiry of whatever an earlier test read (one read under a clock moved forward).
    const clock = vi.spyOn(Date, 'now').mockReturnValue(Date.now() + 10 * WEBHOOK_CHANNEL_TTL_MS);
    let release!: () => void;
    channelReads.gate = new Promise<void>((resolve) => (release = resolve));
    try {
      const before = channelReads.count;
      const answers = Promise.all(
        Array.from({ length: 8 }, () => post(`telegram/${channel.id}`, fixture('text-message'))),
      );
      // The first read is held: the other webhooks arrive while it is in flight.
      await vi.waitFor(() => expect(channelReads.count - before).toBe(1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      expect((await answers).map((res) => res.statusCode)).toEqual(Array(8).fill(200));
      expect(channelReads.count - before).toBe(1);
      // The row read is kept: the next webhook reads nothing.
      await post(`telegram/${channel.id}`, fixture('text-message'));
      expect(channelReads.count - before).toBe(1);
    } finally {
      channelReads.gate = null;
      clock.mockRestore();
    }
  });

  it('drops updates for a disconnected channel with a 200, and refuses the old secret after a token change', async () => {
    await t.call(admin, 'DELETE', `/whatsappsession/${channel.id}`);
    const res = await post(`telegram/${channel.id}`, fixture('text-message'));
    expect(res.json()).toEqual({ ok: true, received: 0, ignored: true });
    expect(received).toEqual([]);
    const other = '7000000003:AAH-another_bot_token_for_tests_03';
    sim.bots.set(other, { id: 7000000003, username: 'novo_bot' });
    await t.call(admin, 'PUT', `/whatsapp/${channel.id}`, { ...channel, tokenTelegram: other });
    await t.call(admin, 'POST', `/whatsappsession/${channel.id}`);
    expect((await post(`telegram/${channel.id}`, fixture('text-message'))).statusCode).toBe(401);
  });
});
