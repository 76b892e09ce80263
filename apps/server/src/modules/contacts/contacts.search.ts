/**
 * Substring search over contacts through their search keys (contacts.tables.ts `contactSearchKeys`): the contacts
 * whose folded name, e-mail or number contain a term are one btree range of keys per field, which PostgreSQL may read
 * under row-level security (LIKE it may not). The contacts list and the ticket search both use it, as statements:
 * the term's shape (which fields, how long) decides the text, its values are placeholders.
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { containing, foldSearch } from '../../platform/db/search.js';
import { SEARCH_KEY_FIELDS, SEARCH_KEY_LENGTH } from './contacts.tables.js';

export type ContactSearchKey = 'tenantId' | 'textFrom' | 'textTo' | 'digitsFrom' | 'digitsTo' | 'term' | 'digits';

export const CONTACT_SEARCH_KEYS: readonly ContactSearchKey[] = [
  'tenantId',
  'textFrom',
  'textTo',
  'digitsFrom',
  'digitsTo',
  'term',
  'digits',
];

/** What a term looks like: the text of its query. `fields` empty means no search. */
export interface ContactSearchShape {
  fields: (keyof typeof SEARCH_KEY_FIELDS)[];
  /** Longer than a key: the keys narrow the contacts down, LIKE on the contact decides. */
  long: boolean;
}

/**
 * Whether the list searches at all. The contacts list plans such shapes at each run (statementFamily's
 * `planEachRun`): how many contacts a term matches decides its plan. The ticket search decides that while it runs
 * (tickets.repository.ts `searchPages`) and plans only long terms per run.
 */
export const searches = (shape: ContactSearchShape): boolean => shape.fields.length > 0;

export interface ContactSearch {
  shape: ContactSearchShape;
  values: Omit<Record<ContactSearchKey, unknown>, 'tenantId'>;
}

/** The keys starting with `prefix` (cut to a key's length): `[from, to)` in byte order. */
function keyRange(prefix: string): { from: string; to: string } {
  const chars = [...prefix].slice(0, SEARCH_KEY_LENGTH);
  const from = chars.join('');
  const last = chars.pop()!.codePointAt(0)!;
  // The next code point after the last one (a surrogate is no character of its own: skip their block).
  const next = last + 1 >= 0xd800 && last + 1 <= 0xdfff ? 0xe000 : last + 1;
  return { from, to: chars.join('') + String.fromCodePoint(next) };
}

/**
 * A search term as shape and values. Names and e-mails are searched with the folded term; numbers only for a
 * number-like term ("(11) 9876-5"), by its digits: "Maria 2" must not match every number with a 2.
 */
export function contactSearch(search: string, fields: ('name' | 'email')[]): ContactSearch {
  const term = foldSearch(search);
  const digits = /^[\d\s()+.-]+$/.test(term) ? term.replace(/\D/g, '') : '';
  const text = term ? keyRange(term) : { from: '', to: '' };
  const number = digits ? keyRange(digits) : { from: '', to: '' };
  return {
    shape: {
      fields: term ? [...fields, ...(digits ? (['number'] as const) : [])] : [],
      long: [...term].length > SEARCH_KEY_LENGTH || digits.length > SEARCH_KEY_LENGTH,
    },
    values: {
      textFrom: text.from,
      textTo: text.to,
      digitsFrom: number.from,
      digitsTo: number.to,
      term: containing(term),
      digits: containing(digits),
    },
  };
}

/** `select <contact id>` of the tenant's contacts the search matches (`shape.fields` must not be empty). */
export function contactsMatching(p: Record<ContactSearchKey, Placeholder>, shape: ContactSearchShape): SQL {
  const range = (field: ContactSearchShape['fields'][number]) => {
    const [from, to] = field === 'number' ? [p.digitsFrom, p.digitsTo] : [p.textFrom, p.textTo];
    return sql`(k.field = ${sql.raw(String(SEARCH_KEY_FIELDS[field]))} and k.key >= ${from} and k.key < ${to})`;
  };
  const keys = sql`select distinct k.contact_id as id from contact_search_keys k
    where k.tenant_id = ${p.tenantId} and (${sql.join(shape.fields.map(range), sql` or `)})`;
  if (!shape.long) return keys;
  const like = (field: ContactSearchShape['fields'][number]) =>
    field === 'name'
      ? sql`c.name_folded like ${p.term}`
      : field === 'email'
        ? sql`lower(c.email) like ${p.term}`
        : sql`c.number like ${p.digits}`;
  return sql`select c.id from contacts c where c.id in (${keys}) and (${sql.join(shape.fields.map(like), sql` or `)})`;
}
