/**
 * Bad input, property-based (fast-check): the Telegram webhook parser throws nothing but a ZodError on arbitrary
 * JSON and on mutated fixtures, and the webhook never answers a 5xx; the JSON bodies of the main routes never get a
 * 5xx, and a refused body (4xx) writes nothing; oversized bodies and uploads answer 413 ERR_PAYLOAD_TOO_LARGE;
 * prototype-pollution keys leave Object.prototype alone and store nothing. Runs are bounded (numRuns) and seeded
 * by fast-check: a failure prints the seed and the shrunk counterexample.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { ZodError } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto } from '@conversa/shared';
import { parseTelegramUpdate } from '../src/modules/channels/providers/telegram/telegram.parse.js';
import {
  startTelegramSimulator,
  type TelegramSimulator,
} from '../src/modules/channels/providers/telegram/telegram.simulator.js';
import { createTestApp, type HttpMethod, type TestApp, type TestUser } from '../src/test/harness.js';
import { makeQueue, makeTicket } from '../src/test/ticket-fixtures.js';

const FIXTURES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../src/modules/channels/providers/telegram/fixtures',
);
const fixtures = fs
  .readdirSync(FIXTURES)
  .map((name) => JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as Record<string, unknown>);
const TOKEN = '7000000321:AAH-reliability_fuzz_bot_token_0001';
const UPLOAD_LIMIT = 4096;
const RUNS = 150;
/** Field names of the routes' schemas that valid bases leave out. */
const EXTRA_FIELDS = ['status', 'userId', 'queueId', 'value', 'whatsapp', 'email', 'extraInfo', 'tags', 'quotedMsg'];

let t: TestApp;
let sim: TelegramSimulator;
let admin: TestUser;
let channel: ChannelDto;
let secret: string;
let ticketId: number;
let contactId: number;

