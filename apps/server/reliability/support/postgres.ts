/**
 * PostgreSQL for the reliability tier: throwaway databases on the machine's server (TEST_DATABASE_URL's server, else
 * 127.0.0.1:5432), and a private instance (initdb + pg_ctl on a temp dir and a free port) that a test may stop and
 * start at will without touching the shared server.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './ports.js';

const SHARED_ADMIN_URL = (() => {
  const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = '/postgres';
  return url;
})();

export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new empty database on the shared server (the server under test migrates it at start). */
export async function createDatabase(prefix: string): Promise<ThrowawayDatabase> {
  const name = `${prefix}_${crypto.randomBytes(4).toString('hex')}`;
  await admin(SHARED_ADMIN_URL.toString(), (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(SHARED_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin(SHARED_ADMIN_URL.toString(), (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    },
  };
}

/** Rows of one query on a database (the tests' own eyes, outside the server). */
export async function query<T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []) {
  return admin(url, async (c) => (await c.query(text, values)).rows as T[]);
}

const BIN_ROOT = '/usr/lib/postgresql';

function postgresBin(name: string): string {
  const versions = fs.existsSync(BIN_ROOT) ? fs.readdirSync(BIN_ROOT).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const file = path.join(BIN_ROOT, version, 'bin', name);
    if (fs.existsSync(file)) return file;
  }
  throw new Error(`${name} not found under ${BIN_ROOT}`);
}

export interface PrivatePostgres {
  url: string;
  port: number;
  start(): void;
  /** `pg_ctl stop -m immediate`: every backend dies at once, as in a crash or a lost host. */
  crash(): void;
  destroy(): void;
}

/**
 * initdb refuses to run as root (CI runs as root): there the cluster is created and run as the `postgres` user
 * through runuser, in a temp dir that user owns.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-pg-'));
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  if (asRoot) execFileSync('chown', ['postgres:', dir]);
  const run = (bin: string, args: string[]) => {
    const file = postgresBin(bin);
    const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
    return execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 }).toString();
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const instance: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => void run('pg_ctl', ['-D', data, '-l', log, '-o', options, '-w', '-t', '60', 'start']),
    crash: () => void run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']),
    destroy: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already stopped.
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  instance.start();
  return instance;
}
