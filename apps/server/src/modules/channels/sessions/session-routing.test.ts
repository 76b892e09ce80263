/**
 * Through the app: connecting a stateful channel records the intent and the node that claims it opens the session;
 * an agent's send goes into the session's queue and is sent by the owner; an edit asked for on a node that does not
 * run the session runs on the owner; with no owner it answers ERR_WAPP_NOT_INITIALIZED; a disconnect stops it.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../../platform/db/client.js';
import { createJobQueue, type JobQueue } from '../../../platform/jobs/queue.js';
import { systemContext, withTenant } from '../../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../../test/harness.js';
import { makeContact, makeTicket } from '../../../test/ticket-fixtures.js';
import { messages } from '../../messages/messages.tables.js';
import { sessionHostOf } from '../index.js';
import { channelSessions } from '../channels.tables.js';
import { fakeDriver } from './session-fake.test-kit.js';
import { createSessionHost, type SessionHost } from './session-host.js';

let t: TestApp;
let admin: TestUser;
const a = fakeDriver('node-a');
const b = fakeDriver('node-b');
let hostA: SessionHost;
let hostB: SessionHost;
let jobsB: JobQueue;
let channelId: number;
let ticketId: number;

beforeAll(async () => {
  t = await createTestApp({}, { sessionDrivers: [a.driver] });
  ({ admin } = await t.createStaff());
  hostA = sessionHostOf(t.platform)!;
  // Another node: its own job queue (workers are per process) on the same database.
  jobsB = createJobQueue(t.database, t.platform.logger);
  await jobsB.start([], false);
  hostB = createSessionHost({
    db: t.platform.db,
    jobs: jobsB,
    logger: t.platform.logger,
    platform: t.platform,
    secret: t.platform.secrets.sessionKey,
    drivers: new Map([['baileys', b.driver]]),
    timing: { leaseTtlMs: 60_000, renewMs: 1_000, claimsPerTick: 5, actionTimeoutMs: 5_000 },
    ports: {
      sessionEvent: async () => undefined,
      status: async () => undefined,
      conversation: async () => undefined,
      callPolicy: async () => ({ reject: false, message: '' }),
    },
    nodeId: 'node-b',
  });
});
afterAll(async () => {
  await hostB.stop();
  await jobsB.stop();
  await t.close();
});

const session = async () =>
  (
    await withTenant(t.platform.db, systemContext(1), (tx) =>
      tx.select().from(channelSessions).where(eq(channelSessions.channelId, channelId)),
    )
  )[0];

describe('a stateful channel across nodes', () => {
  it('connect records the intent; the claiming node opens the session (QR, then connected)', async () => {
    const created = await t.call(admin, 'POST', '/whatsapp', { name: 'Zap', type: 'baileys' });
    expect(created.statusCode, created.body).toBe(201);
    channelId = created.json<{ id: number }>().id;
    const started = await t.call(admin, 'POST', `/whatsappsession/${channelId}`);
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'OPENING' });
    expect(await session()).toMatchObject({ wanted: true, owner: null, pairingNumber: null });
    await hostA.tick();
    await vi.waitFor(async () =>
      expect((await t.call(admin, 'GET', `/whatsapp/${channelId}`)).json()).toMatchObject({
        status: 'CONNECTED',
        number: '5511988887777',
      }),
    );
    expect(a.opened.map((l) => [l.channelId, l.resumed])).toEqual([[channelId, false]]);
    expect((await session())!.owner).toBe(hostA.nodeId);
  });

  it("an agent's send goes to the session's queue and the owner sends it once", async () => {
    const contactId = await makeContact(t, 1, { number: '5511977776666' });
    ticketId = await makeTicket(t, 1, { contactId, channelId, status: 'open', userId: admin.id });
    const sent = await t.call(admin, 'POST', `/messages/${ticketId}`, { body: 'olá pelo zap' });
    expect(sent.statusCode, sent.body).toBe(200);
    const queued = await queryRows<{ name: string; data: { kind: string } }>(
      t.platform.db,
      sql`select name, data from pgboss.job where name = ${`session.${channelId}`}`,
    );
    expect(queued.map((j) => j.data.kind)).toEqual(['messages.send']);
    expect(
      await queryRows(t.platform.db, sql`select 1 from pgboss.job where name = 'messages.send' and state = 'created'`),
    ).toEqual([]);
    const live = a.opened[0]!;
    await vi.waitFor(() => expect(live.sent.map((m) => m.body)).toEqual(['olá pelo zap']), { timeout: 10_000 });
    await vi.waitFor(async () => {
      const [row] = await withTenant(t.platform.db, systemContext(1), (tx) =>
        tx.select().from(messages).where(eq(messages.ticketId, ticketId)),
      );
      expect(row).toMatchObject({ messageId: 'node-a-msg-1', status: 'sended', sendAttempts: 1 });
    });
    expect(live.sent[0]!.to).toBe('5511977776666');
  });

  it('a new login attempt moves the session; an edit asked for on the other node runs on the owner', async () => {
    const restarted = await t.call(admin, 'PUT', `/whatsappsession/${channelId}`, { isQrcode: true });
    expect(restarted.statusCode, restarted.body).toBe(200);
    expect((await session())!.owner).toBeNull();
    await hostB.tick();
    await hostA.tick();
    expect(hostB.running()).toEqual([channelId]);
    expect(hostA.running()).toEqual([]);
    expect(a.opened[0]!.closedByHost).toBe(true);
    await vi.waitFor(() => expect(b.opened).toHaveLength(1));
    // The stored auth of A's login: no new QR.
    expect(b.opened[0]!.resumed).toBe(true);
    const edited = await t.call(admin, 'POST', '/messages/editMessage', {
      messageId: 'node-a-msg-1',
      ticketId,
      newBody: 'olá (editado)',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(b.opened[0]!.actions).toEqual(['edit 5511977776666 node-a-msg-1 olá (editado)']);
    expect(await hostA.act({ op: 'checkNumber', channelId, number: '5511955554444' })).toEqual({
      exists: true,
      number: '5511955554444',
    });
  });

  it('with no node running the session, an action answers ERR_WAPP_NOT_INITIALIZED', async () => {
    await hostB.stop();
    expect((await session())!.owner).toBeNull();
    const edited = await t.call(admin, 'POST', '/messages/editMessage', {
      messageId: 'node-a-msg-1',
      ticketId,
      newBody: 'de novo',
    });
    expect(edited.statusCode).toBe(409);
    expect(edited.json()).toEqual({ error: 'ERR_WAPP_NOT_INITIALIZED' });
  });

  it('a disconnect clears the intent and the channel shows DISCONNECTED', async () => {
    const stopped = await t.call(admin, 'DELETE', `/whatsappsession/${channelId}`);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ status: 'DISCONNECTED' });
    expect((await session())!.wanted).toBe(false);
    await hostA.tick();
    expect(hostA.running()).toEqual([]);
  });
});
