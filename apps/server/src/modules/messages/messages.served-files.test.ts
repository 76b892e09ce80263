/**
 * Uploaded files as every serving route answers them (platform/http/served-files.ts): a tenant's or a customer's
 * HTML, JavaScript or SVG never comes back typed from the app's origin; only images, audio and video are shown.
 * Chat media (`/api/media/{token}`), quick messages' public files and chat flows' public files.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDto, QuickMessageDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { createTelegramChannel, ingestionFor, lookupOf, TestAdapter, textEvent } from '../../test/messages-kit.js';
import { messages } from './messages.tables.js';

type FilePart = { name: string; mime: string; data: Buffer };
function multipart(fields: Record<string, string>, file: FilePart) {
  const boundary = `----conversa${Math.random().toString(16).slice(2)}`;
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

const FILES: FilePart[] = [
  { name: 'app.js', mime: 'application/javascript', data: Buffer.from('alert(document.cookie)') },
  { name: 'page.html', mime: 'text/html', data: Buffer.from('<script>alert(1)</script>') },
  {
    name: 'logo.svg',
    mime: 'image/svg+xml',
    data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
  },
  { name: 'foto.png', mime: 'image/png', data: Buffer.from('89504e470d0a1a0a0000', 'hex') },
];

let t: TestApp;
let tenant: number;
let admin: TestUser;
let agent: TestUser;

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://chat.example.com' }, { adapters: lookupOf(new TestAdapter()) });
  tenant = await t.createTenant();
  ({ admin, agent } = await t.createStaff(tenant));
});
afterAll(async () => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url: new URL(url, 'https://chat.example.com').pathname });

/** The answer's bytes are the file's, and only the PNG is shown, with its type; the rest downloads untyped. */
function expectServed(res: Awaited<ReturnType<typeof get>>, file: FilePart) {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.rawPayload.equals(file.data)).toBe(true);
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  if (file.mime === 'image/png') {
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toMatch(/^inline; /);
  } else {
    expect(res.headers['content-type'], file.name).toBe('application/octet-stream');
    expect(res.headers['content-disposition'], file.name).toMatch(/^attachment; filename="/);
  }
}

describe('files served from the app origin', () => {
  it('chat media: a .js, a .html and an .svg download as bytes; the .png is shown', async () => {
    const ingestion = ingestionFor(t);
    const channel = await createTelegramChannel(t, tenant);
    const event = textEvent('88001', 'olá');
    await ingestion.ingest(channel, [event]);
    const [row] = await withTenant(t.platform.db, systemContext(tenant), (tx) =>
      tx.select().from(messages).where(eq(messages.messageId, event.providerMessageId)),
    );
    for (const [index, file] of FILES.entries()) {
      const form = multipart({ body: file.name, idFront: `served-${index}` }, file);
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/messages/${row!.ticketId}`,
        payload: form.payload,
        headers: { ...agent.auth, ...form.headers },
      });
      expect(res.statusCode, res.body).toBe(200);
      expectServed(await get(res.json<MessageDto>().mediaUrl!), file);
    }
  });

  it("quick messages' public files: the same", async () => {
    for (const [index, file] of FILES.entries()) {
      const form = multipart({ key: `arquivo${index}`, message: 'veja' }, file);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/fastreply',
        payload: form.payload,
        headers: { ...admin.auth, ...form.headers },
      });
      expect(res.statusCode, res.body).toBe(201);
      expectServed(await get(res.json<QuickMessageDto>().mediaUrl!), file);
    }
  });

  it("chat flows' public files: text downloads as bytes, the .png is shown (scripts and SVG are refused at upload)", async () => {
    const upload = (file: FilePart) => {
      const form = multipart({}, file);
      return t.app.inject({
        method: 'POST',
        url: '/api/chat-flow-media',
        payload: form.payload,
        headers: { ...admin.auth, ...form.headers },
      });
    };
    for (const file of [FILES[3]!, { name: 'notas.txt', mime: 'text/plain', data: Buffer.from('<b>oi</b>') }]) {
      const res = await upload(file);
      expect(res.statusCode, res.body).toBe(200);
      expectServed(await get(res.json<{ mediaUrl: string }>().mediaUrl), file);
    }
    for (const file of FILES.slice(0, 3)) expect((await upload(file)).statusCode, file.name).toBe(400);
  });
});
