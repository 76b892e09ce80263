/**
 * The lease and the host, two hosts (two node ids) on one database: claim, renewal, takeover after the owner stops
 * renewing, one winner per session, an unwanted session logged out, the closed() reasons, and the auth store's
 * encryption at rest.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryRows } from '../../../platform/db/client.js';
import { asTenantId, systemContext, withTenant } from '../../../platform/db/tenancy.js';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { channelAuthKeys, channels, channelSessions } from '../channels.tables.js';
import { createAuthStateStore } from './session-auth-store.js';
import { fakeDriver } from './session-fake.test-kit.js';
import { createSessionHost, type SessionHostPorts, type SessionTiming } from './session-host.js';
import { saveIntent } from './session-lease.js';
import { eventually } from '../../../test/eventually.js';

let t: TestApp;
const hosts: ReturnType<typeof createSessionHost>[] = [];

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  for (const host of hosts) await host.stop();
  await t.close();
});
// Each test's sessions end with it: a later test's hosts would claim them otherwise.
afterEach(async () => {
  await queryRows(
    t.platform.db,
    sql`update channel_sessions set wanted = false, owner = null, lease_until = null returning channel_id`,
  );
});

function recordingPorts() {
  const statuses: { channelId: number; status: string; retry: boolean }[] = [];
  const sessionEvents: { channelId: number; kind: string; status?: string }[] = [];
  const ports: SessionHostPorts = {
    async sessionEvent(channel, event) {
      sessionEvents.push({
        channelId: channel.id,
        kind: event.kind,
        ...(event.kind === 'session' ? { status: event.status } : {}),
      });
    },
    async status(_tenantId, channelId, status, options) {
      statuses.push({ channelId, status, retry: options?.retry ?? false });
    },
    async conversation() {},
    async callPolicy() {
      return { reject: false, message: '' };
    },
  };
  return { ports, statuses, sessionEvents };
}

function makeHost(node: string, timing: Partial<SessionTiming> = {}) {
  const fake = fakeDriver(node);
  const recorded = recordingPorts();
  const host = createSessionHost({
    db: t.platform.db,
    jobs: t.jobs,
    logger: t.platform.logger,
    platform: t.platform,
    secret: t.platform.secrets.sessionKey,
    drivers: new Map([['baileys', fake.driver]]),
    timing: {
      leaseTtlMs: 60_000,
      renewMs: 1_000,
      claimsPerTick: 5,
      actionTimeoutMs: 3_000,
      backoffMinMs: 30,
      ...timing,
    },
    ports: recorded.ports,
    nodeId: node,
  });
  hosts.push(host);
  return { host, ...fake, ...recorded };
}

async function baileysChannel(wanted = true): Promise<number> {
  const id = await withTenant(t.platform.db, systemContext(1), async (tx) => {
    const [row] = await tx
      .insert(channels)
      .values({ tenantId: 1, name: `Zap ${Math.random()}`, type: 'baileys', webhookSecret: 'x' })
      .returning({ id: channels.id });
    return row!.id;
  });
  await withTenant(t.platform.db, systemContext(1), (tx) => saveIntent(tx, asTenantId(1), id, { wanted }));
  return id;
}

const sessionRow = async (channelId: number) =>
  (
    await withTenant(t.platform.db, systemContext(1), (tx) =>
      tx.select().from(channelSessions).where(eq(channelSessions.channelId, channelId)),
    )
  )[0]!;

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/** The host's opened session of the channel; throws until it is there (for vi.waitFor). */
function opened<L extends { channelId: number }>(host: { opened: L[] }, channelId: number): L {
  const live = host.opened.find((l) => l.channelId === channelId);
  if (!live) throw new Error(`channel ${channelId} not opened yet`);
  return live;
}

