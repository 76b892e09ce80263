/**
 * Word search over a key table (messages' `message_search_keys`, migration 0017): a term is read into its words the
 * way PostgreSQL reads the text it indexed (the `simple` parser after the one accent and case fold), each word with
 * its Portuguese stem. A word matches a text holding a word that starts with it, or a word of the same stem
 * ("pedidos" finds "pedido", "entreg" finds "entregamos"); every word of the term must match.
 *
 * Key tables hold the words and stems cut to TEXT_KEY_LENGTH. One word no longer than that is decided by its keys
 * alone; a longer word, or several words, narrow by the keys of the longest word and the text decides (`verify`, its
 * `query` checked against the same vector the keys came from).
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { queryRows, type Queryable } from './client.js';
import { folded } from './search.js';

/** Characters of a word a key keeps (`message_search_keys_of` in migration 0017 cuts to the same). */
export const TEXT_KEY_LENGTH = 32;

/** Words of a term looked at: a longer term is not refused, its further words are left out. */
const TERM_WORDS_MAX = 8;

export interface TextTerm {
  /** The keys of the candidate word: `[from, to)` are the keys it starts, `stem` its stem's key ('' when none). */
  from: string;
  to: string;
  stem: string;
  /** One range holding both kinds of key, `[low, high)`: an index reads it, the exact test then decides. */
  low: string;
  high: string;
  /** Whether the text must decide (several words, or a word longer than a key). */
  verify: boolean;
  /** The whole term as tsquery text: each word a prefix or its stem, all of them. */
  query: string;
}

/** The keys starting with `prefix` (cut to a key's length): `[from, to)` in byte order. */
function keyRange(prefix: string): { from: string; to: string } {
  const chars = [...prefix].slice(0, TEXT_KEY_LENGTH);
  const from = chars.join('');
  const last = chars.pop()!.codePointAt(0)!;
  // The next code point after the last one (a surrogate is no character of its own: skip their block).
  const next = last + 1 >= 0xd800 && last + 1 <= 0xdfff ? 0xe000 : last + 1;
  return { from, to: chars.join('') + String.fromCodePoint(next) };
}

/** A tsquery operand taken literally (quoted; the cast applies no parser). */
const operand = (lexeme: string): string => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The term's words and stems as PostgreSQL reads them (one round trip), or null when no word of two characters or
 * more is left: one-character words are no keys. The same query turns JIT off for the rest of the transaction: the
 * search statements are costed far above `jit_above_cost` (their generic plans count both gated branches, one of which
 * never runs), and compiling one took 360 ms on the bench data for a statement that runs in one.
 */
export async function readTextTerm(q: Queryable, term: string): Promise<TextTerm | null> {
  const text = term.slice(0, 1_000);
  const rows = await queryRows<{ word: string; stem: string | null }>(
    q,
    sql`select set_config('jit', 'off', true) as jit, w.word, (select s.lexeme from unnest(to_tsvector('portuguese'::regconfig, w.word)) s
          where 1 = any(s.positions) limit 1) as stem
        from unnest(tsvector_to_array(to_tsvector('simple'::regconfig, ${folded(sql`${text}::text`)}))) as w(word)
        where length(w.word) > 1`,
  );
  const words = rows.slice(0, TERM_WORDS_MAX);
  if (words.length === 0) return null;
  const candidate = words.reduce((best, word) => ([...word.word].length > [...best.word].length ? word : best));
  const range = keyRange(candidate.word);
  const stem = candidate.stem ? [...candidate.stem].slice(0, TEXT_KEY_LENGTH).join('') : '';
  return {
    ...range,
    stem,
    low: stem && stem < range.from ? stem : range.from,
    high: stem && stem >= range.to ? keyRange(stem).to : range.to,
    verify: words.length > 1 || [...candidate.word].length > TEXT_KEY_LENGTH,
    query: words
      .map(({ word, stem }) => `(${operand(word)}:*${stem && stem !== word ? ` | ${operand(stem)}` : ''})`)
      .join(' & '),
  };
}

/** The term's values as statement parameters (placeholders `from`, `to`, `stem`, `query`). */
export const textTermValues = (term: TextTerm) => ({
  from: term.from,
  to: term.to,
  stem: term.stem,
  low: term.low,
  high: term.high,
  query: term.query,
});

export type TextTermKey = keyof ReturnType<typeof textTermValues>;

/**
 * A key of the candidate word, on a key table aliased `k`: one the word starts, or its stem. The enclosing range comes
 * first so that it is the index condition (a stem is usually the start of its word: one short range); with the OR
 * alone, a ticket's keys were all read to find one.
 */
export const keyOfTerm = (p: Record<TextTermKey, Placeholder>): SQL =>
  sql`(k.key >= ${p.low} and k.key < ${p.high} and (k.key >= ${p.from} and k.key < ${p.to} or k.key = ${p.stem}))`;

/** The text matches the whole term (its vector is the one the keys came from, `text_search_vector`). */
export const textMatchesTerm = (text: SQL, p: Record<'query', Placeholder>): SQL =>
  sql`text_search_vector(${text}) @@ ${p.query}::tsquery`;
