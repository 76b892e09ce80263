/**
 * Statements for hot paths: queries built once by drizzle with placeholders and run as named prepared statements
 * (parsed and planned once per connection instead of per request), and id lists that keep one statement text
 * whatever their length.
 */
import { createHash } from 'node:crypto';
import {
  Column,
  getTableName,
  is,
  SQL,
  sql,
  Subquery,
  getTableColumns,
  type AnyColumn,
  type Table,
  type ExtractTablesWithRelations,
  type Query,
} from 'drizzle-orm';
import type { Placeholder } from 'drizzle-orm/sql';
import type { WithCacheConfig } from 'drizzle-orm/cache/core/types';
import { NodePgSession } from 'drizzle-orm/node-postgres';
import {
  PgDialect,
  type PgPreparedQuery,
  type PreparedQueryConfig,
  type SelectedFieldsOrdered,
} from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { Queryable } from './client.types.js';

const statementNames = new Map<string, string>();

/**
 * Names of prepared statements carry a hash of their text: `query.prepare('tickets.page')` may build different text
 * from one call to the next (a null channel, a search term or not), and node-postgres refuses a known name with
 * another text. Only fixed-shape hot queries are named, so the map stays small.
 */
export class NamingSession extends NodePgSession<
  Record<string, never>,
  ExtractTablesWithRelations<Record<string, never>>
> {
  constructor(client: pg.Pool | pg.PoolClient, dialect: PgDialect) {
    super(client, dialect, undefined);
  }

  override prepareQuery<T extends PreparedQueryConfig = PreparedQueryConfig>(
    query: Query,
    fields: SelectedFieldsOrdered | undefined,
    name: string | undefined,
    isResponseInArrayMode: boolean,
    customResultMapper?: (rows: unknown[][]) => T['execute'],
    queryMetadata?: { type: 'select' | 'update' | 'delete' | 'insert'; tables: string[] },
    cacheConfig?: WithCacheConfig,
  ): PgPreparedQuery<T> {
    const named = name === undefined ? undefined : statementName(name, query.sql);
    return super.prepareQuery<T>(
      query,
      fields,
      named,
      isResponseInArrayMode,
      customResultMapper,
      queryMetadata,
      cacheConfig,
    );
  }
}

/** The prepared statement name of a text: the label and a hash of the text (the same text keeps its first name). */
export function statementName(label: string, text: string): string {
  let named = statementNames.get(text);
  if (named === undefined) {
    named = `${label}_${createHash('sha1').update(text).digest('base64url').slice(0, 12)}`;
    statementNames.set(text, named);
  }
  return named;
}

/**
 * Values as one PostgreSQL array literal (`{"a",NULL,"b"}`), to bind as a single parameter cast to `text[]`,
 * `bigint[]` or `boolean[]`: set-based statements take a batch's columns this way and keep one text whatever its size
 * (the same literal on node-postgres and PGlite, whose drivers serialise JS arrays each their own way).
 */
