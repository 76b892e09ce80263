/**
 * POST /messages/{ticketId} with a `scheduleDate` (client-contract §5.2): stored as a scheduled message (status
 * pending, the schedules module's rules) instead of sent, JSON and multipart alike, and on the gateway paths that
 * share the send. Without a date (or with the empty forms clients send) the message still goes out at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduledMessageDto } from '@conversa/shared';
import { queryRows } from '../../platform/db/client.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { createTelegramChannel, ingestionFor, lookupOf, TestAdapter, textEvent } from '../../test/messages-kit.js';
import type { ChannelCredentials } from '../channels/index.js';
import type { Ingestion } from '../inbox/index.js';

let t: TestApp;
let tenant: number;
let agent: TestUser;
let other: TestUser;
let channel: ChannelCredentials;
let ingestion: Ingestion;

const FUTURE = '2099-12-01 09:00';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

let chatSeq = 8100;
/** A customer writes first: the ticket the agent answers. */
async function openConversation(): Promise<number> {
  const chatId = String((chatSeq += 1));
  const event = textEvent(chatId, 'olá');
  await ingestion.ingest(channel, [event]);
  const rows = await queryRows<{ ticket_id: number }>(
    t.platform.db,
    sql`select ticket_id from messages where message_id = ${event.providerMessageId}`,
  );
  return Number(rows[0]!.ticket_id);
}

const post = (ticketId: number, body: object, user = agent, prefix = 'messages') =>
  t.call(user, 'POST', `/${prefix}/${ticketId}`, body);

