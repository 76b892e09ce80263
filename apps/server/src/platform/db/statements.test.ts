/**
 * Statements built once (`statement`): the first call builds the query, later calls reuse its text and result
 * mapping with their own values, on other transactions and other tenants. Runs on PGlite and on PostgreSQL.
 */
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { users } from '../../modules/users/users.tables.js';
import { queues } from '../../modules/queues/queues.tables.js';
import { tickets } from '../../modules/tickets/tickets.tables.js';
import { makeChannel, makeContact, makeQueue, makeTicket } from '../../test/ticket-fixtures.js';
import { queryRows, type Queryable } from './client.js';
import { arrayLiteral, statement } from './statements.js';
import { systemContext, withTenant } from './tenancy.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('statement', () => {
  it('fills each call’s own values into the query built on the first call', async () => {
    let builds = 0;
    const userByEmail = statement('test_user_by_email', ['email'], (q, p) => {
      builds += 1;
      return q
        .select({ id: users.id, tenantId: users.tenantId, email: users.email, createdAt: users.createdAt })
        .from(users)
        .where(eq(users.email, p.email));
    });
    const one = await t.createUser({ tenantId: 1 });
    const otherTenant = await t.createTenant();
    const two = await t.createUser({ tenantId: otherTenant });

    const first = await withTenant(t.platform.db, systemContext(1), (tx) => userByEmail(tx, { email: one.email }));
    const second = await withTenant(t.platform.db, systemContext(otherTenant), (tx) =>
      userByEmail(tx, { email: two.email }),
    );
    // Row-level security still scopes a reused statement: tenant 1 does not find the other tenant's user.
    const crossed = await withTenant(t.platform.db, systemContext(1), (tx) => userByEmail(tx, { email: two.email }));

    expect(builds).toBe(1);
    expect(first).toEqual([{ id: one.id, tenantId: 1, email: one.email, createdAt: expect.any(Date) }]);
    expect(second).toEqual([{ id: two.id, tenantId: otherTenant, email: two.email, createdAt: expect.any(Date) }]);
    expect(crossed).toEqual([]);
  });

  it('keeps the constants written into the query and maps joined columns on every call', async () => {
    const tenant = await t.createTenant();
    const admin = await t.createUser({ tenantId: tenant, profile: 'admin', name: 'Ana' });
    const agent = await t.createUser({ tenantId: tenant, profile: 'user', name: 'Bruno' });
    const byProfile = statement('test_users_by_profile', ['id'], (q, p) =>
      q
        .select({ id: users.id, name: users.name, isAdmin: sql<boolean>`${users.profile} = ${'admin'}` })
        .from(users)
        .where(eq(users.id, p.id)),
    );
    const run = (id: number) => withTenant(t.platform.db, systemContext(tenant), (tx) => byProfile(tx, { id }));
    expect(await run(admin.id)).toEqual([{ id: admin.id, name: 'Ana', isAdmin: true }]);
    expect(await run(agent.id)).toEqual([{ id: agent.id, name: 'Bruno', isAdmin: false }]);
    expect(await run(admin.id)).toEqual([{ id: admin.id, name: 'Ana', isAdmin: true }]);
  });

  it('maps rows as drizzle does: nested objects, dates, mapWith, and a missed left join as null', async () => {
    const tenant = await t.createTenant();
    const agent = await t.createUser({ tenantId: tenant, name: 'Carla' });
    const channelId = await makeChannel(t, tenant);
    const queueId = await makeQueue(t, tenant, 'Suporte');
    const contactId = await makeContact(t, tenant, { name: 'Dora' });
    const assigned = await makeTicket(t, tenant, { contactId, channelId, userId: agent.id, queueId, status: 'open' });
    const loose = await makeTicket(t, tenant, { contactId, channelId: null, status: 'closed', unreadMessages: 3 });
    const select = (q: Queryable) =>
      q
        .select({
          ticket: tickets,
          agent: { id: users.id, name: users.name, createdAt: users.createdAt },
          queue: queues,
          unread: sql`${tickets.unreadMessages} * 2`.mapWith(Number),
          label: sql<string>`'#' || ${tickets.protocol}`,
        })
        .from(tickets)
        .leftJoin(users, eq(users.id, tickets.userId))
        .leftJoin(queues, eq(queues.id, tickets.queueId))
        .orderBy(asc(tickets.id));
    const both = statement('test_ticket_rows', [], (q) => select(q));
    const read = <T>(fn: (tx: Queryable) => Promise<T>) => withTenant(t.platform.db, systemContext(tenant), fn);
    const byDrizzle = await read((tx) => select(tx));
    expect(await read((tx) => both(tx, {}))).toEqual(byDrizzle);
    // The second call maps with the statement's own row mapper.
    const reused = (await read((tx) => both(tx, {}))) as Awaited<ReturnType<typeof select>>;
    expect(reused).toEqual(byDrizzle);
    expect(reused.map((row) => row.ticket.id)).toEqual([assigned, loose]);
    expect(reused[0]!.agent).toEqual({ id: agent.id, name: 'Carla', createdAt: expect.any(Date) });
    expect(reused[0]!.queue?.queue).toBe('Suporte');
    expect(reused[0]!.ticket.updatedAt).toBeInstanceOf(Date);
    expect(reused[1]).toMatchObject({ agent: null, queue: null, unread: 6 });
    expect(reused[1]!.label).toMatch(/^#/);
  });
});

describe('arrayLiteral', () => {
  it('round-trips text with quotes, backslashes, braces, commas, NULL as text, and nulls, numbers and booleans', async () => {
    const texts = ['simples', 'com "aspas"', 'barra \\ invertida', '{chaves}, vírgula', 'NULL', '', null, ' espaço '];
    const [row] = await queryRows<{ texts: (string | null)[]; numbers: (number | null)[]; flags: boolean[] }>(
      t.platform.db,
      sql`select ${arrayLiteral(texts)}::text[] as texts, ${arrayLiteral([1, null, 9007199254740991])}::bigint[]::text[]::numeric[]::float8[] as numbers,
        ${arrayLiteral([true, false])}::boolean[] as flags`,
    );
    expect(row!.texts).toEqual(texts);
    expect(row!.numbers).toEqual([1, null, 9007199254740991]);
    expect(row!.flags).toEqual([true, false]);
    expect(() => arrayLiteral([Number.NaN])).toThrow();
  });
});
