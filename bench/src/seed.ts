/**
 * `npm run bench:seed -- [--profile one-company|saas] [--database-url URL] [--scale 1] [--force]`
 *
 * Migrates the database with the server's own functions (imported from apps/server/src through the `source`
 * condition), runs the first-start bootstrap (tenant 1 and the superadmin) so tenant ids stay as a real installation
 * has them, then generates the profile's data in set-based SQL. Idempotent: the tenants a profile owns carry
 * `identity = 'bench:<profile>'`; a re-run with the same profile and scale whose seed completed (a marker row in
 * tenant_counters) does nothing, even after benchmarks added rows; any other re-run deletes exactly those tenants (and their rows) and seeds them again. Other data is never touched.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { SETTING_DEFAULTS, SETTING_KEYS } from '@conversa/shared';
import { bootstrapInstallation } from '../../apps/server/src/bootstrap.js';
import type { Config } from '../../apps/server/src/config.js';
import { openDatabase, type DatabaseHandle } from '../../apps/server/src/platform/db/client.js';
import { migrateDatabase } from '../../apps/server/src/platform/db/migrate.js';
import { hashPassword } from '../../apps/server/src/platform/crypto.js';
import {
  BENCH_PASSWORD,
  benchBotToken,
  benchEmail,
  planProfile,
  profileIdentity,
  PROFILES,
  type Profile,
  type TenantPlan,
} from './seed-plan.js';
import { channelSql, contactsSql, messagesSql, planTable, staffSql, ticketsSql } from './seed-sql.js';

const lit = (value: string): string => `'${value.replaceAll("'", "''")}'`;
const MESSAGE_BATCH_TICKETS = 20_000;
/** tenant_counters row on the profile's first tenant: the seed finished, with this many tickets. */
const SEED_MARKER = 'bench:seed-complete';

export interface SeedOptions {
  profile: Profile;
  databaseUrl?: string;
  dataDir: string;
  scale: number;
  force: boolean;
  log?: (line: string) => void;
}

export interface SeedResult {
  profile: Profile;
  tenants: { id: number; ord: number; name: string }[];
  skipped: boolean;
  seconds: number;
  counts: Record<string, number>;
}

async function count(handle: DatabaseHandle, table: string, identity: string): Promise<number> {
  const tenantColumn = table === 'tenants' ? 'id' : 'tenant_id';
  const { rows } = await handle.executeSql(
    `SELECT count(*)::int AS n FROM ${table} WHERE ${tenantColumn} IN (SELECT id FROM tenants WHERE identity = $1)`,
    [identity],
  );
  return Number(rows[0]?.n ?? 0);
}

async function countAll(handle: DatabaseHandle, identity: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['tenants', 'users', 'queues', 'channels', 'contacts', 'tickets', 'messages']) {
    counts[table] = await count(handle, table, identity);
  }
  return counts;
}

/**
 * Deletes the profile's tenants and every row of theirs. The foreign-key cascades look children up by their parent
 * id (messages by ticket_id, contact_id, user_id), which no index leads with (indexes lead with tenant_id), so a
 * cascading delete of 100,000 tickets scans the messages once per ticket. As a superuser the seed deletes each
 * tenant-owned table by tenant_id with the cascade triggers off (session_replication_role); otherwise it lets the
 * cascades run, children first, which is correct but slow.
 */
async function removeProfile(handle: DatabaseHandle, identity: string): Promise<void> {
  const mine = `tenant_id IN (SELECT id FROM tenants WHERE identity = ${lit(identity)})`;
  const { rows: role } = await handle.executeSql(`SELECT rolsuper FROM pg_roles WHERE rolname = current_user`);
  if (!role[0]?.rolsuper) {
    await handle.executeSql(`BEGIN;
      DELETE FROM messages WHERE ${mine}; DELETE FROM ticket_logs WHERE ${mine}; DELETE FROM tickets WHERE ${mine};
      DELETE FROM tenants WHERE identity = ${lit(identity)}; COMMIT;`);
    return;
  }
  const { rows: tables } = await handle.executeSql(
    `SELECT table_name FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'tenant_id' ORDER BY table_name`,
  );
  const deletes = tables.map((t) => `DELETE FROM "${String(t.table_name)}" WHERE ${mine};`).join('\n');
  await handle.executeSql(`BEGIN;
    SET LOCAL session_replication_role = replica;
    ${deletes}
    DELETE FROM tenants WHERE identity = ${lit(identity)};
    COMMIT;`);
}

/** Creates the PostgreSQL database named in the URL when it does not exist (connecting to `postgres` to do it). */
async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}

