/**
 * Mass sending (client-contract §12 /bulk/, /bulkVariable/, /bulkClose/; product-spec §5): the form's rules, the
 * numbers becoming contacts, one send each through the lane paced in [min, max], the variables of each line, files by
 * URL (fetched once, through the outbound policy; our own public file read from the store), the multipart file, who
 * sees which batch, cancel.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BulkBatchDto, QuickMessageDto } from '@conversa/shared';
import { queryRows } from '../../platform/db/client.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { createTelegramChannel, jobOf, lookupOf, TestAdapter } from '../../test/messages-kit.js';
import { allowChannels, makeContact, makeTicket } from '../../test/ticket-fixtures.js';
import { pauseAfter } from './campaigns.lane.js';

let t: TestApp;
let adapter: TestAdapter;
let admin: TestUser;
let agent: TestUser;
let otherAgent: TestUser;
let supervisor: TestUser;
let channelId: number;
let telegramId: number;
let files: http.Server;
let filesBase = '';
let fileHits = 0;

const OGG = Buffer.from('OggS\u0000\u0002voice', 'latin1');
const JPEG = Buffer.from('ffd8ffe000104a464946', 'hex');

const bulk = (path: string, body: object, user = agent) => t.call(user, 'POST', path, body);
const base = (extra: Record<string, unknown> = {}) => ({
  whatsappId: channelId,
  whatsappType: 'evo',
  arrayNumbers: ['+55 (11) 98888-0001', '5511988880002'],
  min: 5,
  max: 9,
  groups: false,
  message: 'Olá {{name}}',
  ...extra,
});
const run = (name: string) => t.jobs.runPending(jobOf(t, name));

/** Runs the lane until the batch is done: each tick made due, then the send it queued. */
async function drain(rounds = 8) {
  for (let i = 0; i < rounds; i += 1) {
    await t.database.executeSql(
      `update pgboss.job set start_after = now() - interval '1 second' where name = 'campaigns.lane' and state = 'created'`,
    );
    await t.database.executeSql(`update outbound_lanes set next_at = now() - interval '1 second'`);
    await run('campaigns.lane');
    await run('messages.send');
  }
}

const batches = async (user: TestUser) => (await t.call(user, 'GET', '/bulk/')).json<BulkBatchDto[]>();

