import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { bootstrapInstallation } from './bootstrap.js';
import { loadConfig } from './config.js';
import { openDatabase, queryRows, type DatabaseHandle } from './platform/db/client.js';
import { migrateDatabase } from './platform/db/migrate.js';
import { withSystem } from './platform/db/tenancy.js';
import { verifyPassword } from './platform/crypto.js';

let handle: DatabaseHandle;
afterAll(async () => handle?.close());

describe('first start', () => {
  it('creates tenant 1, plans and a superadmin with a generated strong password printed once', async () => {
    handle = await openDatabase({ pglite: await PGlite.create() });
    await migrateDatabase(handle);
    const printed: string[] = [];
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed.push(String(chunk));
      return true;
    });
    await bootstrapInstallation(handle.db, loadConfig({}), pino({ level: 'silent' }));
    await bootstrapInstallation(handle.db, loadConfig({}), pino({ level: 'silent' }));
    write.mockRestore();

    const banner = printed.filter((line) => line.includes('Superadmin created'));
    expect(banner).toHaveLength(1);
    const password = /superadmin@conversa\.local \/ (\S+)/.exec(banner[0]!)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(20);

    const rows = await withSystem(handle.db, 'bootstrap.seed', async (tx) => ({
      tenants: await queryRows<{ id: number }>(tx, sql`select id from tenants`),
      users: await queryRows<{ email: string; profile: string; password_hash: string }>(
        tx,
        sql`select email, profile, password_hash from users`,
      ),
      plans: await queryRows(tx, sql`select id from plans`),
      settings: await queryRows(tx, sql`select key from settings where tenant_id = 1`),
    }));
    expect(rows.tenants).toEqual([{ id: 1 }]);
    expect(rows.users).toHaveLength(1);
    expect(rows.users[0]).toMatchObject({ email: 'superadmin@conversa.local', profile: 'superadmin' });
    expect(rows.users[0]!.password_hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(rows.users[0]!.password_hash, password)).toBe(true);
    expect(rows.plans.length).toBeGreaterThan(0);
    expect(rows.settings.length).toBeGreaterThan(0);
  });
});
