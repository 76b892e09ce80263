/**
 * A PostgreSQL server that goes away under a checked-out client (restart, failover, a terminated backend) fails the
 * work on that client and nothing else: the process survives (no unhandled 'error' event) and the pool serves the
 * next request on a new connection. Needs TEST_DATABASE_URL (CI sets it).
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { queryRows } from './client.js';

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
