/**
 * Auto-distribution (decisions §E): the wallet rule, modes N/R/B over the online users of the queue (or of the
 * channel for a queue-less ticket), ties, the log row, tenant isolation and concurrent distributions. Each test works
 * in a tenant of its own; rows are written with set-based statements so a thousand tickets take seconds on PGlite.
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DistributionMode, Profile } from '@conversa/shared';
import { queryRows, type Tx } from '../../platform/db/client.js';
import { systemContext, withSystem, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { distributeTicket, type DistributionOptions, type DistributionResult } from './tickets.distribution.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const asTenant = <T>(tenantId: number, fn: (tx: Tx) => Promise<T>) =>
  withTenant(t.platform.db, systemContext(tenantId), fn);
const ids = (list: number[]) => sql`${`{${list.join(',')}}`}::bigint[]`;

/** A tenant of its own with the test's queue, channel, users and tickets. */
async function setup(options: { queue?: DistributionMode; channel?: DistributionMode } = {}) {
  const tenantId = await t.createTenant({ maxUsers: 10_000 });
  const [queue] = await asTenant(tenantId, (tx) =>
    queryRows<{ id: number }>(
      tx,
      sql`insert into queues (tenant_id, queue, distribution)
          values (${tenantId}, 'Fila', ${options.queue ?? 'N'}) returning id`,
    ),
  );
  const [channel] = await asTenant(tenantId, (tx) =>
    queryRows<{ id: number }>(
      tx,
      sql`insert into channels (tenant_id, name, type, webhook_secret, distribution)
          values (${tenantId}, 'Canal', 'telegram', ${crypto.randomBytes(8).toString('hex')}, ${options.channel ?? 'N'})
          returning id`,
    ),
  );
  const ctx = systemContext(tenantId);
  return {
    tenantId,
    ctx,
    queueId: queue!.id,
    channelId: channel!.id,

    async queue(distribution: DistributionMode = 'N'): Promise<number> {
      const [row] = await asTenant(tenantId, (tx) =>
        queryRows<{ id: number }>(
          tx,
          sql`insert into queues (tenant_id, queue, distribution)
              values (${tenantId}, ${`Fila ${crypto.randomUUID()}`}, ${distribution}) returning id`,
        ),
      );
      return row!.id;
    },

    async channel(distribution: DistributionMode = 'N'): Promise<number> {
      const [row] = await asTenant(tenantId, (tx) =>
        queryRows<{ id: number }>(
          tx,
          sql`insert into channels (tenant_id, name, type, webhook_secret, distribution)
              values (${tenantId}, 'Outro canal', 'telegram', ${crypto.randomBytes(8).toString('hex')}, ${distribution})
              returning id`,
        ),
      );
      return row!.id;
    },

    /** `count` users at once; in `queues` (user_queues) and allowed on `channels` (user_channels) when given. */
    async users(
      count: number,
      o: { online?: boolean; profile?: Profile; queues?: number[]; channels?: number[]; lastDistributedAt?: Date } = {},
    ): Promise<number[]> {
      return asTenant(tenantId, async (tx) => {
        const tag = crypto.randomBytes(4).toString('hex');
        const rows = await queryRows<{ id: number }>(
          tx,
          sql`insert into users (tenant_id, name, email, password_hash, profile, is_online, last_distributed_at)
              select ${tenantId}, 'U' || g, ${`d-${tag}-`} || g || '@test.local', 'x', ${o.profile ?? 'user'},
                     ${o.online ?? true}, ${o.lastDistributedAt?.toISOString() ?? null}::timestamptz
              from generate_series(1, ${count}::int) g order by g returning id`,
        );
        const userIds = rows.map((r) => Number(r.id));
        for (const queueId of o.queues ?? []) {
          await tx.execute(sql`insert into user_queues (tenant_id, user_id, queue_id)
            select ${tenantId}, u, ${queueId} from unnest(${ids(userIds)}) u`);
        }
        for (const channelId of o.channels ?? []) {
          await tx.execute(sql`insert into user_channels (tenant_id, user_id, channel_id)
            select ${tenantId}, u, ${channelId} from unnest(${ids(userIds)}) u`);
        }
        return userIds.sort((a, b) => a - b);
      });
    },

    /** `count` tickets, each of its own new contact (one active ticket per contact and channel). */
    async tickets(
      count: number,
      o: {
        queueId?: number | null;
        channelId?: number | null;
        status?: 'open' | 'pending' | 'closed';
        userId?: number | null;
        isGroup?: boolean;
        chatFlowId?: number | null;
        stepChatFlow?: string | null;
        contactId?: number;
      } = {},
    ): Promise<number[]> {
      return asTenant(tenantId, async (tx) => {
        const tag = crypto.randomBytes(4).toString('hex');
        const contactIds =
          o.contactId !== undefined
            ? Array.from({ length: count }, () => o.contactId!)
            : (
                await queryRows<{ id: number }>(
                  tx,
                  sql`insert into contacts (tenant_id, name, is_group)
                      select ${tenantId}, ${`C-${tag}-`} || g, ${o.isGroup ?? false}
                      from generate_series(1, ${count}::int) g order by g returning id`,
                )
              ).map((r) => Number(r.id));
        const rows = await queryRows<{ id: number }>(
          tx,
          sql`insert into tickets (tenant_id, contact_id, channel_id, channel, queue_id, status, user_id, is_group,
                                   protocol, chat_flow_id, step_chat_flow)
              select ${tenantId}, c, ${o.channelId === undefined ? channel!.id : o.channelId}, 'telegram',
                     ${o.queueId === undefined ? queue!.id : o.queueId}, ${o.status ?? 'pending'},
                     ${o.userId ?? null}::bigint, ${o.isGroup ?? false}, ${`p-${tag}-`} || n,
                     ${o.chatFlowId ?? null}::bigint, ${o.stepChatFlow ?? null}
              from unnest(${ids(contactIds)}) with ordinality as x(c, n) order by n returning id`,
        );
        return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
      });
    },

    distribute(ticketId: number, options?: DistributionOptions, as: TenantContext = ctx): Promise<DistributionResult> {
      return withTenant(t.platform.db, as, (tx) => distributeTicket(tx, as, ticketId, options));
    },

    async ticket(id: number) {
      const [row] = await asTenant(tenantId, (tx) =>
        queryRows<{ status: string; userId: number | null; queueId: number | null }>(
          tx,
          sql`select status, user_id as "userId", queue_id as "queueId" from tickets where id = ${id}`,
        ),
      );
      return row!;
    },

    /** Active tickets (open, pending) per assignee, as a plain object. */
    async load(): Promise<Record<number, number>> {
      const rows = await asTenant(tenantId, (tx) =>
        queryRows<{ userId: number; n: number }>(
          tx,
          sql`select user_id as "userId", count(*)::int as n from tickets
              where tenant_id = ${tenantId} and user_id is not null and status in ('open', 'pending')
              group by user_id`,
        ),
      );
      return Object.fromEntries(rows.map((r) => [Number(r.userId), Number(r.n)]));
    },

    async logs(ticketId: number) {
      return asTenant(tenantId, (tx) =>
        queryRows<{ type: string; userId: number | null; details: Record<string, unknown> }>(
          tx,
          sql`select type, user_id as "userId", details from ticket_logs where ticket_id = ${ticketId} order by id`,
        ),
      );
    },

    async wallet(contactOfTicket: number, owners: number[]): Promise<number> {
      return asTenant(tenantId, async (tx) => {
        const [row] = await queryRows<{ contactId: number }>(
          tx,
          sql`select contact_id as "contactId" from tickets where id = ${contactOfTicket}`,
        );
        await tx.execute(sql`insert into contact_wallets (tenant_id, contact_id, user_id)
          select ${tenantId}, ${row!.contactId}, u from unnest(${ids(owners)}) u`);
        return Number(row!.contactId);
      });
    },

    async setting(key: string, value: string): Promise<void> {
      await asTenant(tenantId, (tx) =>
        tx.execute(sql`insert into settings (tenant_id, key, value) values (${tenantId}, ${key}, ${value})
          on conflict (tenant_id, key) do update set value = excluded.value`),
      );
    },

    async flag(key: string, value: string): Promise<void> {
      await withSystem(t.platform.db, 'bootstrap.seed', (tx) =>
        tx.execute(sql`update tenants set flags = flags || jsonb_build_object(${key}::text, ${value}::text)
          where id = ${tenantId}`),
      );
    },

    async setUser(id: number, values: { online?: boolean; lastDistributedAt?: Date | null }): Promise<void> {
      await asTenant(tenantId, (tx) =>
        tx.execute(sql`update users set
          is_online = coalesce(${values.online ?? null}::boolean, is_online),
          last_distributed_at = ${values.lastDistributedAt === undefined ? sql`last_distributed_at` : sql`${values.lastDistributedAt?.toISOString() ?? null}::timestamptz`}
          where id = ${id}`),
      );
    },
  };
}

