/** Agent sends (POST /messages/{ticketId}, JSON and multipart), the send job's retries, and the tickets port. */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MessageDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { ProviderError, type ChannelCredentials } from '../channels/index.js';
import type { Ingestion } from '../inbox/index.js';
import { tickets } from '../tickets/tickets.tables.js';
import { createTicketMessaging } from './index.js';
import { messages } from './messages.tables.js';
import {
  createTelegramChannel,
  ingestionFor,
  lookupOf,
  recordEvents,
  sendJob,
  settle,
  TestAdapter,
  textEvent,
} from '../../test/messages-kit.js';

let t: TestApp;
let tenant: number;
let agent: TestUser;
let channel: ChannelCredentials;
let ingestion: Ingestion;
let recorded: ReturnType<typeof recordEvents>;
const adapter = new TestAdapter();
const MAX_UPLOAD = 1000;

const db = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(t.platform.db, systemContext(tenant), fn);
const messageRow = (id: number) => db(async (tx) => (await tx.select().from(messages).where(eq(messages.id, id)))[0]!);
const ticketRow = (id: number) => db(async (tx) => (await tx.select().from(tickets).where(eq(tickets.id, id)))[0]!);

let chatSeq = 7000;
/** A customer writes first: the ticket the agent answers. */
async function openConversation(): Promise<{ ticketId: number; chatId: string; providerId: string }> {
  const chatId = String((chatSeq += 1));
  const event = textEvent(chatId, 'olá');
  await ingestion.ingest(channel, [event]);
  const [row] = await db((tx) => tx.select().from(messages).where(eq(messages.messageId, event.providerMessageId)));
  return { ticketId: row!.ticketId, chatId, providerId: event.providerMessageId };
}

const post = (ticketId: number, body: object, user = agent) => t.call(user, 'POST', `/messages/${ticketId}`, body);

