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

/** The column folded like `foldSearch` folds the term. */
export const folded = (column: AnyColumn | SQL): SQL => sql`translate(lower(${column}), ${ACCENTED}, ${PLAIN})`;

/** The same fold as SQL text, for stored generated columns (contacts.name_folded, messages.search). */
export const foldedExpression = (column: string): string => `translate(lower(${column}), '${ACCENTED}', '${PLAIN}')`;
