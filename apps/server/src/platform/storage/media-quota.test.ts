/**
 * The per-tenant media quota: uploads and downloaded provider media are counted; an upload past the quota is
 * refused (413 ERR_MEDIA_QUOTA_EXCEEDED) with nothing stored; a download past it marks the media failed and keeps
 * the message; deletes give the bytes back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext, withTenant } from '../db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import type { ChannelCredentials } from '../../modules/channels/index.js';
import type { Ingestion } from '../../modules/inbox/index.js';
import { messages } from '../../modules/messages/messages.tables.js';
import { createMediaQuota, readMediaUsage } from '../../modules/tenants/index.js';
import { withMediaQuota } from './media-quota.js';
import { createMediaStore } from './media-store.js';
import {
  createTelegramChannel,
  ingestionFor,
  lookupOf,
  mediaJob,
  TestAdapter,
  textEvent,
} from '../../test/messages-kit.js';

const DEFAULT_QUOTA = 100;
let t: TestApp;
let tenant: number;
let agent: TestUser;
let channel: ChannelCredentials;
let ingestion: Ingestion;
const adapter = new TestAdapter();

const db = <T>(fn: Parameters<typeof withTenant<T>>[2]) => withTenant(t.platform.db, systemContext(tenant), fn);
const usage = () => db((tx) => readMediaUsage(tx, tenant));

beforeAll(async () => {
  t = await createTestApp({ MEDIA_TENANT_QUOTA_BYTES: String(DEFAULT_QUOTA) }, { adapters: lookupOf(adapter) });
  tenant = await t.createTenant();
  ({ agent } = await t.createStaff(tenant));
  channel = await createTelegramChannel(t, tenant);
  ingestion = ingestionFor(t);
});
afterAll(async () => t.close());

function storedFiles(): string[] {
  const root = path.join(t.dataDir, 'media', String(tenant));
  return fs.existsSync(root) ? fs.readdirSync(root) : [];
}

let chatSeq = 9100;
async function openTicket(): Promise<{ ticketId: number; chatId: string }> {
  const chatId = String((chatSeq += 1));
  const event = textEvent(chatId, 'olá');
  await ingestion.ingest(channel, [event]);
  const [row] = await db((tx) => tx.select().from(messages).where(eq(messages.messageId, event.providerMessageId)));
  return { ticketId: row!.ticketId, chatId };
}

function upload(ticketId: number, name: string, data: Buffer) {
  const boundary = `----quota${Date.now()}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\n${name}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/messages/${ticketId}`,
    payload,
    headers: { ...agent.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
}

describe('media quota', () => {
  it('counts uploads and refuses the one that would pass the quota, keeping nothing of it', async () => {
    const { ticketId } = await openTicket();
    const first = await upload(ticketId, 'a.png', Buffer.alloc(60, 1));
    expect(first.statusCode, first.body).toBe(200);
    expect(await usage()).toBe(60);
    expect(storedFiles()).toHaveLength(1);

    const refused = await upload(ticketId, 'b.png', Buffer.alloc(41, 2));
    expect(refused.statusCode, refused.body).toBe(413);
    expect(refused.json()).toEqual({ error: 'ERR_MEDIA_QUOTA_EXCEEDED' });
    expect(await usage()).toBe(60);
    expect(storedFiles()).toHaveLength(1);

    const fits = await upload(ticketId, 'c.png', Buffer.alloc(40, 3));
    expect(fits.statusCode, fits.body).toBe(200);
    expect(await usage()).toBe(100);
    expect(storedFiles()).toHaveLength(2);
  });

  it("follows the tenant's own quota when the superadmin set one, and frees bytes on delete", async () => {
    const { ticketId } = await openTicket();
    expect((await upload(ticketId, 'd.png', Buffer.alloc(10))).statusCode).toBe(413);
    const superadmin = await t.createUser({ tenantId: 1, profile: 'superadmin' });
    const raised = await t.call(superadmin, 'PUT', `/tenantsUpdate/${tenant}`, { mediaQuotaBytes: 200 });
    expect(raised.statusCode, raised.body).toBe(200);
    expect(raised.json()).toMatchObject({ mediaQuotaBytes: 200 });
    expect((await upload(ticketId, 'd.png', Buffer.alloc(10))).statusCode).toBe(200);
    expect(await usage()).toBe(110);
    // The same store the app builds: deleting a stored file gives its bytes back.
    const store = withMediaQuota(
      createMediaStore({ root: path.join(t.dataDir, 'media') }),
      createMediaQuota(t.platform.db, DEFAULT_QUOTA),
    );
    const file = storedFiles().find(
      (name) => fs.statSync(path.join(t.dataDir, 'media', String(tenant), name)).size === 60,
    );
    await store.delete(`${tenant}/${file!}`);
    expect(await usage()).toBe(50);
    expect(storedFiles()).toHaveLength(2);
    const reset = await t.call(superadmin, 'PUT', `/tenantsUpdate/${tenant}`, { mediaQuotaBytes: null });
    expect(reset.json()).toMatchObject({ mediaQuotaBytes: null });
  });

  it('marks a provider download past the quota failed, keeps the message, and stores nothing', async () => {
    const before = storedFiles().length;
    const used = await usage();
    expect(used).toBe(50);
    adapter.files.set('quota-photo', { data: Buffer.alloc(DEFAULT_QUOTA - 49, 7), mime: 'image/jpeg', name: 'p.jpg' });
    const { chatId } = await openTicket();
    const photo = textEvent(chatId, '', {
      mediaType: 'image',
      media: { ref: 'quota-photo', mime: 'image/jpeg', name: 'p.jpg', size: DEFAULT_QUOTA - 49 },
    });
    await ingestion.ingest(channel, [photo]);
    await t.jobs.runPending(mediaJob(t));
    const [row] = await db((tx) => tx.select().from(messages).where(eq(messages.messageId, photo.providerMessageId)));
    expect(row).toMatchObject({ mediaStatus: 'failed', sendError: 'ERR_MEDIA_QUOTA_EXCEEDED', mediaKey: null });
    expect(storedFiles()).toHaveLength(before);
    expect(await usage()).toBe(used);
  });

  it("refuses a tenant's very first file when it alone passes the quota, and charges nothing", async () => {
    const fresh = await t.createTenant();
    const quota = createMediaQuota(t.platform.db, DEFAULT_QUOTA);
    const freshUsage = () => withTenant(t.platform.db, systemContext(fresh), (tx) => readMediaUsage(tx, fresh));
    expect(await quota.charge(fresh, DEFAULT_QUOTA + 1)).toBe(false);
    expect(await freshUsage()).toBe(0);
    expect(await quota.charge(fresh, DEFAULT_QUOTA)).toBe(true);
    expect(await freshUsage()).toBe(DEFAULT_QUOTA);
    expect(await quota.charge(fresh, 1)).toBe(false);
    expect(await quota.remaining(fresh)).toBe(0);
  });
});