beforeAll(async () => {
  files = http.createServer((req, res) => {
    fileHits += 1;
    if (req.url === '/voz.ogg') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(OGG);
    else if (req.url === '/foto.jpg') res.writeHead(200, { 'content-type': 'image/jpeg' }).end(JPEG);
    else if (req.url === '/fonte.woff2') res.writeHead(200, { 'content-type': 'font/woff2' }).end('wOF2');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  adapter = new TestAdapter();
  t = await createTestApp({ PUBLIC_URL: 'https://chat.example.com' }, { adapters: lookupOf(adapter) });
  ({ admin, agent, supervisor } = await t.createStaff());
  otherAgent = await t.createUser({ tenantId: 1, profile: 'user', name: 'Outro Agente' });
  channelId = (await createTelegramChannel(t, 1, { type: 'evo', name: 'Evolution', status: 'CONNECTED' })).id;
  telegramId = (await createTelegramChannel(t, 1, { name: 'Telegram' })).id;
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => files.close(resolve));
});
beforeEach(() => {
  adapter.sent.length = 0;
  fileHits = 0;
});

describe('the mass-sending form (product-spec §5)', () => {
  it('refuses each broken rule with its field, and stores nothing', async () => {
    const cases: [string, Record<string, unknown>, number, object][] = [
      ['/bulk/', { max: 5 }, 400, { error: 'ERR_VALIDATION', field: 'max' }],
      ['/bulk/', { min: 0 }, 400, { error: 'ERR_VALIDATION', field: 'min' }],
      ['/bulk/', { arrayNumbers: [] }, 400, { error: 'ERR_VALIDATION', field: 'arrayNumbers' }],
      ['/bulk/', { arrayNumbers: ['5511988880001', 'abc'] }, 400, { error: 'ERR_VALIDATION', field: 'arrayNumbers' }],
      ['/bulk/', { message: '' }, 400, { error: 'ERR_VALIDATION', field: 'message' }],
      [
        '/bulk/',
        { message: '', mediaUrl: `${filesBase}/foto.jpg` },
        400,
        { error: 'ERR_VALIDATION', field: 'mediaDescription' },
      ],
      [
        '/bulk/',
        { message: '', voiceUrl: `${filesBase}/foto.jpg` },
        400,
        { error: 'ERR_VALIDATION', field: 'voiceUrl' },
      ],
      [
        '/bulk/',
        { message: '', mediaUrl: `${filesBase}/fonte.woff2`, mediaDescription: 'x' },
        400,
        { error: 'ERR_PAYLOAD_TOO_LARGE', field: 'mediaUrl' },
      ],
      [
        '/bulk/',
        { message: '', mediaUrl: `${filesBase}/sumiu.jpg`, mediaDescription: 'x' },
        400,
        { error: 'ERR_VALIDATION', field: 'mediaUrl' },
      ],
      ['/bulk/', { whatsappId: telegramId }, 400, { error: 'ERR_VALIDATION', field: 'whatsappId' }],
      ['/bulk/', { whatsappId: 999_999 }, 404, { error: 'ERR_NO_WAPP_FOUND' }],
      [
        '/bulkVariable/',
        { number: '5511988880001,a\nnão é número,b' },
        400,
        { error: 'ERR_VALIDATION', field: 'number' },
      ],
      ['/bulkVariable/', { number: '\n \n' }, 400, { error: 'ERR_VALIDATION', field: 'number' }],
    ];
    for (const [path, extra, status, body] of cases) {
      const payload = path === '/bulkVariable/' ? { ...base(extra), number: extra.number } : base(extra);
      const res = await bulk(path, payload);
      expect(res.statusCode, `${path} ${JSON.stringify(extra)}`).toBe(status);
      expect(res.json(), `${path} ${JSON.stringify(extra)}`).toMatchObject(body);
    }
    expect(await batches(admin)).toEqual([]);
    const [media] = await queryRows<{ n: number }>(t.platform.db, sql`select count(*)::int as n from campaigns`);
    expect(media!.n).toBe(0);
  });

  it('a channel outside the agent’s list is refused (ERR_NO_PERMISSION)', async () => {
    await allowChannels(t, 1, otherAgent.id, [telegramId]);
    const res = await bulk('/bulk/', base(), otherAgent);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
  });
});

describe('a batch', () => {
  it('sends each number once as a contact of the tenant, paced in [min, max]; agents see their own batches', async () => {
    const res = await bulk('/bulk/', base({ arrayNumbers: ['+55 (11) 98888-0001', '5511988880002', '5511988880001'] }));
    expect(res.statusCode, res.body).toBe(200);
    const batch = res.json<BulkBatchDto>();
    expect(batch).toMatchObject({ status: 'processing', total: 2, pendentesEnvio: 2, min: 5, max: 9 });

    expect(await run('campaigns.lane')).toBe(1);
    const [next] = await queryRows<{ wait: number }>(
      t.platform.db,
      sql`select extract(epoch from start_after - created_on)::float8 as wait from pgboss.job
          where name = 'campaigns.lane' and state = 'created'`,
    );
    expect(next!.wait).toBeGreaterThan(4);
    expect(next!.wait).toBeLessThan(10);
    await run('messages.send');
    await drain();
    expect(adapter.sent.map((m) => [m.to, m.body])).toEqual([
      ['5511988880001', 'Olá 5511988880001'],
      ['5511988880002', 'Olá 5511988880002'],
    ]);
    const contacts = await queryRows<{ number: string }>(
      t.platform.db,
      sql`select number from contacts where number like '55119888800%' order by number`,
    );
    expect(contacts.map((c) => c.number)).toEqual(['5511988880001', '5511988880002']);
    expect((await t.call(agent, 'GET', `/bulk/${batch.id}`)).json()).toMatchObject({
      status: 'finished',
      pendentesEnvio: 0,
      pendentesEntrega: 2,
    });
    // Not a campaign of the campaigns screen.
    expect((await t.call(supervisor, 'GET', '/campaigns/')).json()).toEqual([]);
    expect((await t.call(supervisor, 'GET', `/campaigns/${batch.id}`)).statusCode).toBe(404);
    // Its sender and the supervisors see it; another agent does not.
    expect((await batches(agent)).map((b) => b.id)).toContain(batch.id);
    expect((await batches(supervisor)).map((b) => b.id)).toContain(batch.id);
    expect(await batches(otherAgent)).toEqual([]);
    const hidden = await t.call(otherAgent, 'GET', `/bulk/${batch.id}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ error: 'ERR_NO_CAMPAIGN_FOUND' });
  });

  it('with variables: each line’s values fill {{var1}}, {{var2}}', async () => {
    const res = await bulk('/bulkVariable/', {
      ...base(),
      number: '5511977770001, Maria, 10%\n\n5511977770002,João,15%',
      message: 'Oi {{var1}}, seu desconto é {{ VAR2 }} ({{var3}})',
    });
    expect(res.statusCode, res.body).toBe(200);
    await drain();
    expect(adapter.sent.map((m) => m.body)).toEqual([
      'Oi Maria, seu desconto é 10% ({{var3}})',
      'Oi João, seu desconto é 15% ({{var3}})',
    ]);
  });

  it('a file by URL is fetched once for the batch; an .ogg goes as a voice note', async () => {
    const photo = await bulk(
      '/bulk/',
      base({ message: '', mediaUrl: `${filesBase}/foto.jpg`, mediaDescription: 'Nosso cardápio' }),
    );
    expect(photo.statusCode, photo.body).toBe(200);
    await drain();
    expect(fileHits).toBe(1);
    expect(adapter.sent.map((m) => [m.mediaType, m.body, m.media?.mime, m.media?.data.equals(JPEG)])).toEqual([
      ['image', 'Nosso cardápio', 'image/jpeg', true],
      ['image', 'Nosso cardápio', 'image/jpeg', true],
    ]);
    adapter.sent.length = 0;
    const voice = await bulk('/bulk/', base({ message: '', voiceUrl: `${filesBase}/voz.ogg` }));
    expect(voice.statusCode, voice.body).toBe(200);
    await drain();
    expect(adapter.sent.map((m) => [m.mediaType, m.media?.mime])).toEqual([
      ['ptt', 'audio/ogg'],
      ['ptt', 'audio/ogg'],
    ]);
  });

  it('our own public file (a quick message’s) is read from the store; another tenant’s is not found', async () => {
    const boundary = '----bulktest';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="key"\r\n\r\ncardapio\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\nCardápio\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="menu.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      JPEG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/fastreply',
      payload,
      headers: { ...admin.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(created.statusCode, created.body).toBe(201);
    const quick = created.json<QuickMessageDto>();
    const res = await bulk('/bulk/', base({ message: '', mediaUrl: quick.mediaUrl, mediaDescription: 'Veja' }));
    expect(res.statusCode, res.body).toBe(200);
    await drain();
    expect(fileHits).toBe(0);
    expect(adapter.sent.map((m) => m.media?.data.equals(JPEG))).toEqual([true, true]);
    // A body naming a ticket is one send into it at once, as the family's clients send a quick message's file.
    adapter.sent.length = 0;
    const contactId = await makeContact(t, 1, { name: 'Cliente do ticket', number: '5511933330001' });
    const ticketId = await makeTicket(t, 1, { contactId, channelId, status: 'open', userId: agent.id });
    const intoTicket = await bulk('/bulk/', {
      ticketId,
      whatsappId: channelId,
      whatsappType: 'evo',
      arrayNumbers: ['5511933330001'],
      min: 0,
      max: 0,
      groups: false,
      mediaUrl: quick.mediaUrl,
      mediaDescription: '',
      voiceUrl: null,
      idFront: 'front-1',
      sendType: 'chat',
    });
    expect(intoTicket.statusCode, intoTicket.body).toBe(200);
    expect(intoTicket.json()).toMatchObject({ ticketId, mediaType: 'image', fromMe: true });
    await run('messages.send');
    expect(adapter.sent.map((m) => [m.to, m.mediaType, m.media?.data.equals(JPEG)])).toEqual([
      ['5511933330001', 'image', true],
    ]);
    // Another agent's ticket is not theirs to write to.
    const refusedTicket = await bulk('/bulk/', { ticketId, message: 'oi' }, otherAgent);
    expect(refusedTicket.statusCode).toBeGreaterThanOrEqual(403);
    expect(refusedTicket.statusCode).toBeLessThan(405);

    const foreign = quick.mediaUrl!.replace('/api/public/1/', '/api/public/2/');
    const refused = await bulk('/bulk/', base({ message: '', mediaUrl: foreign, mediaDescription: 'Veja' }));
    expect(refused.json()).toEqual({ error: 'ERR_VALIDATION', field: 'mediaUrl' });
  });

  it('multipart /bulkClose/: a file with its description; without one nothing is kept', async () => {
    const form = (fields: Record<string, string>) => {
      const boundary = '----bulkclose';
      const parts = Object.entries(fields).map(
        ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
      return {
        payload: Buffer.concat([
          Buffer.from(
            parts.join('') +
              `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="foto.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
          ),
          JPEG,
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
        headers: { ...agent.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      };
    };
    const fields = { whatsappId: String(channelId), arrayNumbers: '["5511966660001"]', min: '2', max: '4' };
    const media = () =>
      fs.readdirSync(path.join(t.dataDir, 'media'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
        .length;
    const before = media();
    const missing = await t.app.inject({ method: 'POST', url: '/api/bulkClose/', ...form(fields) });
    expect(missing.json()).toEqual({ error: 'ERR_VALIDATION', field: 'mediaLocalDescription' });
    expect(media()).toBe(before);
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/bulkClose/',
      ...form({ ...fields, mediaLocalDescription: 'Promoção' }),
    });
    expect(sent.statusCode, sent.body).toBe(200);
    await drain();
    expect(adapter.sent.map((m) => [m.to, m.mediaType, m.body])).toEqual([['5511966660001', 'image', 'Promoção']]);
  });

  it('cancel stops it before the next send', async () => {
    const res = await bulk('/bulk/', base({ arrayNumbers: ['5511955550001', '5511955550002', '5511955550003'] }));
    const batch = res.json<BulkBatchDto>();
    await run('campaigns.lane');
    await run('messages.send');
    const canceled = await t.call(agent, 'POST', `/bulk/${batch.id}/cancel`);
    expect(canceled.json()).toMatchObject({ status: 'canceled', pendentesEnvio: 2 });
    await drain();
    expect(adapter.sent).toHaveLength(1);
  });
});

