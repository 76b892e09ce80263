/** List pages: a count that stops early, so a huge tenant does not pay an exact count on every page. */
import { count, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.js';

/** `count` stops at this many matches (`countCapped` says it did). */
export const COUNT_CAP = 10_000;

export async function boundedCount(
  tx: Queryable,
  table: PgTable,
  where: SQL | undefined,
): Promise<{ count: number; countCapped: boolean }> {
  const bounded = tx
    .select({ one: sql`1` })
    .from(table)
    .where(where)
    .limit(COUNT_CAP + 1)
    .as('bounded');
  const [total] = await tx.select({ n: count() }).from(bounded);
  const n = Number(total?.n ?? 0);
  return { count: Math.min(n, COUNT_CAP), countCapped: n > COUNT_CAP };
}
