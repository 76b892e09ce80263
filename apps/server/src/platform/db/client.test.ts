/**
 * A PostgreSQL server that goes away under a checked-out client (restart, failover, a terminated backend) fails the
 * work on that client and nothing else: the process survives (no unhandled 'error' event) and the pool serves the
 * next request on a new connection. Needs TEST_DATABASE_URL (CI sets it).
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { besideStatement, queryRows } from './client.js';
import { systemContext, withTenant } from './tenancy.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('a lost connection on PostgreSQL', () => {
  it('fails the transaction that held it, without ending the process, and the pool recovers', async () => {
    const transaction = t.database.db.transaction(async (tx) => {
      const [backend] = await queryRows<{ pid: number }>(tx, sql`select pg_backend_pid() as pid`);
      const killer = new pg.Client({ connectionString: t.databaseUrl });
      await killer.connect();
      await killer.query('select pg_terminate_backend($1)', [backend!.pid]);
      await killer.end();
      // The socket error arrives between queries, while the client is checked out.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await tx.execute(sql`select 1`);
    });
    await expect(transaction).rejects.toThrow();
    const [row] = await queryRows<{ ok: number }>(t.database.db, sql`select 1 as ok`);
    expect(row).toEqual({ ok: 1 });
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('a statement beside the open transaction', () => {
  it('commits on its own, and one that fails leaves no open transaction on the side connection', async () => {
    const tenant = await t.createTenant();
    const name = `beside-${Date.now()}`;
    await expect(
      withTenant(t.platform.db, systemContext(tenant), async (tx) => {
        await besideStatement(
          tx,
          `select set_config('app.tenant_id', '${tenant}', true)`,
          `insert into tenant_counters (tenant_id, name, value) values (${tenant}, '${name}', 1)`,
        );
        throw new Error('the caller rolls back');
      }),
    ).rejects.toThrow('the caller rolls back');
    const [kept] = await queryRows<{ value: number }>(
      t.database.db,
      sql`select value::int as value from tenant_counters where name = ${name}`,
    );
    expect(kept).toEqual({ value: 1 });
    // The side pool has 3 connections: fail on each, then each must still run a statement of its own.
    for (let i = 0; i < 4; i += 1) {
      await expect(
        withTenant(t.platform.db, systemContext(tenant), (tx) => besideStatement(tx, 'select 1', 'select 1/0')),
      ).rejects.toThrow('division by zero');
    }
    const rows = await Promise.all(
      [1, 2, 3].map(() =>
        withTenant(t.platform.db, systemContext(tenant), (tx) =>
          besideStatement<{ ok: number }>(tx, 'select 1', 'select 1 as ok'),
        ),
      ),
    );
    expect(rows).toEqual([[{ ok: 1 }], [{ ok: 1 }], [{ ok: 1 }]]);
  });
});