export async function seed(options: SeedOptions): Promise<SeedResult> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const started = performance.now();
  const step = async (label: string, fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    log(`  ${label.padEnd(28)} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  const plans = planProfile(options.profile, options.scale);
  const identity = profileIdentity(options.profile);
  const expected = {
    tenants: plans.length,
    contacts: plans.reduce((s, p) => s + p.contacts, 0),
    tickets: plans.reduce((s, p) => s + p.tickets, 0),
  };
  if (options.databaseUrl) await ensureDatabase(options.databaseUrl);
  let handle = await openDatabase({ url: options.databaseUrl, dataDir: options.dataDir });
  await step('migrations + bootstrap', async () => {
    await migrateDatabase(handle);
    const config = {
      seedSuperadminEmail: process.env.SEED_SUPERADMIN_EMAIL,
      seedSuperadminPassword: process.env.SEED_SUPERADMIN_PASSWORD,
    } as Config;
    await bootstrapInstallation(handle.db, config, pino({ level: 'warn' }));
  });
  // One session from here: the seed's temp tables live in it (a pg pool of one; PGlite has a single session).
  if (handle.kind === 'postgres') {
    await handle.close();
    handle = await openDatabase({ url: options.databaseUrl, poolSize: 1 });
  }
  try {
    // Row-level security stays on: the seed's session names itself a system path (as the server's bootstrap does).
    await handle.executeSql(`SET app.system = 'bench.seed'; SET synchronous_commit = off`);
    const before = await countAll(handle, identity);
    // The marker is written last: a profile whose marker names this size is complete. Counts would not do: the
    // benchmark's own ingestion adds contacts, tickets and messages to the seeded tenants.
    const { rows: marks } = await handle.executeSql(
      `SELECT value FROM tenant_counters WHERE name = $1 AND tenant_id IN (SELECT id FROM tenants WHERE identity = $2)`,
      [SEED_MARKER, identity],
    );
    const complete = before.tenants === expected.tenants && Number(marks[0]?.value) === expected.tickets;
    if (complete && !options.force) {
      const tenants = await listTenants(handle, identity);
      log(`profile ${options.profile} is already seeded at this scale: nothing to do (--force re-seeds)`);
      return { profile: options.profile, tenants, skipped: true, seconds: elapsed(started), counts: before };
    }
    if ((before.tenants ?? 0) > 0) await step('remove previous bench data', () => removeProfile(handle, identity));

    const withIds: (TenantPlan & { tenantId: number })[] = [];
    await step('tenants + settings', async () => {
      for (const plan of plans) {
        const { rows } = await handle.executeSql(
          `INSERT INTO tenants (name, identity, max_users, max_connections) VALUES ($1, $2, 1000, 10) RETURNING id`,
          [plan.name, identity],
        );
        withIds.push({ ...plan, tenantId: Number(rows[0]!.id) });
      }
      const settingRows = withIds.flatMap((p) =>
        SETTING_KEYS.map((key) => `(${p.tenantId}, ${lit(key)}, ${lit(SETTING_DEFAULTS[key])})`),
      );
      await handle.executeSql(`INSERT INTO settings (tenant_id, key, value) VALUES ${settingRows.join(',')}`);
    });
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    await step('users, queues, channels', async () => {
      await handle.executeSql(planTable(withIds));
      await handle.executeSql(staffSql(options.profile, passwordHash));
      await handle.executeSql(
        channelSql(
          (ord) => benchBotToken(options.profile, ord),
          withIds.map((p) => p.ord),
        ),
      );
    });
    await step('contacts', () => handle.executeSql(contactsSql()));
    await step('tickets + logs + counters', () => handle.executeSql(ticketsSql()));
    const { rows } = await handle.executeSql(
      `SELECT min(id)::bigint AS lo, max(id)::bigint AS hi FROM tickets WHERE tenant_id IN (SELECT tenant_id FROM bench_plan)`,
      [],
    );
    const lo = Number(rows[0]!.lo);
    const hi = Number(rows[0]!.hi);
    for (let from = lo; from <= hi; from += MESSAGE_BATCH_TICKETS) {
      const to = Math.min(hi, from + MESSAGE_BATCH_TICKETS - 1);
      await step(`messages of tickets ${from - lo + 1}-${to - lo + 1}`, () => handle.executeSql(messagesSql(from, to)));
    }
    await handle.executeSql(
      `INSERT INTO tenant_counters (tenant_id, name, value) SELECT tenant_id, ${lit(SEED_MARKER)}, ${expected.tickets}
       FROM bench_plan WHERE ord = 1`,
    );
    // What autovacuum does to a live database soon after a bulk load: statistics, plus the visibility map that lets
    // counts and agent filters read only the index (right after a load every heap page would be visited).
    await step('vacuum analyze', () => handle.executeSql('VACUUM ANALYZE'));
    const counts = await countAll(handle, identity);
    const tenants = await listTenants(handle, identity);
    return { profile: options.profile, tenants, skipped: false, seconds: elapsed(started), counts };
  } finally {
    await handle.close();
  }
}

const elapsed = (started: number): number => Math.round((performance.now() - started) / 100) / 10;

async function listTenants(handle: DatabaseHandle, identity: string) {
  const { rows } = await handle.executeSql(`SELECT id, name FROM tenants WHERE identity = $1 ORDER BY id`, [identity]);
  return rows.map((row, index) => ({ id: Number(row.id), ord: index + 1, name: String(row.name) }));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      profile: { type: 'string', default: 'one-company' },
      'database-url': { type: 'string' },
      scale: { type: 'string', default: '1' },
      force: { type: 'boolean', default: false },
    },
  });
  const profile = values.profile as Profile;
  if (!PROFILES.includes(profile)) throw new Error(`--profile must be one of ${PROFILES.join(', ')}`);
  const scale = Number(values.scale);
  if (!(scale > 0 && scale <= 10)) throw new Error('--scale must be a number in (0, 10]');
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  console.log(`seeding profile ${profile} at scale ${scale} into ${databaseUrl ? 'PostgreSQL' : `PGlite ${dataDir}`}`);
  const result = await seed({ profile, databaseUrl, dataDir, scale, force: values.force });
  console.log(`\n${result.skipped ? 'found' : 'made'} in ${result.seconds} s:`);
  for (const [table, n] of Object.entries(result.counts))
    console.log(`  ${table.padEnd(10)} ${n.toLocaleString('en')}`);
  const first = result.tenants[0];
  if (first) {
    console.log(`\nlogins (password ${BENCH_PASSWORD}), e.g. tenant ${first.id} "${first.name}":`);
    console.log(
      `  ${benchEmail(profile, 1, 'admin', 1)}, ${benchEmail(profile, 1, 'super', 1)}, ${benchEmail(profile, 1, 'agent', 1)}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
