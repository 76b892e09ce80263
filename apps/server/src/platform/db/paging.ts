/** List pages: a count that stops early, so a huge tenant does not pay an exact count on every page. */
import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * Where `count` stops by default (`countCapped` says it did). A list passes its own cap when counting is costly: the
 * ticket list counts through the visibility policy, row by row, so it stops at TICKET_COUNT_CAP (tickets module).
 */
export const COUNT_CAP = 10_000;

export interface Page<T> {
  rows: T[];
  hasMore: boolean;
  count: number;
  countCapped: boolean;
}

/** A count read up to `cap + 1`, as the page reports it. */
export const capped = (n: number, cap: number) => ({ count: Math.min(n, cap), countCapped: n > cap });

/**
 * The bounded count as a column of the page query itself: an uncorrelated subquery, which PostgreSQL evaluates once
 * per query, so the page and its count cost one round trip. `where` is written against `table` unaliased.
 */
export function boundedCountColumn(table: PgTable, where: SQL | undefined, cap = COUNT_CAP): SQL<number> {
  return sql<number>`(select count(*) from (select 1 from ${table} where ${where ?? sql`true`} limit ${cap + 1}) bounded)`.mapWith(
    Number,
  );
}

/**
 * A page from `limit + 1` fetched rows that carry `total` (boundedCountColumn). A page past the end has no row to
 * carry the count: then it is counted on its own (a first page without rows counts 0).
 */
export async function toPage<T extends { total: number }>(
  found: T[],
  limit: number,
  offset: number,
  countAlone: () => Promise<{ count: number; countCapped: boolean }>,
  cap = COUNT_CAP,
): Promise<Page<T>> {
  const counted = found[0] ? capped(found[0].total, cap) : offset === 0 ? capped(0, cap) : await countAlone();
  return { rows: found.slice(0, limit), hasMore: found.length > limit, ...counted };
}