function multipart(fields: Record<string, string>, file?: { name: string; mime: string; data: Buffer }) {
  const boundary = `----conversa${Date.now()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.mime}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (ticketId: number, form: ReturnType<typeof multipart>) =>
  t.app.inject({
    method: 'POST',
    url: `/api/messages/${ticketId}`,
    payload: form.payload,
    headers: { ...agent.auth, ...form.headers },
  });

function storedFiles(): string[] {
  const root = path.join(t.dataDir, 'media');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

beforeAll(async () => {
  t = await createTestApp({ MEDIA_MAX_UPLOAD_BYTES: String(MAX_UPLOAD) }, { adapters: lookupOf(adapter) });
  tenant = await t.createTenant();
  ({ agent } = await t.createStaff(tenant));
  channel = await createTelegramChannel(t, tenant);
  ingestion = ingestionFor(t);
  recorded = recordEvents(t);
});
afterAll(async () => t.close());
beforeEach(async () => {
  // Jobs left by earlier tests must not run inside the next one.
  await t.jobs.runPending(sendJob(t));
  adapter.sent.length = 0;
  recorded.clear();
});

describe('POST /messages/{ticketId} (text)', () => {
  it('stores a pending message, answers the ticket, and the send job delivers it', async () => {
    const { ticketId, chatId } = await openConversation();
    await settle();
    recorded.clear();
    const res = await post(ticketId, {
      body: 'Como posso ajudar?',
      fromMe: true,
      read: 1,
      mediaUrl: '',
      quotedMsg: null,
      idFront: 'f-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    const dto = res.json<MessageDto>();
    expect(dto).toMatchObject({
      body: 'Como posso ajudar?',
      fromMe: true,
      ack: 0,
      status: 'pending',
      messageId: null,
      idFront: 'f-1',
    });
    expect(dto.user).toMatchObject({ id: agent.id });
    expect(await ticketRow(ticketId)).toMatchObject({
      answered: true,
      unreadMessages: 0,
      lastMessage: 'Como posso ajudar?',
    });
    await settle();
    expect(recorded.messages.map((e) => e.type)).toEqual(['chat:create']);
    // The sender's browser matches the socket copy to its pending bubble by the echoed idFront.
    expect(recorded.messages[0]).toMatchObject({ message: { id: dto.id, idFront: 'f-1' } });
    expect(recorded.tickets.map((e) => e.type)).toEqual(['ticket:update']);

    expect(await t.jobs.runPending(sendJob(t))).toBe(1);
    expect(adapter.sent).toHaveLength(1);
    expect(adapter.sent[0]).toMatchObject({ to: chatId, body: 'Como posso ajudar?', media: null });
    const sent = await messageRow(dto.id);
    expect(sent).toMatchObject({ ack: 1, status: 'sended', isDelayed: false });
    expect(sent.messageId).toMatch(/^\d+$/);
    await settle();
    expect(recorded.messages.at(-1)).toMatchObject({ type: 'chat:ack', message: { id: dto.id, ack: 1 } });

    // Idempotent: a second run of the same job does not send again.
    await sendJob(t).handler({ tenantId: tenant, messageId: dto.id });
    expect(adapter.sent).toHaveLength(1);
  });

  it('the same idFront twice is one message and one send', async () => {
    const { ticketId } = await openConversation();
    const first = await post(ticketId, { body: 'uma vez só', idFront: 'dup-1' });
    const second = await post(ticketId, { body: 'uma vez só', idFront: 'dup-1' });
    expect(second.statusCode).toBe(200);
    expect(second.json<MessageDto>().id).toBe(first.json<MessageDto>().id);
    const rows = await db((tx) => tx.select().from(messages).where(eq(messages.idFront, 'dup-1')));
    expect(rows).toHaveLength(1);
    expect(await t.jobs.runPending(sendJob(t))).toBe(1);
    expect(adapter.sent).toHaveLength(1);
  });

  it('replies carry the quoted provider id; a quote from another conversation is refused', async () => {
    const { ticketId, providerId } = await openConversation();
    const [quoted] = await db((tx) => tx.select().from(messages).where(eq(messages.messageId, providerId)));
    const res = await post(ticketId, { body: 'respondendo', quotedMsg: { id: quoted!.id, body: 'olá' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<MessageDto>().quotedMsg).toMatchObject({ id: quoted!.id });
    await t.jobs.runPending(sendJob(t));
    expect(adapter.sent[0]!.replyToProviderMessageId).toBe(providerId);

    const other = await openConversation();
    const refused = await post(other.ticketId, { body: 'x', quotedMsg: quoted!.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'quotedMsg' });
  });

  it('refuses closed, unknown and empty', async () => {
    const { ticketId } = await openConversation();
    expect((await post(ticketId, { body: '' })).json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'body' });
    // A date makes it a scheduled message (schedules.ticket-send.test.ts); one in the past is refused.
    expect((await post(ticketId, { body: 'x', scheduleDate: '2001-01-01 10:00' })).json()).toEqual({
      error: 'ERR_SCHEDULE_DATE_NOT_VALID',
    });
    expect((await post(999_999, { body: 'x' })).json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    await db((tx) => tx.update(tickets).set({ status: 'closed' }).where(eq(tickets.id, ticketId)));
    const closed = await post(ticketId, { body: 'x' });
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toEqual({ error: 'ERR_TICKET_CLOSED' });
  });
});

describe('the send job', () => {
  async function pendingMessage(): Promise<number> {
    const { ticketId } = await openConversation();
    const res = await post(ticketId, { body: 'tentando' });
    return res.json<MessageDto>().id;
  }
  const run = (messageId: number) => sendJob(t).handler({ tenantId: tenant, messageId });

  it('a transient failure is retried, then succeeds', async () => {
    const id = await pendingMessage();
    adapter.fail(new ProviderError('502 from provider', false));
    await expect(run(id)).rejects.toThrow('502 from provider');
    expect(await messageRow(id)).toMatchObject({ isDelayed: false, sendAttempts: 1, messageId: null });
    await run(id);
    expect(await messageRow(id)).toMatchObject({ ack: 1, status: 'sended', sendAttempts: 2 });
  });

  it('a permanent failure marks the message undelivered and completes', async () => {
    const id = await pendingMessage();
    await settle();
    recorded.clear();
    adapter.fail(new ProviderError('chat not found', true));
    await run(id);
    expect(await messageRow(id)).toMatchObject({ isDelayed: true, sendError: 'chat not found', messageId: null });
    await settle();
    expect(recorded.messages).toMatchObject([{ type: 'chat:update', message: { id, isDelayed: true } }]);
    await run(id);
    expect(adapter.sent).toHaveLength(0);
  });

  it('the last attempt marks it undelivered', async () => {
    const id = await pendingMessage();
    adapter.fail(...Array.from({ length: 5 }, () => new ProviderError('timeout', false)));
    for (let attempt = 1; attempt < 5; attempt += 1) await expect(run(id)).rejects.toThrow('timeout');
    await run(id);
    expect(await messageRow(id)).toMatchObject({ isDelayed: true, sendAttempts: 5, sendError: 'timeout' });
  });
});

describe('POST /messages/{ticketId} (multipart)', () => {
  it('stores the file, sends its bytes, and serves it through the signed link', async () => {
    const { ticketId } = await openConversation();
    const png = Buffer.from('89504e470d0a1a0a', 'hex');
    const res = await upload(
      ticketId,
      multipart(
        { body: 'foto.png', fromMe: 'true', idFront: 'up-1', isSticker: 'false' },
        { name: 'foto.png', mime: 'image/png', data: png },
      ),
    );
    expect(res.statusCode, res.body).toBe(200);
    const dto = res.json<MessageDto>();
    expect(dto).toMatchObject({
      mediaType: 'image',
      mediaName: 'foto.png',
      mediaStatus: 'ready',
      mediaSize: png.length,
    });
    const media = await t.app.inject({ method: 'GET', url: dto.mediaUrl! });
    expect(media.rawPayload.equals(png)).toBe(true);
    await t.jobs.runPending(sendJob(t));
    expect(adapter.sent[0]!.media).toMatchObject({ mime: 'image/png', name: 'foto.png' });
    expect(adapter.sent[0]!.media!.data.equals(png)).toBe(true);
  });

  it('a recorded audio is a voice note (ptt)', async () => {
    const { ticketId } = await openConversation();
    const name = '1717171717171.mp3';
    const res = await upload(
      ticketId,
      multipart({ body: name, fromMe: 'true' }, { name, mime: 'audio/mpeg', data: Buffer.from('ID3') }),
    );
    expect(res.json<MessageDto>().mediaType).toBe('ptt');
  });

  it('too big or of a refused type: the catalogue error and nothing stored', async () => {
    const { ticketId } = await openConversation();
    const before = storedFiles().length;
    const count = async () =>
      (await db((tx) => tx.select().from(messages).where(eq(messages.ticketId, ticketId)))).length;
    const rows = await count();
    const big = await upload(
      ticketId,
      multipart({ body: 'big.pdf' }, { name: 'big.pdf', mime: 'application/pdf', data: Buffer.alloc(MAX_UPLOAD + 1) }),
    );
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    const font = await upload(
      ticketId,
      multipart({ body: 'x.woff2' }, { name: 'x.woff2', mime: 'font/woff2', data: Buffer.from('wOF2') }),
    );
    expect(font.statusCode).toBe(400);
    expect(font.json()).toMatchObject({ error: 'ERR_PAYLOAD_TOO_LARGE' });
    const noFile = await upload(ticketId, multipart({ body: 'nada' }));
    expect(noFile.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'medias' });
    expect(storedFiles()).toHaveLength(before);
    expect(await count()).toBe(rows);
  });

  it('an upload to a ticket of another tenant is refused and not stored', async () => {
    const other = await t.createTenant();
    const { agent: outsider } = await t.createStaff(other);
    const { ticketId } = await openConversation();
    const before = storedFiles().length;
    const form = multipart({ body: 'a.png' }, { name: 'a.png', mime: 'image/png', data: Buffer.from('x') });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      payload: form.payload,
      headers: { ...outsider.auth, ...form.headers },
    });
    expect(res.statusCode).toBe(404);
    expect(storedFiles()).toHaveLength(before);
  });
});

describe('TicketMessagingPort', () => {
  it('queues a farewell inside the caller transaction; the job announces and sends it', async () => {
    const { ticketId } = await openConversation();
    const port = createTicketMessaging({ jobs: t.jobs });
    await db((tx) => port.queueSystemMessage(tx, systemContext(tenant), ticketId, 'Até logo!', 'farewell'));
    await settle();
    recorded.clear();
    expect(await t.jobs.runPending(sendJob(t))).toBe(1);
    await settle();
    expect(recorded.messages.map((e) => e.type)).toEqual(['chat:create', 'chat:ack']);
    expect(recorded.messages[0]!.message).toMatchObject({ body: 'Até logo!', sendType: 'farewell' });
    expect(adapter.sent.map((m) => m.body)).toEqual(['Até logo!']);
  });

  it('requeueStuckSends re-sends undelivered messages', async () => {
    const { ticketId } = await openConversation();
    const id = (await post(ticketId, { body: 'perdida' })).json<MessageDto>().id;
    adapter.fail(new ProviderError('bot blocked', true));
    await t.jobs.runPending(sendJob(t));
    expect(await messageRow(id)).toMatchObject({ isDelayed: true });
    const port = createTicketMessaging({ jobs: t.jobs });
    const count = await db((tx) => port.requeueStuckSends(tx, systemContext(tenant)));
    expect(count).toBeGreaterThanOrEqual(1);
    expect(await messageRow(id)).toMatchObject({ isDelayed: false, sendAttempts: 0 });
    await t.jobs.runPending(sendJob(t));
    expect(await messageRow(id)).toMatchObject({ status: 'sended', ack: 1 });
  });
});
