/**
 * The drizzle handle types the rest of the code sees, apart from client.ts (which opens the handle) so statements.ts,
 * which client.ts builds its pg session from, can name them without importing client.ts back.
 */
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';

export type Database = PgDatabase<PgQueryResultHKT>;
export type Tx = PgTransaction<
  PgQueryResultHKT,
  Record<string, never>,
  ExtractTablesWithRelations<Record<string, never>>
>;
/** Either the database or a transaction: what repositories accept. */
export type Queryable = Database | Tx;
