/**
 * Media of a provider that downloads only through its live session (whatsapp-web.js): the download job found in the
 * shared queue moves, uncounted, to the session's queue and the owner downloads it through its live session. A
 * driver that downloads anywhere (Baileys) keeps its jobs in the shared queue.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../../platform/db/client.js';
import { systemContext, withTenant } from '../../../platform/db/tenancy.js';
import type { JobDefinition } from '../../../platform/jobs/queue.js';
import { createTestApp, type TestApp, type TestUser } from '../../../test/harness.js';
import { messages } from '../../messages/messages.tables.js';
import { sessionHostOf } from '../index.js';
import { fakeDriver } from './session-fake.test-kit.js';
import type { SessionHost } from './session-host.js';

let t: TestApp;
let admin: TestUser;
const web = fakeDriver('web', { type: 'whatsapp', mediaNeedsSession: true });
const baileys = fakeDriver('bail', { type: 'baileys' });
let host: SessionHost;

const mediaJob = () =>
  t.jobDefinitions.find((d) => d.name === 'messages.download-media') as unknown as JobDefinition<unknown>;
const messageRow = async (providerId: string) =>
  (
    await withTenant(t.platform.db, systemContext(1), (tx) =>
      tx.select().from(messages).where(eq(messages.messageId, providerId)),
    )
  )[0];
const queued = (queue: string) =>
  queryRows<{ data: { kind: string } }>(t.platform.db, sql`select data from pgboss.job where name = ${queue}`);

beforeAll(async () => {
  t = await createTestApp({}, { sessionDrivers: [web.driver, baileys.driver] });
  await t.database.executeSql('update tenants set max_connections = 50 where id = 1');
  ({ admin } = await t.createStaff());
  host = sessionHostOf(t.platform)!;
});
afterAll(() => t.close());

async function connected(type: 'whatsapp' | 'baileys', opened: { channelId: number }[]) {
  const created = await t.call(admin, 'POST', '/whatsapp', { name: `Zap ${type}`, type });
  const channelId = created.json<{ id: number }>().id;
  await t.call(admin, 'POST', `/whatsappsession/${channelId}`);
  await host.tick();
  await vi.waitFor(() => expect(opened.some((live) => live.channelId === channelId)).toBe(true));
  return channelId;
}

const photo = (id: string) => ({
  kind: 'message' as const,
  providerMessageId: id,
  party: { chatId: '5511966665555', isGroup: false, name: 'Ana', number: '5511966665555', idField: 'number' as const },
  fromMe: false,
  timestamp: Date.now(),
  mediaType: 'image' as const,
  body: '',
  media: { ref: `ref-${id}`, mime: 'image/jpeg', name: 'foto.jpg', size: 5 },
  quotedProviderMessageId: null,
});

describe('media of stateful sessions', () => {
  it('whatsapp-web.js: the shared job moves to the session queue and the owner downloads through its session', async () => {
    const channelId = await connected('whatsapp', web.opened);
    const live = web.opened.find((l) => l.channelId === channelId)!;
    await live.context.emit([photo('WEB1')]);
    expect(await messageRow('WEB1')).toMatchObject({ mediaStatus: 'pending', sendAttempts: 0 });
    expect(await t.jobs.runPending(mediaJob())).toBe(1);
    // Moved, not run: no attempt counted here.
    expect((await messageRow('WEB1'))!.sendAttempts).toBe(0);
    await vi.waitFor(async () => expect((await messageRow('WEB1'))!.mediaStatus).toBe('ready'), { timeout: 10_000 });
    expect(live.actions).toContain('download ref-WEB1');
    expect((await messageRow('WEB1'))!.sendAttempts).toBe(1);
  });

  it('Baileys: the download runs from the shared queue on any node', async () => {
    const channelId = await connected('baileys', baileys.opened);
    const live = baileys.opened.find((l) => l.channelId === channelId)!;
    await live.context.emit([photo('BAIL1')]);
    expect(await t.jobs.runPending(mediaJob())).toBe(1);
    expect(await messageRow('BAIL1')).toMatchObject({ mediaStatus: 'ready', sendAttempts: 1 });
    expect(live.actions).not.toContain('download ref-BAIL1');
    expect((await queued(`session.${channelId}`)).map((j) => j.data.kind)).not.toContain('messages.download-media');
  });
});