describe('a campaign’s media URL', () => {
  it('is fetched once into the campaign’s file, kept while the URL stays, and sent to each recipient', async () => {
    const form = (extra: Record<string, unknown> = {}) => ({
      name: 'Cardápio',
      start: '2099-12-01 09:00',
      sessionId: channelId,
      delay: 1,
      message1: 'null',
      mediaUrl: `${filesBase}/foto.jpg`,
      ...extra,
    });
    const created = await t.call(supervisor, 'POST', '/campaigns/', form());
    expect(created.statusCode, created.body).toBe(200);
    const campaign = created.json<{ id: number; mediaName: string; mediaType: string }>();
    expect(campaign).toMatchObject({ mediaName: 'foto.jpg', mediaType: 'image/jpeg' });
    expect(fileHits).toBe(1);
    const edited = await t.call(supervisor, 'PUT', `/campaigns/${campaign.id}`, form({ name: 'Cardápio novo' }));
    expect(edited.statusCode, edited.body).toBe(200);
    expect(fileHits).toBe(1);
    const gone = await t.call(supervisor, 'PUT', `/campaigns/${campaign.id}`, form({ mediaUrl: `${filesBase}/x.jpg` }));
    expect(gone.json()).toEqual({ error: 'ERR_VALIDATION', field: 'mediaUrl' });

    await t.call(supervisor, 'POST', `/campaigns/contacts/${campaign.id}/`, [
      { id: await makeContact(t, 1, { name: 'Cliente Foto', number: '5511922220001' }) },
    ]);
    expect((await t.call(supervisor, 'POST', `/campaigns/start/${campaign.id}/`)).statusCode).toBe(200);
    await t.database.executeSql(`update campaigns set start_at = now() - interval '1 second' where id = $1`, [
      campaign.id,
    ]);
    await t.database.executeSql(
      `update pgboss.job set start_after = now() - interval '1 second' where name = 'campaigns.begin' and state = 'created'`,
    );
    await run('campaigns.begin');
    await drain();
    expect(adapter.sent.map((m) => [m.to, m.mediaType, m.media?.data.equals(JPEG)])).toEqual([
      ['5511922220001', 'image', true],
    ]);
  });
});