describe('lease', () => {
  it('one node claims a wanted session, opens it with a QR login and renews the lease; the other claims nothing', async () => {
    const a = makeHost('node-a');
    const b = makeHost('node-b');
    const channelId = await baileysChannel();
    await Promise.all([a.host.tick(), b.host.tick()]);
    // Opening runs after the claim (auth read, the driver's QR and login): wait for it rather than a fixed delay.
    await eventually(
      async () => [a, b].flatMap((h) => h.sessionEvents.filter((e) => e.channelId === channelId)),
      (events) => events.some((e) => e.status === 'CONNECTED'),
      'the session to open on one node',
    );
    const owners = [a, b].filter((h) => h.host.running().includes(channelId));
    expect(owners).toHaveLength(1);
    const owner = owners[0]!;
    expect(owner.opened.filter((l) => l.channelId === channelId)).toHaveLength(1);
    expect(owner.sessionEvents.filter((e) => e.channelId === channelId).map((e) => e.status)).toEqual([
      'qrcode',
      'CONNECTED',
    ]);
    const first = await sessionRow(channelId);
    expect(first.owner).toBe(owner.host.nodeId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await owner.host.tick();
    const renewed = await sessionRow(channelId);
    expect(renewed.owner).toBe(owner.host.nodeId);
    expect(renewed.leaseUntil!.getTime()).toBeGreaterThan(first.leaseUntil!.getTime());
    await a.host.stop();
    await b.host.stop();
    // Shutdown gave the lease up at once and closed the socket without logging out.
    expect((await sessionRow(channelId)).owner).toBeNull();
    expect(owner.opened[0]!.closedByHost).toBe(true);
    expect(owner.opened[0]!.loggedOut).toBe(false);
  });

  it('another node takes over a session whose owner stopped renewing, with the stored auth (no new QR)', async () => {
    const a = makeHost('node-a2', { leaseTtlMs: 400, renewMs: 100 });
    const b = makeHost('node-b2', { leaseTtlMs: 400, renewMs: 100 });
    const channelId = await baileysChannel();
    await a.host.tick();
    await vi.waitFor(() => expect(a.host.running()).toContain(channelId));
    // While the lease is alive, b cannot take it.
    await b.host.tick();
    expect(b.host.running()).toEqual([]);
    // a dies (no more ticks); its lease runs out.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await b.host.tick();
    await eventually(
      async () => b.sessionEvents.filter((e) => e.channelId === channelId),
      (events) => events.some((e) => e.status === 'CONNECTED'),
      'the takeover to open the session',
    );
    expect(b.host.running()).toEqual([channelId]);
    expect((await sessionRow(channelId)).owner).toBe('node-b2');
    const resumed = b.opened.find((l) => l.channelId === channelId)!;
    expect(resumed.resumed).toBe(true);
    expect(b.sessionEvents.filter((e) => e.channelId === channelId).map((e) => e.status)).toEqual(['CONNECTED']);
    // a comes back: its renewal finds the lease gone, it drops the session (closed, auth kept) and does not reclaim.
    await a.host.tick();
    await settle();
    expect(a.host.running()).toEqual([]);
    expect(a.opened[0]!.closedByHost).toBe(true);
    expect(a.opened[0]!.loggedOut).toBe(false);
    expect((await sessionRow(channelId)).owner).toBe('node-b2');
    await a.host.stop();
    await b.host.stop();
  });

  it('claims at most claimsPerTick sessions per tick', async () => {
    const c = makeHost('node-c', { claimsPerTick: 2 });
    const ids = [await baileysChannel(), await baileysChannel(), await baileysChannel()];
    await c.host.tick();
    expect(c.host.running().filter((id) => ids.includes(id))).toHaveLength(2);
    await c.host.tick();
    expect(c.host.running().filter((id) => ids.includes(id))).toHaveLength(3);
    await c.host.stop();
  });

  it('an unwanted session is logged out by its owner, its auth cleared and its lease released', async () => {
    const d = makeHost('node-d');
    const channelId = await baileysChannel();
    await d.host.tick();
    const live = await vi.waitFor(() => opened(d, channelId));
    await withTenant(t.platform.db, systemContext(1), (tx) =>
      saveIntent(tx, asTenantId(1), channelId, { wanted: false }),
    );
    await d.host.tick();
    await vi.waitFor(async () => expect((await sessionRow(channelId)).owner).toBeNull());
    expect(live.loggedOut).toBe(true);
    expect(d.host.running()).not.toContain(channelId);
    const keys = await withTenant(t.platform.db, systemContext(1), (tx) =>
      tx.select().from(channelAuthKeys).where(eq(channelAuthKeys.channelId, channelId)),
    );
    expect(keys).toEqual([]);
    await d.host.tick();
    expect(d.host.running()).not.toContain(channelId);
    await d.host.stop();
  });
});

describe('closed(reason)', () => {
  it('lost: counts a retry and reopens with backoff (resuming with the stored auth)', async () => {
    const e = makeHost('node-e');
    const channelId = await baileysChannel();
    await e.host.tick();
    const first = await vi.waitFor(() => opened(e, channelId));
    first.context.closed('lost');
    await vi.waitFor(() => expect(e.opened.filter((l) => l.channelId === channelId)).toHaveLength(2));
    expect(e.statuses).toContainEqual({ channelId, status: 'OPENING', retry: true });
    expect(e.opened.filter((l) => l.channelId === channelId)[1]!.resumed).toBe(true);
    // A closed() of the earlier socket is ignored once a newer one is open.
    first.context.closed('conflict');
    await settle();
    expect(e.statuses.filter((s) => s.channelId === channelId && s.status === 'CONFLICT')).toEqual([]);
    await e.host.stop();
  });

  it.each([
    ['logged-out', 'DISCONNECTED', true],
    ['timeout', 'TIMEOUT', false],
    ['conflict', 'CONFLICT', false],
  ] as const)(
    '%s: the session stops (status %s), nobody reopens it; auth cleared only when logged out',
    async (reason, status, cleared) => {
      const f = makeHost(`node-f-${reason}`);
      const channelId = await baileysChannel();
      await f.host.tick();
      // Opening runs after the claim: under load it takes longer than any fixed delay.
      (await vi.waitFor(() => opened(f, channelId))).context.closed(reason);
      await vi.waitFor(() => expect(f.statuses).toContainEqual({ channelId, status, retry: false }));
      await vi.waitFor(async () => expect((await sessionRow(channelId)).wanted).toBe(false));
      expect((await sessionRow(channelId)).owner).toBeNull();
      expect(f.host.running()).not.toContain(channelId);
      const keys = await withTenant(t.platform.db, systemContext(1), (tx) =>
        tx.select().from(channelAuthKeys).where(eq(channelAuthKeys.channelId, channelId)),
      );
      expect(keys.length === 0).toBe(cleared);
      await f.host.tick();
      expect(f.opened.filter((l) => l.channelId === channelId)).toHaveLength(1);
      await f.host.stop();
    },
  );
});

describe('auth store', () => {
  it('stores ciphertext only; another key cannot read it; a value moved to another key name does not decrypt', async () => {
    const channelId = await baileysChannel(false);
    const plaintext = JSON.stringify({ noiseKey: 'very-secret-private-key-material-1234567890' });
    const store = createAuthStateStore({
      db: t.platform.db,
      secret: t.platform.secrets.sessionKey,
      tenantId: 1,
      channelId,
    });
    await store.write(
      new Map([
        ['creds', plaintext],
        ['pre-key-1', 'abc'],
      ]),
    );
    expect(await store.read(['creds', 'pre-key-1', 'missing'])).toEqual(
      new Map([
        ['creds', plaintext],
        ['pre-key-1', 'abc'],
      ]),
    );
    const rows = await queryRows<{ key: string; value: string }>(
      t.platform.db,
      sql`select key, value from channel_auth_keys where channel_id = ${channelId}`,
    );
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.value).not.toContain('very-secret');
      expect(Buffer.from(row.value, 'base64').toString('latin1')).not.toContain('very-secret');
    }
    const other = createAuthStateStore({
      db: t.platform.db,
      secret: 'another-installation-key-0123456789abcdefghij',
      tenantId: 1,
      channelId,
    });
    await expect(other.read(['creds'])).rejects.toThrow();
    // Swapping two rows' values: the associated data (channel and key name) no longer matches.
    await queryRows(
      t.platform.db,
      sql`update channel_auth_keys set value = (select value from channel_auth_keys where channel_id = ${channelId} and key = 'creds') where channel_id = ${channelId} and key = 'pre-key-1' returning key`,
    );
    await expect(store.read(['pre-key-1'])).rejects.toThrow();
    // null deletes; clear forgets everything.
    await store.write(new Map([['creds', null]]));
    expect((await store.read(['creds'])).size).toBe(0);
    await store.clear();
    expect(
      await queryRows(t.platform.db, sql`select 1 from channel_auth_keys where channel_id = ${channelId}`),
    ).toEqual([]);
  });
});
