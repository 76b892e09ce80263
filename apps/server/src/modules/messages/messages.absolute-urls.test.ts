/**
 * Every URL the API answers for a file is absolute on PUBLIC_URL (client-contract §6, §20.3: clients of another
 * origin open them directly): a message's `mediaUrl`, a quick message's `mediaUrl`, a chat flow file's `mediaUrl`
 * (the contacts export's `downloadLink` and the app info's files have their own tests). Each one is fetched back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../platform/db/client.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { createTelegramChannel, ingestionFor, lookupOf, TestAdapter, textEvent } from '../../test/messages-kit.js';

const PUBLIC_URL = 'https://atendimento.example.com';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

let t: TestApp;
let admin: TestUser;

function multipart(fields: Record<string, string>, file: { field: string; name: string; mime: string; data: Buffer }) {
  const boundary = `----absolute${Date.now()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.mime}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const uploadTo = (url: string, fields: Record<string, string>, field = 'medias') => {
  const form = multipart(fields, { field, name: 'foto.png', mime: 'image/png', data: PNG });
  return t.app.inject({ method: 'POST', url, payload: form.payload, headers: { ...admin.auth, ...form.headers } });
};

/** The URL is PUBLIC_URL's, and its path serves the file without a token. */
async function expectServedAbsolute(url: string | null | undefined) {
  expect(url, 'a URL').toEqual(expect.any(String));
  expect(url!.startsWith(`${PUBLIC_URL}/api/`), url!).toBe(true);
  const { pathname, search } = new URL(url!);
  const res = await t.app.inject({ method: 'GET', url: `${pathname}${search}` });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL }, { adapters: lookupOf(new TestAdapter()) });
  const tenant = await t.createTenant();
  ({ admin } = await t.createStaff(tenant));
});
afterAll(async () => t.close());

describe('absolute file URLs', () => {
  it("a message's mediaUrl, in the send's answer and in the ticket's history", async () => {
    const channel = await createTelegramChannel(t, admin.tenantId);
    const event = textEvent('8800', 'olá');
    await ingestionFor(t).ingest(channel, [event]);
    const [row] = await queryRows<{ ticket_id: number }>(
      t.platform.db,
      sql`select ticket_id from messages where message_id = ${event.providerMessageId}`,
    );
    const ticketId = Number(row!.ticket_id);
    const sent = await uploadTo(`/api/messages/${ticketId}`, { body: 'foto.png', fromMe: 'true' });
    expect(sent.statusCode, sent.body).toBe(200);
    await expectServedAbsolute(sent.json<{ mediaUrl: string | null }>().mediaUrl);
    const history = await t.call(admin, 'GET', `/messages/${ticketId}`);
    type Listed = { mediaUrl: string | null }[];
    const { messages, messagesOffLine } = history.json<{ messages: Listed; messagesOffLine: Listed }>();
    // Not sent yet, so among the offline ones (or the history once the send job ran).
    const withFile = [...messages, ...messagesOffLine].filter((m) => m.mediaUrl);
    expect(withFile).toHaveLength(1);
    await expectServedAbsolute(withFile[0]!.mediaUrl);
  });

  it("a quick message's mediaUrl", async () => {
    const res = await uploadTo('/api/fastreply/', { key: 'foto', message: 'Veja', voice: 'disabled' });
    expect(res.statusCode, res.body).toBe(201);
    await expectServedAbsolute(res.json<{ mediaUrl: string | null }>().mediaUrl);
    const list = await t.call(admin, 'GET', '/fastreply/');
    await expectServedAbsolute(list.json<{ mediaUrl: string | null }[]>()[0]!.mediaUrl);
  });

  it("a chat flow file's mediaUrl", async () => {
    const res = await uploadTo('/api/chat-flow-media', {});
    expect(res.statusCode, res.body).toBe(200);
    await expectServedAbsolute(res.json<{ mediaUrl: string }>().mediaUrl);
  });
});