describe('the outbound policy', () => {
  it('refuses a URL on a private address without connecting to it', async () => {
    const strict = await createTestApp({ OUTBOUND_ALLOW: '' }, { adapters: lookupOf(adapter) });
    try {
      const { agent: sender } = await strict.createStaff();
      const evo = await createTelegramChannel(strict, 1, { type: 'evo', name: 'Evolution', status: 'CONNECTED' });
      const res = await strict.call(sender, 'POST', '/bulk/', {
        ...base({ message: '', mediaUrl: `${filesBase}/foto.jpg`, mediaDescription: 'x' }),
        whatsappId: evo.id,
      });
      expect(res.json()).toEqual({ error: 'ERR_VALIDATION', field: 'mediaUrl' });
      expect(fileHits).toBe(0);
    } finally {
      await strict.close();
    }
  });
});

describe('the pause between two sends', () => {
  it('is a whole number of seconds in [min, max], or the campaign’s delay', () => {
    const batch = { delaySeconds: 5, minDelaySeconds: 5, maxDelaySeconds: 9 };
    expect(pauseAfter(batch, () => 0)).toBe(5);
    expect(pauseAfter(batch, () => 0.999)).toBe(9);
    expect(pauseAfter(batch, () => 0.5)).toBe(7);
    expect(pauseAfter({ delaySeconds: 20, minDelaySeconds: null, maxDelaySeconds: null }, () => 0.9)).toBe(20);
  });
});