function multipart(fields: Record<string, string>, file: { name: string; mime: string; data: Buffer }) {
  const boundary = `----ticketschedule${Date.now()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.mime}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (ticketId: number, fields: Record<string, string>) => {
  const form = multipart(fields, { name: 'foto.png', mime: 'image/png', data: PNG });
  return t.app.inject({
    method: 'POST',
    url: `/api/messages/${ticketId}`,
    payload: form.payload,
    headers: { ...agent.auth, ...form.headers },
  });
};

async function messagesOf(ticketId: number): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    t.platform.db,
    sql`select count(*)::int as n from messages where ticket_id = ${ticketId} and from_me`,
  );
  return Number(rows[0]!.n);
}

async function schedulesOf(ticketId: number) {
  return queryRows<{ id: number; body: string; status: string; media_key: string | null; user_id: number }>(
    t.platform.db,
    sql`select id, body, status, media_key, user_id from scheduled_messages where ticket_id = ${ticketId} order by id`,
  );
}

function storedFiles(): string[] {
  const root = path.join(t.dataDir, 'media');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

beforeAll(async () => {
  t = await createTestApp({}, { adapters: lookupOf(new TestAdapter()) });
  tenant = await t.createTenant();
  ({ agent } = await t.createStaff(tenant));
  // Another company's agent: its token never reaches this company's tickets.
  ({ agent: other } = await t.createStaff(await t.createTenant()));
  channel = await createTelegramChannel(t, tenant);
  ingestion = ingestionFor(t);
});
afterAll(async () => t.close());

describe('POST /messages/{ticketId} with a scheduleDate (JSON)', () => {
  it("stores a pending schedule on the ticket (company's wall clock) and sends nothing now", async () => {
    const ticketId = await openConversation();
    const res = await post(ticketId, {
      body: 'Lembrete da consulta',
      fromMe: true,
      read: 1,
      mediaUrl: '',
      quotedMsg: null,
      idFront: 'sched-1',
      scheduleDate: FUTURE,
    });
    expect(res.statusCode, res.body).toBe(200);
    const dto = res.json<ScheduledMessageDto>();
    // 09:00 in America/Sao_Paulo (the tenants' default timezone) is 12:00Z.
    expect(dto).toMatchObject({
      ticketId,
      channelId: channel.id,
      body: 'Lembrete da consulta',
      scheduleDate: '2099-12-01T12:00:00.000Z',
      scheduleLocal: FUTURE,
      status: 'pending',
      user: { id: agent.id },
    });
    expect(await messagesOf(ticketId)).toBe(0);
    expect(await schedulesOf(ticketId)).toEqual([
      expect.objectContaining({ id: dto.id, status: 'pending', user_id: agent.id }),
    ]);
    const jobs = await queryRows<{ n: number }>(
      t.platform.db,
      sql`select count(*)::int as n from pgboss.job where name = 'schedules.send' and data->>'scheduleId' = ${String(dto.id)}`,
    );
    expect(Number(jobs[0]!.n)).toBe(1);
    // The ticket's detail lists it among its scheduled messages.
    const detail = await t.call(agent, 'GET', `/tickets/${ticketId}`);
    expect(detail.json().scheduledMessages).toEqual([expect.objectContaining({ id: dto.id })]);
    // The same idFront again (a client retry) makes no second schedule.
    const again = await post(ticketId, { body: 'Lembrete da consulta', idFront: 'sched-1', scheduleDate: FUTURE });
    expect(again.json().id).toBe(dto.id);
    expect(await schedulesOf(ticketId)).toHaveLength(1);
  });

  it('takes an ISO instant as it is', async () => {
    const ticketId = await openConversation();
    const res = await post(ticketId, { body: 'ISO', scheduleDate: '2099-06-01T10:30:00.000Z' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ scheduleDate: '2099-06-01T10:30:00.000Z', status: 'pending' });
  });

  it('refuses a date in the past or no date at all with the schedules rule, storing and sending nothing', async () => {
    const ticketId = await openConversation();
    for (const scheduleDate of ['2001-01-01 10:00', '31/02/2099 10:00']) {
      const res = await post(ticketId, { body: 'Tarde demais', scheduleDate });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'ERR_SCHEDULE_DATE_NOT_VALID' });
    }
    const empty = await post(ticketId, { body: '   ', scheduleDate: FUTURE });
    expect(empty.statusCode).toBe(400);
    expect(await schedulesOf(ticketId)).toEqual([]);
    expect(await messagesOf(ticketId)).toBe(0);
  });

  it("sends at once when the date is absent or one of the clients' empty forms", async () => {
    const ticketId = await openConversation();
    for (const scheduleDate of [null, '', 'null']) {
      const res = await post(ticketId, { body: `agora ${String(scheduleDate)}`, scheduleDate });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ fromMe: true, ack: 0 });
    }
    expect(await messagesOf(ticketId)).toBe(3);
    expect(await schedulesOf(ticketId)).toEqual([]);
  });

  it('refuses a quick message with a date (400, field scheduleDate) instead of sending it now', async () => {
    const ticketId = await openConversation();
    const res = await post(ticketId, { quickMessageId: 1, scheduleDate: FUTURE });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'scheduleDate' });
    expect(await messagesOf(ticketId)).toBe(0);
  });

  it("refuses another company's ticket (not found) and schedules nothing", async () => {
    const ticketId = await openConversation();
    const res = await post(ticketId, { body: 'intruso', scheduleDate: FUTURE }, other);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    expect(await schedulesOf(ticketId)).toEqual([]);
  });

  it('schedules on the gateway paths that share the send (/evo-message/{ticketId})', async () => {
    const ticketId = await openConversation();
    const res = await post(ticketId, { body: 'via gateway', scheduleDate: FUTURE }, agent, 'evo-message');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ticketId, status: 'pending', body: 'via gateway' });
    expect(await messagesOf(ticketId)).toBe(0);
  });
});

describe('POST /messages/{ticketId} with a scheduleDate (multipart)', () => {
  it('stores the file with the schedule instead of sending it', async () => {
    const ticketId = await openConversation();
    const res = await upload(ticketId, { body: 'foto.png', fromMe: 'true', idFront: 'f-s', scheduleDate: FUTURE });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ScheduledMessageDto>()).toMatchObject({
      ticketId,
      status: 'pending',
      mediaName: 'foto.png',
      mediaType: 'image/png',
      scheduleDate: '2099-12-01T12:00:00.000Z',
    });
    expect(await messagesOf(ticketId)).toBe(0);
    const [row] = await schedulesOf(ticketId);
    expect(row?.media_key).toEqual(expect.any(String));
  });

  it('removes the stored file when the date is refused', async () => {
    const ticketId = await openConversation();
    const before = storedFiles().length;
    const res = await upload(ticketId, { body: 'foto.png', scheduleDate: '2001-01-01 10:00' });
    expect(res.json()).toEqual({ error: 'ERR_SCHEDULE_DATE_NOT_VALID' });
    expect(storedFiles().length).toBe(before);
    expect(await schedulesOf(ticketId)).toEqual([]);
    expect(await messagesOf(ticketId)).toBe(0);
  });

  it('sends the file at once with an empty scheduleDate', async () => {
    const ticketId = await openConversation();
    const res = await upload(ticketId, { body: 'foto.png', scheduleDate: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ mediaType: 'image', fromMe: true });
    expect(await messagesOf(ticketId)).toBe(1);
  });
});
