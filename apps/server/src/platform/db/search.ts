/**
 * Accent- and case-insensitive text search without the unaccent extension (not in every PostgreSQL/PGlite build).
 * Upper-case accented letters are listed too: lower() leaves them alone under the C locale.
 */
import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

const ACCENTED = 'áàâãäåéèêëíìîïóòôõöúùûüçñýÿÁÀÂÃÄÅÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑÝ';
const PLAIN = 'aaaaaaeeeeiiiiooooouuuucnyyaaaaaaeeeeiiiiooooouuuucny';

/** The search term as the database sees folded text: no accents, lower case, trimmed. */
export const foldSearch = (value: string): string => value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** A LIKE pattern containing the term, with LIKE's wildcards escaped. */
export const containing = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * The column folded like `foldSearch` folds the term. The alphabets are SQL literals, not parameters, so the
 * expression is the same text as the stored generated columns built with `foldedExpression`.
 */
export const folded = (column: AnyColumn | SQL): SQL =>
  sql`translate(lower(${column}), ${sql.raw(`'${ACCENTED}'`)}, ${sql.raw(`'${PLAIN}'`)})`;

/** The fold as SQL text for generated columns (kept beside `folded` so the two cannot drift). */
export const foldedExpression = (column: string): string => `translate(lower(${column}), '${ACCENTED}', '${PLAIN}')`;
