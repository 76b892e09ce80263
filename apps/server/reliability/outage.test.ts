/**
 * Database outage: the built server runs on a private PostgreSQL instance that the test stops with
 * `pg_ctl stop -m immediate` under a steady webhook load, then starts again. Meanwhile the server stays up and
 * answers 503 ERR_SERVICE_UNAVAILABLE (Telegram resends); afterwards it recovers by itself, and every update it
 * acknowledged with a 2xx is stored, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTelegramSimulator,
  type TelegramSimulator,
} from '../src/modules/channels/providers/telegram/telegram.simulator.js';
import { query, startPrivatePostgres, type PrivatePostgres } from './support/postgres.js';
import { sleep } from './support/ports.js';
import { api, connectTelegramChannel, loginSuperadmin, serverProcess, type ServerProcess } from './support/server.js';
import { pool, providerId, textUpdate, type TelegramUpdate, type Webhook } from './support/telegram.js';

const TOKEN = '7000000456:AAH-reliability_outage_bot_token_001';
const UPDATES = 240;
const OUTAGE_MS = 4000;

let sim: TelegramSimulator;
let pg: PrivatePostgres;
let databaseUrl: string;
let server: ServerProcess;
let auth: { authorization: string; userId: number };
let channelId: number;
let webhook: Webhook;

beforeAll(async () => {
  sim = await startTelegramSimulator();
  sim.bots.set(TOKEN, { id: 7000000456, username: 'outage_bot' });
  pg = await startPrivatePostgres();
  await query(pg.url, 'CREATE DATABASE conversa');
  databaseUrl = pg.url.replace(/\/postgres$/, '/conversa');
  server = await serverProcess({ DATABASE_URL: databaseUrl, TELEGRAM_API_ROOT: sim.url });
  await server.start();
  auth = await loginSuperadmin(server.baseUrl);
  ({ channelId, webhook } = await connectTelegramChannel(server.baseUrl, auth, sim, { name: 'Outage', token: TOKEN }));
});

afterAll(async () => {
  await server?.stop();
  pg?.destroy();
  await sim?.close();
});

interface Attempt {
  at: number;
  status: number;
  body: string;
}

describe('PostgreSQL stops and starts under load', () => {
  it('answers 503 meanwhile, recovers by itself and loses nothing it acknowledged', async () => {
    const updates = Array.from({ length: UPDATES }, (_, i) => textUpdate(i + 1, 9_200_000 + (i % 30)));
    const attempts: Attempt[] = [];
    const acknowledged = new Set<string>();
    let outage: { from: number; to: number } | undefined;
    const apiDuringOutage: number[] = [];

    const load = pool(updates, 4, async (update: TelegramUpdate) => {
      const stopAt = Date.now() + 120_000;
      for (;;) {
        const res = await fetch(webhook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': webhook.secret },
          body: JSON.stringify(update),
          signal: AbortSignal.timeout(20_000),
        }).catch(() => undefined);
        const status = res?.status ?? 0;
        attempts.push({ at: Date.now(), status, body: res ? await res.text() : '' });
        if (status >= 200 && status < 300) return void acknowledged.add(providerId(update));
        if (!server.alive()) throw new Error(`the server died:\n${server.logTail()}`);
        if (Date.now() > stopAt) throw new Error(`never acknowledged: ${providerId(update)}`);
        await sleep(50);
      }
    });
    const chaos = (async () => {
      while (acknowledged.size < UPDATES / 5) await sleep(20);
      const from = Date.now();
      pg.crash();
      await sleep(OUTAGE_MS / 2);
      const during = await api(server.baseUrl, auth, 'GET', '/tickets').catch(() => ({ status: 0 }));
      apiDuringOutage.push(during.status);
      await sleep(OUTAGE_MS / 2);
      pg.start();
      outage = { from, to: Date.now() };
    })();
    await Promise.all([load, chaos]);
    await chaos;

    expect(server.alive(), server.logTail()).toBe(true);
    const failures = attempts.filter((a) => a.status < 200 || a.status >= 300);
    // The outage was seen, and only as 503 ERR_SERVICE_UNAVAILABLE (never a 500, never a dropped connection).
    expect(failures.length).toBeGreaterThan(0);
    const wrong = failures.filter((a) => a.status !== 503 || !a.body.includes('ERR_SERVICE_UNAVAILABLE'));
    expect(wrong, wrong.length ? server.logTail() : '').toEqual([]);
    expect(apiDuringOutage).toEqual([503]);
    // Recovered: updates sent after the restart are acknowledged.
    expect(attempts.some((a) => a.at > outage!.to && a.status === 200)).toBe(true);

    const stored = await query<{ message_id: string; copies: number }>(
      databaseUrl,
      `select message_id, count(*)::int as copies from messages where channel_id = $1 group by message_id`,
      [channelId],
    );
    expect(stored.filter((row) => row.copies !== 1)).toEqual([]);
    const ids = new Set(stored.map((row) => row.message_id));
    expect([...acknowledged].filter((id) => !ids.has(id))).toEqual([]);
    expect(ids.size).toBe(UPDATES);
    // The API answers again too.
    expect((await api(server.baseUrl, auth, 'GET', '/tickets')).status).toBe(200);
  });
});
