/** Applies drizzle-kit migrations (one folder for PGlite and PostgreSQL), then row-level security, under a lock. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { DatabaseHandle } from './client.js';
import { applyRowLevelSecurity } from './rls.js';

export const MIGRATIONS_FOLDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../drizzle');
const MIGRATION_LOCK = 727_001;

export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  const config = { migrationsFolder: MIGRATIONS_FOLDER };
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as unknown as PgliteDatabase, config);
    await applyRowLevelSecurity(handle);
    return;
  }
  // Several nodes may start together: one migrates, the others wait for the lock and find nothing to do.
  await handle.withAdvisoryLock(MIGRATION_LOCK, async () => {
    await migratePg(handle.db as unknown as NodePgDatabase, config);
    await applyRowLevelSecurity(handle);
  });
}