const count = (values: (number | null)[]) => {
  const out: Record<string, number> = {};
  for (const v of values) out[String(v)] = (out[String(v)] ?? 0) + 1;
  return out;
};

describe('balanced (B)', () => {
  it('evens 1,000 tickets over the online users of the queue (max - min <= 1), nobody else gets one', async () => {
    const s = await setup({ queue: 'B' });
    const otherQueue = await s.queue('B');
    const online = [
      ...(await s.users(5, { queues: [s.queueId] })),
      ...(await s.users(1, { queues: [s.queueId], profile: 'super' })),
      ...(await s.users(1, { queues: [s.queueId], profile: 'admin' })),
    ];
    const offline = await s.users(2, { queues: [s.queueId], online: false });
    const elsewhere = await s.users(1, { queues: [otherQueue] });
    const superadmin = await s.users(1, { queues: [s.queueId], profile: 'superadmin' });
    const tickets = await s.tickets(1000);
    // Each ticket distributed on its own, 50 to a transaction (a transaction each only adds PGlite's overhead).
    const results: DistributionResult[] = [];
    for (let i = 0; i < tickets.length; i += 50) {
      await asTenant(s.tenantId, async (tx) => {
        for (const id of tickets.slice(i, i + 50)) results.push(await distributeTicket(tx, s.ctx, id));
      });
    }

    expect(count(results.map((r) => (r.reason === 'balanced' && r.changed ? 1 : 0)))).toEqual({ 1: 1000 });
    const load = await s.load();
    const perUser = online.map((id) => load[id] ?? 0);
    expect(perUser.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(Math.max(...perUser) - Math.min(...perUser)).toBeLessThanOrEqual(1);
    for (const id of [...offline, ...elsewhere, ...superadmin]) expect(load[id], `user ${id}`).toBeUndefined();
    // Distribution gives, the agent accepts: every ticket is still pending in its queue.
    const [states] = await asTenant(s.tenantId, (tx) =>
      queryRows<{ pending: number; inQueue: number }>(
        tx,
        sql`select count(*) filter (where status = 'pending')::int as pending,
                   count(*) filter (where queue_id = ${s.queueId})::int as "inQueue"
            from tickets where tenant_id = ${s.tenantId}`,
      ),
    );
    expect(states).toEqual({ pending: 1000, inQueue: 1000 });
  }, 120_000);

  it('prefers the least loaded (open and pending assigned tickets count, closed ones do not)', async () => {
    const s = await setup({ queue: 'B' });
    const [a, b, c] = await s.users(3, { queues: [s.queueId] });
    await s.tickets(2, { userId: a!, status: 'open' });
    await s.tickets(1, { userId: b!, status: 'pending' });
    await s.tickets(5, { userId: c!, status: 'closed' });
    const [first, second, third, fourth] = await s.tickets(4);
    expect(await s.distribute(first!)).toMatchObject({ userId: c, reason: 'balanced', mode: 'B', changed: true });
    // Now b and c have one each, a two: ties go to the longest idle (b was never distributed to, c just was).
    expect((await s.distribute(second!)).userId).toBe(b);
    expect((await s.distribute(third!)).userId).toBe(c);
    expect((await s.distribute(fourth!)).userId).toBe(a);
  });

  it('breaks ties by the longest idle (never distributed first), then by the lowest id', async () => {
    const s = await setup({ queue: 'B' });
    const hourAgo = new Date(Date.now() - 3600_000);
    const [recent, old, never1, never2] = await s.users(4, { queues: [s.queueId] });
    await s.setUser(recent!, { lastDistributedAt: new Date(Date.now() - 60_000) });
    await s.setUser(old!, { lastDistributedAt: hourAgo });
    const tickets = await s.tickets(4);
    const picks: (number | null)[] = [];
    for (const id of tickets) picks.push((await s.distribute(id)).userId);
    expect(picks).toEqual([never1, never2, old, recent]);
    const [stamp] = await asTenant(s.tenantId, (tx) =>
      queryRows<{ at: Date }>(tx, sql`select last_distributed_at as at from users where id = ${never1!}`),
    );
    expect(new Date(stamp!.at).getTime()).toBeGreaterThan(hourAgo.getTime());
  });
});

describe('random (R), none (N), no candidate, the mode that applies', () => {
  it('random gives only online candidates of the queue, and over many draws each of them', async () => {
    const s = await setup({ queue: 'R' });
    const otherQueue = await s.queue('R');
    const candidates = await s.users(3, { queues: [s.queueId] });
    const offline = await s.users(1, { queues: [s.queueId], online: false });
    const elsewhere = await s.users(1, { queues: [otherQueue] });
    const picks: (number | null)[] = [];
    for (const id of await s.tickets(60)) {
      const result = await s.distribute(id);
      expect(result).toMatchObject({ reason: 'random', mode: 'R', changed: true });
      picks.push(result.userId);
    }
    expect(new Set(picks)).toEqual(new Set(candidates));
    for (const id of [...offline, ...elsewhere]) expect(picks).not.toContain(id);
  });

  it('N assigns nothing and writes no log', async () => {
    const s = await setup({ queue: 'N', channel: 'N' });
    await s.users(2, { queues: [s.queueId] });
    const [id] = await s.tickets(1);
    expect(await s.distribute(id!)).toEqual({
      userId: null,
      reason: 'disabled',
      changed: false,
      mode: 'N',
      queueId: s.queueId,
    });
    expect(await s.ticket(id!)).toEqual({ status: 'pending', userId: null, queueId: s.queueId });
    expect(await s.logs(id!)).toEqual([]);
  });

  it('with nobody online the ticket stays pending, unassigned, in its queue', async () => {
    const s = await setup({ queue: 'B' });
    const [offline] = await s.users(2, { queues: [s.queueId], online: false });
    const [id] = await s.tickets(1);
    expect(await s.distribute(id!)).toMatchObject({ userId: null, reason: 'noCandidate', changed: false, mode: 'B' });
    expect(await s.ticket(id!)).toEqual({ status: 'pending', userId: null, queueId: s.queueId });
    expect(await s.logs(id!)).toEqual([]);
    await s.setUser(offline!, { online: true });
    expect((await s.distribute(id!)).userId).toBe(offline);
  });

  it("mode: the caller's (a flow's autoDistributeTickets), else the queue's unless N, else the channel's", async () => {
    const s = await setup({ queue: 'N', channel: 'B' });
    const members = await s.users(2, { queues: [s.queueId] });
    const [byChannel, forcedOff, forcedRandom] = await s.tickets(3);
    expect(await s.distribute(byChannel!)).toMatchObject({ mode: 'B', reason: 'balanced' });
    expect(await s.distribute(forcedOff!, { mode: 'N' })).toMatchObject({ mode: 'N', reason: 'disabled' });
    expect(await s.distribute(forcedRandom!, { mode: 'R' })).toMatchObject({ mode: 'R', reason: 'random' });
    const randomQueue = await s.queue('R');
    await s.users(1, { queues: [randomQueue] });
    const [byQueue] = await s.tickets(1, { queueId: randomQueue });
    expect(await s.distribute(byQueue!)).toMatchObject({ mode: 'R', reason: 'random' });
    // A queue-less ticket of a channel without a mode: N.
    const plainChannel = await s.channel('N');
    const [neither] = await s.tickets(1, { queueId: null, channelId: plainChannel });
    expect(await s.distribute(neither!)).toMatchObject({ mode: 'N', reason: 'disabled', userId: null });
    expect(members).toHaveLength(2);
  });

  it('leaves alone what is not a pending ticket free of user and bot, or is a group', async () => {
    const s = await setup({ queue: 'B' });
    const [member] = await s.users(1, { queues: [s.queueId] });
    const cases = [
      ...(await s.tickets(1, { status: 'open', userId: member! })),
      ...(await s.tickets(1, { status: 'pending', userId: member! })),
      ...(await s.tickets(1, { status: 'closed' })),
      ...(await s.tickets(1, { isGroup: true })),
      ...(await s.tickets(1, { chatFlowId: 1, stepChatFlow: 'node-1' })),
    ];
    for (const id of cases) {
      const before = await s.ticket(id);
      expect(await s.distribute(id), String(id)).toMatchObject({ userId: null, reason: 'notEligible', changed: false });
      expect(await s.ticket(id)).toEqual(before);
      expect(await s.logs(id)).toEqual([]);
    }
    expect(await s.distribute(999_999_999)).toMatchObject({ reason: 'notEligible', changed: false });
    // A flow that ended leaves chat_flow_id without a step: no bot, so it is distributed.
    const [ended] = await s.tickets(1, { chatFlowId: 1, stepChatFlow: null });
    expect((await s.distribute(ended!)).userId).toBe(member);
  });
});

describe('wallets (DirectTicketsToWallets, serviceTransfer)', () => {
  it('the least loaded online owner gets it, whatever the mode and the queue', async () => {
    const s = await setup({ queue: 'N' });
    await s.setting('DirectTicketsToWallets', 'enabled');
    await s.users(2, { queues: [s.queueId] });
    const [busy, free] = await s.users(2);
    await s.tickets(1, { userId: busy!, status: 'open' });
    const [id] = await s.tickets(1);
    await s.wallet(id!, [busy!, free!]);
    expect(await s.distribute(id!)).toMatchObject({ userId: free, reason: 'wallet', mode: 'N', changed: true });
    expect(await s.logs(id!)).toMatchObject([{ type: 'userDefine', details: { mode: 'N', reason: 'wallet' } }]);
  });

  it('an online owner wins over the offline ones even when they are less loaded', async () => {
    const s = await setup({ queue: 'B' });
    await s.setting('DirectTicketsToWallets', 'enabled');
    const [offlineOwner] = await s.users(1, { online: false });
    const [onlineOwner] = await s.users(1);
    await s.tickets(3, { userId: onlineOwner!, status: 'open' });
    const [id] = await s.tickets(1);
    await s.wallet(id!, [offlineOwner!, onlineOwner!]);
    expect((await s.distribute(id!)).userId).toBe(onlineOwner);
  });

  it('owners all offline: serviceTransfer disabled -> still an owner; enabled -> the mode decides', async () => {
    const s = await setup({ queue: 'B' });
    await s.setting('DirectTicketsToWallets', 'enabled');
    const [member] = await s.users(1, { queues: [s.queueId] });
    const [loaded, idle] = await s.users(2, { online: false });
    await s.tickets(1, { userId: loaded!, status: 'open' });
    const [first, second, third] = await s.tickets(3);
    const contactId = await s.wallet(first!, [loaded!, idle!]);
    expect(await s.distribute(first!)).toMatchObject({ userId: idle, reason: 'wallet' });

    await s.flag('serviceTransfer', 'enabled');
    await s.wallet(second!, [loaded!, idle!]);
    expect(await s.distribute(second!)).toMatchObject({ userId: member, reason: 'balanced' });

    // With the mode N as well, nobody gets it.
    await s.wallet(third!, [loaded!, idle!]);
    expect(await s.distribute(third!, { mode: 'N' })).toMatchObject({ userId: null, reason: 'disabled' });
    expect(contactId).toBeGreaterThan(0);
  });

  it('the setting off: wallets are ignored', async () => {
    const s = await setup({ queue: 'B' });
    const [member] = await s.users(1, { queues: [s.queueId] });
    const [owner] = await s.users(1);
    const [id] = await s.tickets(1);
    await s.wallet(id!, [owner!]);
    expect(await s.distribute(id!)).toMatchObject({ userId: member, reason: 'balanced' });
  });
});

describe('queue-less tickets, the log, isolation', () => {
  it('a ticket without a queue goes to the online users allowed on its channel (none listed = every channel)', async () => {
    const s = await setup({ channel: 'B' });
    const other = await s.channel('N');
    const [everywhere] = await s.users(1);
    const [listed] = await s.users(1, { channels: [s.channelId, other] });
    const [onlyOther] = await s.users(1, { channels: [other] });
    const [offline] = await s.users(1, { online: false });
    const picks: (number | null)[] = [];
    for (const id of await s.tickets(6, { queueId: null })) picks.push((await s.distribute(id)).userId);
    expect(count(picks)).toEqual({ [everywhere!]: 3, [listed!]: 3 });
    expect(picks).not.toContain(onlyOther);
    expect(picks).not.toContain(offline);
  });

  it('writes one userDefine log (actor: the caller, null for the system) with from/to, mode and reason', async () => {
    const s = await setup({ queue: 'B' });
    const [member] = await s.users(1, { queues: [s.queueId] });
    const [admin] = await s.users(1, { profile: 'admin', online: false });
    const [bySystem, byAdmin] = await s.tickets(2);
    await s.distribute(bySystem!);
    const from = { status: 'pending', queueId: s.queueId, userId: null };
    expect(await s.logs(bySystem!)).toEqual([
      {
        type: 'userDefine',
        userId: null,
        details: { from, to: { ...from, userId: member }, mode: 'B', reason: 'balanced' },
      },
    ]);
    const actor: TenantContext = { ...s.ctx, userId: admin!, profile: 'admin' };
    await s.distribute(byAdmin!, undefined, actor);
    expect(await s.logs(byAdmin!)).toMatchObject([{ type: 'userDefine', userId: admin }]);
    expect(await s.ticket(byAdmin!)).toEqual({ status: 'pending', userId: member, queueId: s.queueId });
  });

  it("never picks a user of another tenant, even one linked by a stray row of this tenant's queue or wallet", async () => {
    const s = await setup({ queue: 'B' });
    const other = await setup({ queue: 'B' });
    const [foreign] = await other.users(1, { queues: [other.queueId] });
    const [own] = await s.users(1, { queues: [s.queueId] });
    await s.tickets(5, { userId: own!, status: 'open' });
    const [id, viaWallet] = await s.tickets(2);
    // Rows no API would write: this tenant's queue and a wallet naming the other tenant's (idle, online) user.
    await withSystem(t.platform.db, 'bootstrap.seed', async (tx) => {
      await tx.execute(
        sql`insert into user_queues (tenant_id, user_id, queue_id) values (${s.tenantId}, ${foreign!}, ${s.queueId})`,
      );
      await tx.execute(sql`insert into contact_wallets (tenant_id, contact_id, user_id)
        select ${s.tenantId}, contact_id, ${foreign!} from tickets where id = ${viaWallet!}`);
    });
    expect((await s.distribute(id!)).userId).toBe(own);
    await s.setting('DirectTicketsToWallets', 'enabled');
    expect(await s.distribute(viaWallet!)).toMatchObject({ userId: own, reason: 'balanced' });
    expect(await other.load()).toEqual({});
  });
});

describe('concurrency', () => {
  it('20 tickets distributed in parallel transactions over 4 users end 5 each (advisory lock per tenant)', async () => {
    const s = await setup({ queue: 'B' });
    const members = await s.users(4, { queues: [s.queueId] });
    const tickets = await s.tickets(20);
    const results = await Promise.all(tickets.map((id) => s.distribute(id)));
    expect(results.every((r) => r.changed)).toBe(true);
    const load = await s.load();
    expect(members.map((id) => load[id])).toEqual([5, 5, 5, 5]);
  }, 60_000);

  it('tickets of two queues at once over users in both end even: the load counts every queue, so does the lock', async () => {
    const s = await setup({ queue: 'B' });
    const second = await s.queue('B');
    const members = await s.users(4, { queues: [s.queueId, second] });
    const first = await s.tickets(10);
    const other = await s.tickets(10, { queueId: second });
    const order = first.flatMap((id, i) => [id, other[i]!]);
    const results = await Promise.all(order.map((id) => s.distribute(id)));
    expect(results.every((r) => r.changed)).toBe(true);
    const load = await s.load();
    expect(members.map((id) => load[id])).toEqual([5, 5, 5, 5]);
  }, 60_000);
});