beforeAll(async () => {
  sim = await startTelegramSimulator();
  sim.bots.set(TOKEN, { id: 7000000321, username: 'fuzz_bot' });
  t = await createTestApp({
    TELEGRAM_API_ROOT: sim.url,
    PUBLIC_URL: 'https://conversa.example',
    MEDIA_MAX_UPLOAD_BYTES: String(UPLOAD_LIMIT),
  });
  ({ admin } = await t.createStaff());
  channel = (
    await t.call(admin, 'POST', '/whatsapp', { name: 'Fuzz', type: 'telegram', tokenTelegram: TOKEN })
  ).json<ChannelDto>();
  expect((await t.call(admin, 'POST', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
  secret = String(sim.callsOf('setWebhook').at(-1)!.params.secret_token);
  contactId = (await t.call(admin, 'POST', '/contacts', { name: 'Alvo', number: '5511987654321' })).json<{
    id: number;
  }>().id;
  await t.database.executeSql(`update contacts set telegram_id = '424242' where id = $1`, [contactId]);
  ticketId = await makeTicket(t, 1, { contactId, channelId: channel.id, status: 'open', userId: admin.id });
  await makeQueue(t, 1, 'Fila fuzz');
  // Room for the channels POST /whatsapp creates (the limit itself answers a 4xx).
  await t.database.executeSql(`update tenants set max_connections = 1000 where id = 1`);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

/** A JSON-compatible value, with the edge cases parsers trip on. */
const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(null, '', 0, -1, 1e308, -0, Number.MAX_SAFE_INTEGER + 2, '\u0000', 'a'.repeat(5000), [], {}),
);

/** Replaces or deletes values at random paths of a fixture. */
function mutated(base: Record<string, unknown>) {
  const paths: string[][] = [];
  const walk = (value: unknown, at: string[]) => {
    paths.push(at);
    if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) walk(v, [...at, k]);
    }
  };
  walk(base, []);
  const edit = fc.record({
    at: fc.constantFrom(...paths.filter((p) => p.length > 0)),
    value: fc.option(jsonish, { nil: undefined }),
  });
  return fc.array(edit, { minLength: 1, maxLength: 4 }).map((edits) => {
    const copy = structuredClone(base);
    for (const { at, value } of edits) {
      let node = copy as Record<string, unknown>;
      for (const k of at.slice(0, -1)) {
        if (!node[k] || typeof node[k] !== 'object') break;
        node = node[k] as Record<string, unknown>;
      }
      if (value === undefined) delete node[at.at(-1)!];
      else node[at.at(-1)!] = structuredClone(value);
    }
    return copy;
  });
}
const mutatedUpdate = fc.oneof(...fixtures.map(mutated));
const anyUpdate = fc.oneof(jsonish, fc.dictionary(fc.string(), jsonish), mutatedUpdate);

const webhook = (payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/webhooks/telegram/${channel.id}`,
    headers: { 'x-telegram-bot-api-secret-token': secret, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });

/** What a refused request must leave untouched. */
const snapshot = async () =>
  (
    await t.database.executeSql(
      `select (select md5(coalesce(string_agg(x::text, '|' order by x.id), '')) from contacts x) as contacts,
              (select md5(coalesce(string_agg(x::text, '|' order by x.id), '')) from tickets x) as tickets,
              (select md5(coalesce(string_agg(x::text, '|' order by x.id), '')) from messages x) as messages,
              (select md5(coalesce(string_agg(x::text, '|' order by x.id), '')) from users x) as users,
              (select md5(coalesce(string_agg(x::text, '|' order by x.id), '')) from channels x) as channels,
              (select md5(coalesce(string_agg(x::text, '|' order by x.id), '')) from queues x) as queues,
              (select md5(coalesce(string_agg(x::text, '|' order by x.id), '')) from settings x) as settings,
              (select count(*)::int from ticket_logs) as logs,
              (select count(*)::int from pgboss.job) as jobs`,
    )
  ).rows[0];

describe('the Telegram webhook parser', () => {
  it('throws nothing but a ZodError on arbitrary JSON and mutated fixtures', () => {
    fc.assert(
      fc.property(anyUpdate, (body) => {
        try {
          parseTelegramUpdate(body);
        } catch (error) {
          if (!(error instanceof ZodError)) throw error;
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('never answers a 5xx over HTTP', async () => {
    await fc.assert(
      fc.asyncProperty(anyUpdate, async (body) => {
        const res = await webhook(body);
        expect(res.statusCode, res.body).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  });
});

/**
 * Route bodies: a valid body with some of its fields (or extra keys) replaced by arbitrary JSON, a dictionary of the
 * route's field names, arbitrary keys, or any JSON value at all. The valid base makes many runs reach the write path.
 */
let unique = 0;
const bodyOf = (base: () => Record<string, unknown>, fields: string[]) =>
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.subarray([...fields, 'id', 'tenantId', '__extra'], { maxLength: 3 }),
          fc.array(jsonish, { minLength: 12, maxLength: 12 }),
        )
        .map(([keys, values]) => {
          const body = base();
          keys.forEach((k, i) => (body[k] = values[i]));
          return body;
        }),
    },
    fc.dictionary(fc.constantFrom(...fields), jsonish, { maxKeys: fields.length }),
    fc.dictionary(fc.string(), jsonish),
    jsonish,
  );

describe('JSON bodies of the main routes', () => {
  const routes: [HttpMethod, () => string, string, () => Record<string, unknown>][] = [
    [
      'POST',
      () => '/contacts',
      '/contacts',
      () => ({ name: 'Fuzz', number: `55119${String(++unique).padStart(8, '0')}` }),
    ],
    ['PUT', () => `/contacts/${contactId}`, '/contacts/{id}', () => ({ name: 'Alvo', blocked: false })],
    ['PUT', () => `/tickets/${ticketId}`, '/tickets/{id}', () => ({ unreadMessages: 0, chatgptStatus: 'enabled' })],
    ['POST', () => `/messages/${ticketId}`, '/messages/{ticketId}', () => ({ body: 'oi', idFront: `f-${++unique}` })],
    [
      'POST',
      () => '/whatsapp',
      '/whatsapp',
      () => ({
        name: `Canal ${++unique}`,
        type: 'telegram',
        tokenTelegram: `${7000000400 + ++unique}:AAH-reliability_fuzz_bot_token_0001`,
      }),
    ],
    ['PUT', () => `/users/${admin.id}/configs`, '/users/{id}/configs', () => ({ isDark: true })],
    ['POST', () => '/queue', '/queue', () => ({ queue: `Fila ${++unique}` })],
    ['PUT', () => '/settings/undefined', '/settings/{key}', () => ({ key: 'NotViewTicketsChatBot', value: 'enabled' })],
  ];
  const fieldsOf = (base: Record<string, unknown>) => Object.keys(base);
  for (const [method, url, name, base] of routes) {
    it(`${method} ${name}: never a 5xx, and a refused body writes nothing`, async () => {
      const statuses: number[] = [];
      await fc.assert(
        fc.asyncProperty(bodyOf(base, [...fieldsOf(base()), ...EXTRA_FIELDS]), async (body) => {
          const before = await snapshot();
          const res = await t.app.inject({
            method,
            url: `/api${url()}`,
            headers: { ...admin.auth, 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          });
          statuses.push(res.statusCode);
          expect(res.statusCode, res.body).toBeLessThan(500);
          if (res.statusCode >= 400) expect(await snapshot()).toEqual(before);
        }),
        { numRuns: RUNS / 2 },
      );
      // The valid bases made some runs reach the write path.
      expect(statuses.some((status) => status < 300)).toBe(true);
    });
  }
});

describe('oversized bodies and uploads', () => {
  it('answer 413 ERR_PAYLOAD_TOO_LARGE and store nothing', async () => {
    const before = await snapshot();
    const big = 'x'.repeat(1024 * 1024 + 1);
    for (const [method, url, headers] of [
      ['POST', '/api/contacts', admin.auth],
      ['PUT', `/api/tickets/${ticketId}`, admin.auth],
      ['POST', `/api/messages/${ticketId}`, admin.auth],
      ['POST', `/api/webhooks/telegram/${channel.id}`, { 'x-telegram-bot-api-secret-token': secret }],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ name: big, body: big }),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(413);
      expect(res.json()).toEqual({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    }
    for (const [url, field, name, type] of [
      [`/api/messages/${ticketId}`, 'medias', 'foto.png', 'image/png'],
      ['/api/contacts/upload', 'file', 'contatos.csv', 'text/csv'],
    ] as const) {
      const form = new FormData();
      form.append(field, new Blob([Buffer.alloc(11 * 1024 * 1024, 0x61)], { type }), name);
      const request = new Request('http://local', { method: 'POST', body: form });
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...admin.auth, 'content-type': request.headers.get('content-type')! },
        payload: Buffer.from(await request.arrayBuffer()),
      });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(413);
      expect(res.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    }
    expect(await snapshot()).toEqual(before);
    const media = fs.existsSync(path.join(t.dataDir, 'media')) ? fs.readdirSync(path.join(t.dataDir, 'media')) : [];
    expect(media.flatMap((dir) => fs.readdirSync(path.join(t.dataDir, 'media', dir)))).toEqual([]);
  });
});

describe('prototype-pollution keys', () => {
  const poisons = [
    '{"__proto__": {"polluted": "yes"}}',
    '{"constructor": {"prototype": {"polluted": "yes"}}}',
    '{"filtrosAtendimento": {"__proto__": {"polluted": "yes"}}}',
    '{"filtrosAtendimento": {"constructor": {"prototype": {"polluted": "yes"}}}}',
    '{"name": "P", "number": "5511911112222", "extraInfo": [{"name": "__proto__", "value": "x"}], "__proto__": {"polluted": "yes"}}',
  ];
  it('leave Object.prototype unchanged and store nothing of them', async () => {
    for (const poison of poisons) {
      for (const [method, url] of [
        ['PUT', `/api/users/${admin.id}/configs`],
        ['POST', '/api/contacts'],
        ['PUT', `/api/contacts/${contactId}`],
        ['PUT', `/api/tickets/${ticketId}`],
        ['POST', `/api/webhooks/telegram/${channel.id}`],
      ] as const) {
        const res = await t.app.inject({
          method,
          url,
          headers: { ...admin.auth, 'x-telegram-bot-api-secret-token': secret, 'content-type': 'application/json' },
          payload: poison,
        });
        expect(res.statusCode, `${method} ${url} ${poison}: ${res.body}`).toBeLessThan(500);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.prototype).not.toHaveProperty('polluted');
      }
    }
    const stored = await t.database.executeSql(
      `select 'users' as t, id from users where configs::text like '%polluted%' or configs::text like '%prototype%'
       union all select 'contacts', id from contacts where row_to_json(contacts)::text like '%polluted%'`,
    );
    expect(stored.rows).toEqual([]);
  });
});
