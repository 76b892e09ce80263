import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { queryRows } from './client.js';
import { asTenantId, systemContext, withSystem, withTenant } from './tenancy.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('row-level security', () => {
  it('is enabled and forced on every table with a tenant_id, and on tenants', async () => {
    const { rows } = await t.database.executeSql(
      `SELECT c.relname, c.relrowsecurity, c.relforcerowsecurity FROM pg_class c
        JOIN information_schema.columns col ON col.table_name = c.relname AND col.column_name = 'tenant_id'
       WHERE col.table_schema = 'public' AND c.relkind = 'r'`,
      [],
    );
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) {
      expect(row, String(row.relname)).toMatchObject({ relrowsecurity: true, relforcerowsecurity: true });
    }
  });

  it('lets withTenant see only its own tenant rows even without a where clause', async () => {
    const other = await t.createTenant();
    await t.createUser({ tenantId: other });
    await t.createUser({ tenantId: 1 });
    const seen = await withTenant(t.platform.db, systemContext(other), async (tx) =>
      queryRows(tx, sql`select distinct tenant_id from users`),
    );
    expect(seen).toEqual([{ tenant_id: other }]);
    const tenantsSeen = await withTenant(t.platform.db, systemContext(other), async (tx) =>
      queryRows(tx, sql`select id from tenants`),
    );
    expect(tenantsSeen).toEqual([{ id: other }]);
  });

  it('runs a transaction on generic plans only when asked, and only that transaction', async () => {
    const mode = async (tx: Parameters<Parameters<typeof withTenant>[2]>[0]) =>
      (await queryRows<{ mode: string }>(tx, sql`select current_setting('plan_cache_mode') as mode`))[0]!.mode;
    const ctx = systemContext(1);
    expect(await withTenant(t.platform.db, ctx, mode, { genericPlans: true })).toBe('force_generic_plan');
    expect(await withTenant(t.platform.db, ctx, mode)).toBe('auto');
  });

  it('refuses writes into another tenant', async () => {
    const other = await t.createTenant();
    await expect(
      withTenant(t.platform.db, { tenantId: asTenantId(other), userId: null, profile: null }, async (tx) =>
        tx.execute(sql`insert into settings (tenant_id, key, value) values (1, 'x', 'y')`),
      ),
    ).rejects.toSatisfy((error: Error & { cause?: Error }) => /row-level security/.test(String(error.cause?.message)));
  });

  it('sees nothing outside withTenant/withSystem when not superuser', async () => {
    const count = await withSystem(t.platform.db, 'jobs.cleanup', async (tx) =>
      queryRows<{ n: number }>(tx, sql`select count(*)::int as n from tenants`),
    );
    expect(Number(count[0]?.n)).toBeGreaterThanOrEqual(1);
  });
});