export function arrayLiteral(values: readonly (string | number | boolean | null)[]): string {
  const element = (value: string | number | boolean | null): string => {
    if (value === null) return 'NULL';
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new Error('array numbers must be finite');
      return String(value);
    }
    if (typeof value === 'boolean') return value ? 't' : 'f';
    return `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  };
  return `{${values.map(element).join(',')}}`;
}

/** An id list as one array value, `{1,2,3}`: one statement text for any number of ids (`in (...)` is one per length). */
export function idList(ids: readonly number[]): string {
  if (!ids.every(Number.isSafeInteger)) throw new Error('ids must be integers');
  return `{${ids.join(',')}}`;
}

/** `column = any($n::bigint[])`, the list given as a placeholder (filled with `idList`) or as ids. */
export function idIn(column: AnyColumn | SQL, ids: Placeholder | readonly number[]): SQL {
  return sql`${column} = any(${Array.isArray(ids) ? idList(ids) : ids}::bigint[])`;
}

/** A prepared query as drizzle's builders make it; `execute` fills the placeholders. */
interface Prepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/** What drizzle's session needs to make a prepared query (its builders keep these on the query they prepare). */
interface Recipe {
  query: Query;
  fields: SelectedFieldsOrdered | undefined;
  arrayMode: boolean;
  mapper: ((rows: unknown[][]) => unknown) | undefined;
  joins: unknown;
}

function recipeOf(prepared: object): Recipe {
  const inner = prepared as {
    getQuery(): Query;
    fields?: SelectedFieldsOrdered;
    _isResponseInArrayMode?: boolean;
    customResultMapper?: (rows: unknown[][]) => unknown;
    joinsNotNullableMap?: Record<string, boolean>;
  };
  const { fields, joinsNotNullableMap: joins } = inner;
  return {
    query: inner.getQuery(),
    fields,
    arrayMode: inner._isResponseInArrayMode ?? false,
    mapper: inner.customResultMapper ?? (fields ? rowMapper(fields, joins) : undefined),
    joins,
  };
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** An SQL field's decoder (drizzle keeps it out of its public types). */
const decoderOf = (query: SQL): Decoder => (query as unknown as { decoder: Decoder }).decoder;

const identity = new Set<unknown>([Column.prototype.mapFromDriverValue, decoderOf(sql``).mapFromDriverValue]);

/**
 * Drizzle's row mapping (`mapResultRow`) decided once per statement instead of for every value of every row: which
 * decoder each column needs (none for most) and where its value goes. A joined table's object becomes null when its
 * first column is null and the join may miss (`joinsNotNullableMap`), as drizzle does. Rows arrive as arrays.
 */
export function rowMapper(fields: SelectedFieldsOrdered, joins: Record<string, boolean> | undefined) {
  const columns = fields.map(({ path, field }) => {
    const decoder: Decoder = is(field, Column)
      ? field
      : decoderOf(is(field, SQL) ? field : is(field, Subquery) ? (field._.sql as SQL) : field.sql);
    return {
      key: path.at(-1)!,
      parents: path.slice(0, -1),
      decoder: identity.has(decoder.mapFromDriverValue) ? undefined : decoder,
    };
  });
  const firsts = new Map<string, { index: number; table: string | undefined }>();
  if (joins) {
    fields.forEach(({ path, field }, index) => {
      if (!is(field, Column) || path.length !== 2) return;
      const table = getTableName(field.table);
      const first = firsts.get(path[0]!);
      if (!first) firsts.set(path[0]!, { index, table });
      else if (first.table !== table) first.table = undefined;
    });
  }
  const nullable = [...firsts]
    .filter(([, first]) => first.table !== undefined && !joins?.[first.table])
    .map(([name, first]) => ({ name, index: first.index }));
  return (rows: unknown[][]) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      for (let i = 0; i < columns.length; i += 1) {
        const { key, parents, decoder } = columns[i]!;
        const raw = row[i];
        let node = result;
        for (const parent of parents) node = (node[parent] ??= {}) as Record<string, unknown>;
        node[key] = raw === null || decoder === undefined ? raw : decoder.mapFromDriverValue(raw);
      }
      for (const { name, index } of nullable) if (row[index] === null) result[name] = null;
      return result;
    });
}

/** What `build` returns: a drizzle query (or `rawRows`), prepared under a name or, with none, unnamed. */
export interface Preparable<R> {
  prepare(name: string): Prepared<R>;
}

/** Shapes a family keeps at most; past this, further shapes are built at each call (shapes are a few flags). */
const FAMILY_LIMIT = 256;

function placeholdersOf<K extends string>(keys: readonly K[]): Record<K, Placeholder<K>> {
  return Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)])) as Record<K, Placeholder<K>>;
}

/**
 * A fixed-shape query built once: `build` makes it with drizzle's builders and a placeholder for every value that
 * changes between calls (`p.id` is `sql.placeholder('id')`); the text, parameters and result mapping are kept, and
 * each call runs them as a named prepared statement on the caller's transaction with `values` filled in. Drizzle
 * spends more CPU building a query than PostgreSQL spends running a lookup by key, so hot paths (ingestion, ticket
 * and message reads, the realtime audience) build theirs once per process. `build` must not read request values
 * (the tenant id included): whatever it closes over is frozen into the statement.
 */
export function statement<K extends string, R>(
  label: string,
  keys: readonly K[],
  build: (q: Queryable, p: Record<K, Placeholder<K>>) => Preparable<R>,
): (q: Queryable, values: Record<K, unknown>) => Promise<R> {
  const family = statementFamily(label, keys, (q, p) => build(q, p));
  return (q, values) => family(q, null, values);
}

/**
 * As `statement`, for a query whose text depends on a few choices (`shape`: which filters a list applies): one
 * statement per distinct shape, each built on first use. `planEachRun(shape)` marks shapes PostgreSQL must plan with
 * their values (a substring search, where the best plan depends on how many rows the pattern matches): those run
 * unnamed, still built once.
 */
export function statementFamily<S, K extends string, R>(
  label: string,
  keys: readonly K[],
  build: (q: Queryable, p: Record<K, Placeholder<K>>, shape: S) => Preparable<R>,
  planEachRun: (shape: S) => boolean = () => false,
): (q: Queryable, shape: S, values: Record<K, unknown>) => Promise<R> {
  const recipes = new Map<string, Recipe>();
  const placeholders = placeholdersOf(keys);
  return (q, shape, values) => {
    const key = JSON.stringify(shape) ?? '';
    const name = planEachRun(shape) ? undefined : label;
    const recipe = recipes.get(key);
    if (!recipe) {
      const first = build(q, placeholders, shape).prepare(name as string);
      if (recipes.size < FAMILY_LIMIT) recipes.set(key, recipeOf(first));
      return first.execute(values);
    }
    const query = q._.session.prepareQuery(recipe.query, recipe.fields, name, recipe.arrayMode, recipe.mapper);
    (query as { joinsNotNullableMap?: unknown }).joinsNotNullableMap = recipe.joins;
    return (query as unknown as Prepared<R>).execute(values);
  };
}

const rawDialect = new PgDialect();

/** A table's columns in drizzle's order, as the select list of a raw query that `rawTableRows` maps back to rows. */
export function tableColumnList(table: Table): SQL {
  return sql.join(
    Object.values(getTableColumns(table)).map((column) => sql.identifier(column.name)),
    sql`, `,
  );
}

/**
 * A raw `sql` query whose select list is `tableColumnList(table)` (a data-modifying CTE's `returning`, say), its
 * rows mapped to the table's row objects as drizzle maps them (dates, JSON, custom types).
 */
export function rawTableRows<T extends Table>(q: Queryable, query: SQL, table: T): Preparable<T['$inferSelect'][]> {
  const fields = Object.entries(getTableColumns(table)).map(([key, field]) => ({ path: [key], field }));
  const map = rowMapper(fields, undefined);
  return {
    prepare: (name) =>
      q._.session.prepareQuery(rawDialect.sqlToQuery(query), undefined, name, true, map) as unknown as Prepared<
        T['$inferSelect'][]
      >,
  };
}

/** A raw `sql` query for `statement`: its rows as arrays of column values. */
export function rawRows<T extends unknown[]>(q: Queryable, query: SQL): Preparable<T[]> {
  return {
    prepare: (name) =>
      q._.session.prepareQuery(
        rawDialect.sqlToQuery(query),
        undefined,
        name,
        true,
        (rows) => rows as T[],
      ) as unknown as Prepared<T[]>,
  };
}
