/** List pages: a count that stops early, so a huge tenant does not pay an exact count on every page. */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.js';
import { statementFamily, type Preparable } from './statements.js';

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
const capped = (n: number, cap: number) => ({ count: Math.min(n, cap), countCapped: n > cap });

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
async function toPage<T extends { total: number }>(
  found: T[],
  limit: number,
  offset: number,
  countAlone: () => Promise<{ count: number; countCapped: boolean }>,
  cap = COUNT_CAP,
): Promise<Page<T>> {
  const counted = found[0] ? capped(found[0].total, cap) : offset === 0 ? capped(0, cap) : await countAlone();
  return { rows: found.slice(0, limit), hasMore: found.length > limit, ...counted };
}

type PageKey = 'limit' | 'offset';

/**
 * A list as statement families (statements.ts), one statement per shape: the page, whose rows carry the bounded count
 * of all matches (`total`, boundedCountColumn over `where`), and the count alone for a page past the end, which no
 * row carries. `from` gives both the builder to select from (a list that searches adds its CTE there); `page` builds
 * the page's select with the count column, ordered, limited by `p.limit` and offset by `p.offset`.
 */
export function pagedList<S, K extends string, R extends { total: number }>(options: {
  label: string;
  keys: readonly K[];
  table: PgTable;
  cap?: number;
  where: (p: Record<K | PageKey, Placeholder>, shape: S) => SQL | undefined;
  from?: (q: Queryable, p: Record<K | PageKey, Placeholder>, shape: S) => Pick<Queryable, 'select'>;
  page: (
    from: Pick<Queryable, 'select'>,
    total: SQL<number>,
    where: SQL | undefined,
    p: Record<K | PageKey, Placeholder>,
    shape: S,
  ) => Preparable<R[]>;
  /** Shapes PostgreSQL must plan with their values (substring searches). */
  planEachRun?: (shape: S) => boolean;
}): (tx: Queryable, shape: S, values: Record<K, unknown>, limit: number, offset: number) => Promise<Page<R>> {
  const { table, where } = options;
  const cap = options.cap ?? COUNT_CAP;
  const from = options.from ?? ((q: Queryable) => q);
  const keys: readonly (K | PageKey)[] = [...options.keys, 'limit', 'offset'];
  const page = statementFamily(
    `${options.label}_page`,
    keys,
    (q, p, shape: S) => {
      const matches = where(p, shape);
      return options.page(from(q, p, shape), boundedCountColumn(table, matches, cap), matches, p, shape);
    },
    options.planEachRun,
  );
  const countAlone = statementFamily(
    `${options.label}_count`,
    keys,
    (q, p, shape: S) =>
      from(q, p, shape)
        .select({ n: boundedCountColumn(table, where(p, shape), cap) })
        .from(sql`(select 1) one`),
    options.planEachRun,
  );
  return async (tx, shape, values, limit, offset) => {
    const all = { ...values, limit: limit + 1, offset } as Record<K | PageKey, unknown>;
    const found = await page(tx, shape, all);
    return toPage(
      found,
      limit,
      offset,
      async () => {
        const [row] = await countAlone(tx, shape, all);
        return capped(row?.n ?? 0, cap);
      },
      cap,
    );
  };
}
