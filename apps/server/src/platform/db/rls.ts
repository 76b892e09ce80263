/**
 * Row-level security for every table with a tenant_id column (and tenants itself), applied after the migrations on
 * every start. Deriving the list from the catalogue means a new tenant-owned table cannot be forgotten.
 */
import type { DatabaseHandle } from './client.js';
import { APP_ROLE } from './tenancy.js';

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

const TENANT_MATCH = "nullif(current_setting('app.tenant_id', true), '')::bigint";
const SYSTEM_MATCH = "coalesce(current_setting('app.system', true), '') <> ''";

export async function applyRowLevelSecurity(handle: DatabaseHandle): Promise<string[]> {
  await handle.executeSql(`
    DO $$ BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN
        CREATE ROLE ${APP_ROLE} NOLOGIN;
      END IF;
    END $$;
    GRANT USAGE ON SCHEMA public TO ${APP_ROLE};
    GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${APP_ROLE};
    GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${APP_ROLE};
  `);
  const member = await handle.executeSql(
    `SELECT pg_has_role(current_user, '${APP_ROLE}', 'MEMBER') AS member, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS super`,
    [],
  );
  if (!member.rows[0]?.member && !member.rows[0]?.super) {
    await handle.executeSql(`GRANT ${APP_ROLE} TO current_user`);
  }
  const { rows } = await handle.executeSql(
    `SELECT table_name FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'tenant_id' ORDER BY table_name`,
    [],
  );
  const tables = rows.map((row) => String(row.table_name));
  const statements: string[] = [];
  for (const [table, column] of [...tables.map((t) => [t, 'tenant_id'] as const), ['tenants', 'id'] as const]) {
    const t = quoteIdent(table);
    statements.push(
      `ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`,
      `ALTER TABLE ${t} FORCE ROW LEVEL SECURITY`,
      `DROP POLICY IF EXISTS tenant_isolation ON ${t}`,
      `CREATE POLICY tenant_isolation ON ${t} USING (${column} = ${TENANT_MATCH}) WITH CHECK (${column} = ${TENANT_MATCH})`,
      `DROP POLICY IF EXISTS system_access ON ${t}`,
      // Only for the owner (system paths never switch role): for the tenant role the one remaining policy is
      // `tenant_id = <setting>`, which the planner can use as an index condition. Two permissive policies for
      // the tenant role would be OR-ed, and `tenant_id = x OR <system>` leaves indexes on (tenant_id, ...)
      // usable only by a full scan of the index when a query does not name the tenant itself.
      `CREATE POLICY system_access ON ${t} TO CURRENT_USER USING (${SYSTEM_MATCH}) WITH CHECK (${SYSTEM_MATCH})`,
    );
  }
  await handle.executeSql(`BEGIN; ${statements.join(';\n')}; COMMIT;`);
  return [...tables, 'tenants'];
}
