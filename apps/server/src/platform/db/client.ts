/**
 * The database handle: PGlite embedded (no DATABASE_URL) or a pg pool on PostgreSQL. The rest of the code sees one
 * drizzle `Database` type; `executeSql` is the raw path used by pg-boss and the migrator.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { NodePgDatabase, NodePgTransaction } from 'drizzle-orm/node-postgres';
import { PgDialect } from 'drizzle-orm/pg-core';
import { sql, type SQL } from 'drizzle-orm';
import pg from 'pg';
import type { Database, Queryable, Tx } from './client.types.js';
import { NamingSession } from './statements.js';

export type { Database, Queryable, Tx } from './client.types.js';

export interface SqlResult {
  rows: Record<string, unknown>[];
}

export interface DatabaseHandle {
  kind: 'pglite' | 'postgres';
  db: Database;
  /** The pg pool on PostgreSQL (the socket.io postgres adapter listens on it). */
  pool?: pg.Pool;
  /** One statement with $n parameters, or (without values) possibly several statements. */
  executeSql(text: string, values?: unknown[]): Promise<SqlResult>;
  /** Runs fn while holding a session-level advisory lock (a no-op on the single-session PGlite). */
  withAdvisoryLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const INT8_OID = 20;

export interface OpenDatabaseOptions {
  url?: string;
  dataDir?: string;
  /** An already opened PGlite (tests load a migrated template into one). */
  pglite?: PGlite;
  poolSize?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url, options.poolSize ?? 10);
  const client = options.pglite ?? (await openPglite(options.dataDir));
  const db = drizzlePglite(client) as unknown as Database;
  return {
    kind: 'pglite',
    db,
    async executeSql(text, values) {
      if (values && values.length > 0) {
        const result = await client.query(text, values);
        return { rows: result.rows as Record<string, unknown>[] };
      }
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
    withAdvisoryLock: (_key, fn) => fn(),
    close: () => client.close(),
  };
}

async function openPglite(dataDir: string | undefined): Promise<PGlite> {
  if (!dataDir) return PGlite.create();
  const dir = path.join(dataDir, 'pgdata');
  fs.mkdirSync(dir, { recursive: true });
  return PGlite.create(dir);
}

async function openPostgres(url: string, max: number): Promise<DatabaseHandle> {
  // PGlite returns int8 (bigint ids, count(*)) as numbers; make pg agree. Ids stay far below 2^53.
  pg.types.setTypeParser(INT8_OID, (value: string) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client that loses its server (restart, failover) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // A checked-out client (a transaction, the advisory lock) whose server goes away emits 'error' outside any query;
  // with no listener that would end the process. Its pending or next query fails on its own (the request answers
  // 503) and the pool discards the broken client on release.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = drizzleOnPool(pool);
  // A small pool of its own for short transactions that must not queue behind the requests: those run beside a
  // request's own (besideStatement) and the realtime audience reads (asideTransaction). They can never wait for a
  // connection that the requests themselves hold.
  const side = new pg.Pool({ connectionString: url, max: 3 });
  side.on('error', () => undefined);
  side.on('connect', (client) => client.on('error', () => undefined));
  sidePools.set(db, drizzleOnPool(side));
  return {
    kind: 'postgres',
    db,
    pool,
    async executeSql(text, values) {
      const result = values && values.length > 0 ? await pool.query(text, values) : await pool.query(text);
      const last = Array.isArray(result) ? result.at(-1) : result;
      return { rows: (last?.rows ?? []) as Record<string, unknown>[] };
    },
    async withAdvisoryLock(key, fn) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [key]);
        try {
          return await fn();
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [key]);
        }
      } finally {
        client.release();
      }
    },
    close: async () => {
      await side.end();
      await pool.end();
    },
  };
}

function drizzleOnPool(pool: pg.Pool): Database {
  const dialect = new PgDialect();
  const db = new NodePgDatabase(dialect, new NamingSession(pool, dialect), undefined) as unknown as Database;
  (db as { $client?: pg.Pool }).$client = pool;
  return db;
}

/** Each database's side pool, and each open transaction's database (PostgreSQL only). */
const sidePools = new WeakMap<Database, Database>();
const sideOfTransaction = new WeakMap<Tx, Database>();

/** Runs raw SQL (drizzle's `sql`) on the database or a transaction and returns its rows, on PGlite and pg alike. */
export async function queryRows<T = Record<string, unknown>>(q: Queryable, query: SQL): Promise<T[]> {
  const result = (await q.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * A transaction whose first statements are `prelude` (the tenancy settings), sent with BEGIN in one round trip: on
 * PostgreSQL every request pays a round trip per statement (a `writev` and a wake-up on both sides), so BEGIN and the
 * settings travel together as one simple-protocol query and COMMIT goes without a parse step. `prelude` must be
 * constant text built from checked values (no parameters travel with it). On PGlite (in process, no round trips) it
 * is drizzle's own transaction.
 */
export async function transactionWith<T>(db: Database, prelude: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const pool = (db as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) {
    return db.transaction(async (tx) => {
      await tx.execute(sql.raw(prelude));
      return fn(tx as Tx);
    });
  }
  const dialect = (db as unknown as { dialect: PgDialect }).dialect;
  return onClient(pool, async (client) => {
    const tx = new NodePgTransaction(dialect, new NamingSession(client, dialect), undefined) as unknown as Tx;
    const side = sidePools.get(db);
    if (side) sideOfTransaction.set(tx, side);
    await client.query(`begin; ${prelude}`);
    const result = await fn(tx);
    await client.query('commit');
    return result;
  });
}

/**
 * `fn` on a client of the pool. When it fails, whatever transaction it left open is rolled back before the client
 * goes back; a client whose rollback fails (its server went away) is discarded by the pool instead of being reused.
 */
async function onClient<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await fn(client);
  } catch (error) {
    await client.query('rollback').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * One statement in a short transaction of its own beside the open transaction `tx`, on the side pool, committed
 * before it returns: for a counter that must not stay locked until a long caller commits (concurrent callers would
 * queue behind it). BEGIN, `prelude`, the statement and COMMIT travel as one simple-protocol query, one round trip.
 * `prelude` and `text` must be constant SQL built from checked values: no parameters travel with them. On PGlite
 * (one session, no concurrency) the statement runs in `tx` itself.
 */
export async function besideStatement<T>(tx: Tx, prelude: string, text: string): Promise<T[]> {
  const side = sideOfTransaction.get(tx);
  const pool = side && (side as { $client?: unknown }).$client;
  if (!(pool instanceof pg.Pool)) return queryRows<T>(tx, sql.raw(text));
  return onClient(pool, async (client) => {
    // A failed statement leaves the explicit transaction open and aborted: onClient ends it.
    const results = (await client.query(`begin; ${prelude}; ${text}; commit`)) as unknown as pg.QueryResult[];
    return results[2]!.rows as T[];
  });
}

/**
 * A short transaction on the side pool (PostgreSQL; on PGlite the database itself): for reads that follow a commit
 * and must not wait for a connection behind the requests in flight, like the realtime audience of an event.
 */
export async function asideTransaction<T>(db: Database, prelude: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return transactionWith(sidePools.get(db) ?? db, prelude, fn);
}
