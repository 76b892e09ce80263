/**
 * POST /messages/{ticketId} with `quickMessageId`: the quick message's stored file reaches the channel (the Telegram
 * simulator, through real HTTP) as media without a new upload, a voice note as a ptt (sendVoice), checked against
 * the ticket's visibility like any send.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto, MessageDto, QuickMessageDto, TicketListResponse } from '@conversa/shared';
import type { JobDefinition } from '../platform/jobs/queue.js';
import { createTestApp, type TestApp, type TestUser } from './harness.js';
import {
  startTelegramSimulator,
  type TelegramSimulator,
} from '../modules/channels/providers/telegram/telegram.simulator.js';

const TOKEN = '7000000098:AAH-quick_bot_token_for_tests_00001';
const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(
    fs.readFileSync(new URL(`../modules/channels/providers/telegram/fixtures/${name}.json`, import.meta.url), 'utf8'),
  ) as Record<string, unknown>;

let t: TestApp;
let sim: TelegramSimulator;
let admin: TestUser;
let agent: TestUser;
let ticket: { id: number };

const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;

function multipart(fields: Record<string, string>, file: { name: string; mime: string; data: Buffer }) {
  const boundary = `----quick${Date.now()}`;
  const chunks: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.mime}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function createQuick(fields: Record<string, string>, file: { name: string; mime: string; data: Buffer }) {
  const form = multipart(fields, file);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/fastreply',
    payload: form.payload,
    headers: { ...admin.auth, ...form.headers },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<QuickMessageDto>();
}

function storedFiles(): number {
  const root = path.join(t.dataDir, 'media');
  if (!fs.existsSync(root)) return 0;
  return fs.readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

beforeAll(async () => {
  sim = await startTelegramSimulator();
  sim.bots.set(TOKEN, { id: 7000000098, username: 'quick_bot' });
  t = await createTestApp({ TELEGRAM_API_ROOT: sim.url, PUBLIC_URL: 'https://conversa.example' });
  ({ admin, agent } = await t.createStaff());
  const channel = (
    await t.call(admin, 'POST', '/whatsapp', { name: 'Loja', type: 'telegram', tokenTelegram: TOKEN })
  ).json<ChannelDto>();
  expect((await t.call(admin, 'POST', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
  const secret = String(sim.callsOf('setWebhook')[0]!.params.secret_token);
  await t.app.inject({
    method: 'POST',
    url: `/api/webhooks/telegram/${channel.id}`,
    headers: { 'x-telegram-bot-api-secret-token': secret },
    payload: fixture('text-message'),
  });
  const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
  ticket = list.tickets[0]!;
  await t.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: agent.id });
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('POST /messages/{ticketId} with quickMessageId', () => {
  it('sends the stored image with the caption the client filled in, as a copy of its own', async () => {
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    const quick = await createQuick(
      { key: 'catalogo', message: 'Olá {{name}}' },
      { name: 'c.png', mime: 'image/png', data: png },
    );
    const files = storedFiles();
    const res = await t.call(agent, 'POST', `/messages/${ticket.id}`, {
      quickMessageId: quick.id,
      body: 'Olá Maria',
      idFront: 'q-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    const dto = res.json<MessageDto>();
    expect(dto).toMatchObject({ mediaType: 'image', body: 'Olá Maria', mediaName: quick.media, mediaSize: png.length });
    expect(storedFiles()).toBe(files + 1);
    expect(await t.jobs.runPending(job('messages.send'))).toBe(1);
    const call = sim.callsOf('sendPhoto').at(-1)!;
    expect(call.params).toMatchObject({ chat_id: '555000111', caption: 'Olá Maria' });
    // Deleting the quick message leaves the sent message's bytes.
    await t.call(admin, 'DELETE', `/fastreply/${quick.id}`);
    expect((await t.app.inject({ method: 'GET', url: dto.mediaUrl! })).rawPayload.equals(png)).toBe(true);
  });

  it('a recorded voice note goes as ptt (sendVoice); without a caption the quick message text is used', async () => {
    const quick = await createQuick(
      { key: 'audio', message: 'Escute', voice: 'enabled' },
      { name: '1717171717171.webm', mime: 'audio/webm', data: Buffer.from('OggS') },
    );
    const res = await t.call(agent, 'POST', `/messages/${ticket.id}`, { quickMessageId: String(quick.id) });
    expect(res.json<MessageDto>()).toMatchObject({ mediaType: 'ptt', body: 'Escute' });
    expect(await t.jobs.runPending(job('messages.send'))).toBe(1);
    expect(sim.callsOf('sendVoice').at(-1)!.params).toMatchObject({ chat_id: '555000111' });
  });

  it('refuses an unknown or inactive quick message, a bad id, another tenant, a ticket the caller cannot see', async () => {
    const quick = await createQuick(
      { key: 'inativa', message: 'x', isActive: 'false' },
      { name: 'a.pdf', mime: 'application/pdf', data: Buffer.from('%PDF') },
    );
    const files = storedFiles();
    for (const body of [{ quickMessageId: 999999 }, { quickMessageId: quick.id }]) {
      const res = await t.call(agent, 'POST', `/messages/${ticket.id}`, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_FAST_REPLY_FOUND' });
    }
    const bad = await t.call(agent, 'POST', `/messages/${ticket.id}`, { quickMessageId: 'abc', body: 'texto' });
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'quickMessageId' });
    const outsider = (await t.createStaff(await t.createTenant())).admin;
    const res = await t.call(outsider, 'POST', `/messages/${ticket.id}`, { quickMessageId: quick.id });
    expect(res.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    expect(storedFiles()).toBe(files);
  });
});
