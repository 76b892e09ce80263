/**
 * The cap on stored message text (MESSAGE_BODY_MAX_LENGTH, messages.body-cap.ts): a provider's longer text is stored
 * cut and kept whole as a `.txt` file on the same message; agents' sends past it are refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MESSAGE_BODY_MAX_LENGTH,
  type MessageDto,
  type MessageListResponse,
  type TicketListResponse,
} from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { createTelegramChannel, ingestionFor, textEvent } from '../../test/messages-kit.js';
import { capBody } from '../messages/index.js';
import { messages } from '../messages/messages.tables.js';
import { tenants } from '../tenants/tenants.tables.js';

const CAP = MESSAGE_BODY_MAX_LENGTH;

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let channel: { id: number };
/** The webhook secret `createTelegramChannel` gives its channel (Telegram's `secret_token`). */
const secret = 'secret';
let updateId = 910000000;

/** A Telegram text update from one customer (a new message id each time unless given). */
function update(text: string, messageId = updateId - 900000000) {
  updateId += 1;
  return {
    update_id: updateId,
    message: {
      message_id: messageId,
      from: { id: 555000777, is_bot: false, first_name: 'Rita' },
      chat: { id: 555000777, first_name: 'Rita', type: 'private' },
      date: 1763700000,
      text,
    },
  };
}
const webhook = (payload: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/webhooks/telegram/${channel.id}`,
    headers: { 'x-telegram-bot-api-secret-token': secret },
    payload,
  });

/** 200,000 characters of one-, two-, three- and four-byte UTF-8, so "byte-exact" means something. */
const LONG = 'Olá ~a *b* ção €😀 '.repeat(200_000 / 20).padEnd(200_000, 'z');

function storedFiles(): string[] {
  const root = path.join(t.dataDir, 'media');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

async function history(): Promise<MessageDto[]> {
  const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
  const ticket = list.tickets.find((item) => item.contact?.name === 'Rita')!;
  return (await t.call(agent, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>().messages;
}

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://conversa.example' });
  ({ admin, agent } = await t.createStaff());
  // These tests read pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
  // A connected Telegram channel as the webhook meets it: no bot API is called to ingest an update.
  channel = await createTelegramChannel(t, admin.tenantId, { status: 'CONNECTED' });
});
afterAll(async () => t.close());

describe('a provider text past the cap', () => {
  it('is stored cut at the cap through the webhook, its whole text a file of the message, byte-exact', async () => {
    expect(LONG).toHaveLength(200_000);
    const before = storedFiles().length;
    const res = await webhook(update(LONG, 501));
    expect(res.statusCode, res.body).toBe(200);

    const message = (await history()).find((m) => m.messageId?.endsWith('501'))!;
    expect(message.body).toBe(LONG.slice(0, CAP));
    expect(message).toMatchObject({
      mediaType: 'chat',
      mediaName: 'mensagem-completa.txt',
      mediaStatus: 'ready',
      mediaSize: Buffer.byteLength(LONG, 'utf8'),
      fromMe: false,
    });
    const file = await t.app.inject({ method: 'GET', url: new URL(message.mediaUrl!).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(Buffer.from(LONG, 'utf8'))).toBe(true);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="mensagem-completa\.txt"/);
    expect(storedFiles()).toHaveLength(before + 1);

    // The ticket list shows at most the cap too.
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets.find((item) => item.contact?.name === 'Rita')!.lastMessage).toBe(LONG.slice(0, CAP));
  });

  it('a replay stores nothing more: no second message, no second file', async () => {
    const before = storedFiles().length;
    const count = (await history()).length;
    expect((await webhook(update(LONG, 501))).statusCode).toBe(200);
    expect(await history()).toHaveLength(count);
    expect(storedFiles()).toHaveLength(before);
  });

  it('a text of exactly the cap is stored whole, with no file', async () => {
    const exact = 'x'.repeat(CAP);
    expect((await webhook(update(exact, 502))).statusCode).toBe(200);
    const message = (await history()).find((m) => m.messageId?.endsWith('502'))!;
    expect(message).toMatchObject({ body: exact, mediaUrl: null, mediaStatus: 'none', mediaName: null });
  });

  it('concurrent texts of one chat (stored in a batch) keep the rule: the long one still gets its file', async () => {
    const ingestion = ingestionFor(t);
    const tenantId = admin.tenantId;
    const kitChannel = await createTelegramChannel(t, tenantId);
    const events = [
      textEvent('77001', 'primeira'),
      textEvent('77001', LONG),
      textEvent('77001', 'terceira'),
      textEvent('77001', 'quarta'),
    ];
    await Promise.all(events.map((event) => ingestion.ingest(kitChannel, [event])));
    const rows = await withTenant(t.platform.db, systemContext(tenantId), (tx) =>
      tx.select().from(messages).where(eq(messages.channelId, kitChannel.id)),
    );
    expect(rows).toHaveLength(4);
    const long = rows.find((row) => row.messageId === events[1]!.providerMessageId)!;
    expect(long).toMatchObject({ body: LONG.slice(0, CAP), mediaStatus: 'ready', mediaName: 'mensagem-completa.txt' });
    expect(rows.filter((row) => row.mediaKey)).toHaveLength(1);
    expect(ingestion.stats().batches).toBeGreaterThan(0);
  });

  it("an edit past the cap is stored cut; a tenant's full media quota keeps the cut text and marks the file failed", async () => {
    const ingestion = ingestionFor(t);
    const tenantId = await t.createTenant();
    const kitChannel = await createTelegramChannel(t, tenantId);
    await withTenant(t.platform.db, systemContext(tenantId), (tx) =>
      tx.update(tenants).set({ mediaQuotaBytes: 1000 }).where(eq(tenants.id, tenantId)),
    );
    const event = textEvent('77002', LONG);
    await ingestion.ingest(kitChannel, [event]);
    await ingestion.ingest(kitChannel, [
      {
        kind: 'edit',
        providerMessageId: event.providerMessageId,
        party: event.party,
        body: `${LONG}!`,
        timestamp: Date.now(),
      },
    ]);
    const [row] = await withTenant(t.platform.db, systemContext(tenantId), (tx) =>
      tx.select().from(messages).where(eq(messages.messageId, event.providerMessageId)),
    );
    expect(row).toMatchObject({
      body: LONG.slice(0, CAP),
      edition: LONG.slice(0, CAP),
      mediaKey: null,
      mediaStatus: 'failed',
      sendError: 'ERR_MEDIA_QUOTA_EXCEEDED',
    });
  });

  it('never ends a stored body in half of an emoji', () => {
    const text = `${'a'.repeat(CAP - 1)}😀 e mais`;
    expect(capBody(text)).toBe('a'.repeat(CAP - 1));
    expect(capBody('a'.repeat(CAP))).toHaveLength(CAP);
  });
});

describe("an agent's text past the cap", () => {
  it('is refused with ERR_VALIDATION on body; one of the cap is sent', async () => {
    const [message] = await history();
    const over = await t.call(agent, 'POST', `/messages/${message!.ticketId}`, { body: 'y'.repeat(CAP + 1) });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ error: 'ERR_VALIDATION', field: 'body' });
    const at = await t.call(agent, 'POST', `/messages/${message!.ticketId}`, { body: 'y'.repeat(CAP), idFront: 'cap' });
    expect(at.statusCode, at.body).toBe(200);
  });
});
