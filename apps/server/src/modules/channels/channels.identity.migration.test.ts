/**
 * Migration 0016 on an installation that already has channels (issue 22, ARCHITECTURE §6j): a provider id exactly one
 * connected channel has becomes that channel's claim (its traffic keeps flowing), an id several connected channels
 * have is claimed by none and all of them are disconnected (only a start that proves ownership takes it again),
 * disconnected channels, gateways and stateful sessions claim nothing. Run against a database migrated to 0015 with
 * row-level security already forced, as a running installation has it; on PGlite, and on PostgreSQL too when
 * TEST_DATABASE_URL is set.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type DatabaseHandle } from '../../platform/db/client.js';
import { MIGRATIONS_FOLDER } from '../../platform/db/migrate.js';
import { applyRowLevelSecurity } from '../../platform/db/rls.js';
import { withSystem } from '../../platform/db/tenancy.js';
import { adminDatabaseUrl } from '../../test/seed.js';
import { isProviderKeyConflict } from './channels.identity.js';

const MIGRATION = '0016_channel_provider_keys';
// Every migration from an empty database twice: slow on a loaded machine.

/** The migrations folder as it was before this one (the journal cut before its entry). */
function folderBefore(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conversa-migrations-'));
  fs.cpSync(MIGRATIONS_FOLDER, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === MIGRATION);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

interface Legacy {
  name: string;
  type: string;
  status: string;
  wabaId?: string | null;
  tokenTelegram?: string | null;
  providerState?: Record<string, unknown>;
  tenant: 0 | 1;
}

const LEGACY: Legacy[] = [
  { name: 'waba alone', type: 'waba', status: 'CONNECTED', wabaId: '1100001', tenant: 0 },
  { name: 'waba twin a', type: 'waba', status: 'CONNECTED', wabaId: '1100002', tenant: 0 },
  { name: 'waba twin b', type: 'waba', status: 'CONNECTED', wabaId: '1100002', tenant: 1 },
  { name: 'waba off', type: 'waba', status: 'DISCONNECTED', wabaId: '1100002', tenant: 1 },
  { name: 'page by state', type: 'messenger', status: 'CONNECTED', providerState: { pageId: '5500009' }, tenant: 1 },
  { name: 'instagram', type: 'instagram', status: 'CONNECTED', wabaId: '17841400000000099', tenant: 0 },
  { name: 'bot', type: 'telegram', status: 'CONNECTED', tokenTelegram: '7000000009:AAH-x', tenant: 0 },
  { name: 'bot by state', type: 'telegram', status: 'CONNECTED', providerState: { botId: 7000000010 }, tenant: 1 },
  { name: 'hub', type: 'hub_facebook', status: 'CONNECTED', wabaId: 'hub-9', tenant: 1 },
  { name: 'gateway', type: 'evo', status: 'CONNECTED', wabaId: 'inst9', tenant: 0 },
  { name: 'stateful', type: 'baileys', status: 'CONNECTED', tenant: 0 },
];

const EXPECTED: Record<string, { status: string; key: string | null }> = {
  'waba alone': { status: 'CONNECTED', key: 'waba:1100001' },
  'waba twin a': { status: 'DISCONNECTED', key: null },
  'waba twin b': { status: 'DISCONNECTED', key: null },
  'waba off': { status: 'DISCONNECTED', key: null },
  'page by state': { status: 'CONNECTED', key: 'messenger:5500009' },
  instagram: { status: 'CONNECTED', key: 'instagram:17841400000000099' },
  bot: { status: 'CONNECTED', key: 'telegram:7000000009' },
  'bot by state': { status: 'CONNECTED', key: 'telegram:7000000010' },
  hub: { status: 'CONNECTED', key: 'hub:hub-9' },
  gateway: { status: 'CONNECTED', key: null },
  stateful: { status: 'CONNECTED', key: null },
};

async function seedLegacy(handle: DatabaseHandle): Promise<void> {
  await withSystem(handle.db, 'bootstrap.seed', async (tx) => {
    const tenants = await queryRows<{ id: number }>(
      tx,
      sql`insert into tenants (name) values ('A'), ('B') returning id`,
    );
    for (const c of LEGACY) {
      await tx.execute(sql`insert into channels (tenant_id, name, type, status, waba_id, token_telegram,
        provider_state, webhook_secret)
        values (${tenants[c.tenant]!.id}, ${c.name}, ${c.type}, ${c.status}, ${c.wabaId ?? null},
          ${c.tokenTelegram ?? null}, ${JSON.stringify(c.providerState ?? {})}::jsonb, ${'s-' + c.name})`);
    }
  });
}

async function check(handle: DatabaseHandle): Promise<void> {
  const rows = await withSystem(handle.db, 'channels.superadmin', (tx) =>
    queryRows<{ name: string; status: string; provider_key: string | null }>(
      tx,
      sql`select name, status, provider_key from channels`,
    ),
  );
  expect(Object.fromEntries(rows.map((r) => [r.name, { status: r.status, key: r.provider_key }]))).toEqual(EXPECTED);
  // The index holds from now on: a second claim of a claimed id fails.
  const second = await withSystem(handle.db, 'bootstrap.seed', (tx) =>
    tx.execute(sql`update channels set provider_key = 'waba:1100001' where name = 'waba twin a'`),
  ).catch((error: unknown) => error);
  expect(isProviderKeyConflict(second)).toBe(true);
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe(`migration ${MIGRATION} on existing channels`, () => {
  it('PGlite: a lone connected id is claimed, twins are disconnected unclaimed, the rest claims nothing', async () => {
    const handle = await openDatabase({ pglite: await PGlite.create() });
    cleanups.push(() => handle.close());
    const db = handle.db as unknown as PgliteDatabase;
    await migratePglite(db, { migrationsFolder: folderBefore() });
    await applyRowLevelSecurity(handle);
    await seedLegacy(handle);
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
    await check(handle);
  }, 240_000);

  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'PostgreSQL: the same',
    async () => {
      const name = `conversa_m_${crypto.randomBytes(6).toString('hex')}`;
      const adminUrl = adminDatabaseUrl(process.env.TEST_DATABASE_URL!);
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE "${name}"`);
      await admin.end();
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      const handle = await openDatabase({ url: url.toString(), poolSize: 2 });
      cleanups.push(async () => {
        await handle.close();
        const client = new pg.Client({ connectionString: adminUrl });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        await client.end();
      });
      const db = handle.db as unknown as NodePgDatabase;
      await migratePg(db, { migrationsFolder: folderBefore() });
      await applyRowLevelSecurity(handle);
      await seedLegacy(handle);
      await migratePg(db, { migrationsFolder: MIGRATIONS_FOLDER });
      await check(handle);
    },
    240_000,
  );
});
