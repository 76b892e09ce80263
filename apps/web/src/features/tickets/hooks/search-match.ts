/**
 * The message a text search found on a ticket row (`searchMatch`, GET /tickets with searchParam): a snippet of it with
 * the term's words marked, and how the list hands the term to its rows (a context: the rows are memoised).
 */
import { createContext, useContext } from 'react';

/** The list's search term (what the rows highlight); '' when the list does not search. */
export const SearchTermContext = createContext('');
export const useSearchTerm = (): string => useContext(SearchTermContext);

/** As the server folds: no accents, lower case (one character in, one out, so positions stay the same). */
const fold = (text: string): string =>
  [...text]
    .map((char) => {
      const folded = [...char.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()][0] ?? char;
      return folded.length === char.length ? folded : char;
    })
    .join('');

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Whether a word of the text is one the server matched: it starts with a term word, or shares the beginning a
 * Portuguese stem keeps ("pedidos" and "pedido": all but the last two letters, at least four).
 */
function matches(word: string, terms: string[]): boolean {
  return terms.some((term) => {
    if (word.startsWith(term)) return true;
    const stem = Math.max(4, term.length - 2);
    return term.length >= 5 && word.length >= stem && word.slice(0, stem) === term.slice(0, stem);
  });
}

export interface SnippetPart {
  text: string;
  marked: boolean;
}

/** Characters shown before the first marked word, so a long message still shows the match on one line. */
const LEAD = 24;

/** The snippet of `body` for `term`: parts in order, marked where a word matches, starting near the first match. */
export function searchSnippet(body: string, term: string): SnippetPart[] {
  const text = body.replace(/\s+/g, ' ').trim();
  const terms = (fold(term).match(WORD) ?? []).filter((word) => word.length > 1);
  const folded = fold(text);
  const ranges: [number, number][] = [];
  for (const found of folded.matchAll(WORD)) {
    if (terms.length && matches(found[0], terms)) ranges.push([found.index, found.index + found[0].length]);
  }
  const start = ranges[0] && ranges[0][0] > LEAD ? text.lastIndexOf(' ', ranges[0][0] - LEAD) + 1 : 0;
  const parts: SnippetPart[] = start > 0 ? [{ text: '…', marked: false }] : [];
  let at = start;
  for (const [from, to] of ranges) {
    if (from > at) parts.push({ text: text.slice(at, from), marked: false });
    parts.push({ text: text.slice(from, to), marked: true });
    at = to;
  }
  if (at < text.length) parts.push({ text: text.slice(at), marked: false });
  return parts;
}
