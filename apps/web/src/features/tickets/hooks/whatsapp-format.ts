/**
 * Message text as the chat draws it: links, and WhatsApp's formatting (`*bold*`, `_italic_`, `~strike~`,
 * ```` ```mono``` ````). Customers write whatever they like, so every step here is linear in the text's length: a
 * 60,000-character `~a ~a ~a ...` froze a tab for 28 s with the former regular expression, which scanned the rest of
 * the line again from every unmatched mark. The result is data (runs of text with flags, links with an http(s)
 * address), never HTML: React renders it as text nodes.
 */

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** A run of text with WhatsApp's formatting (`*bold*`, `_italic_`, `~strike~`, ```` ```mono``` ````). */
export interface StyledPart {
  text: string;
  bold?: true;
  italic?: true;
  strike?: true;
  mono?: true;
}

export type RichPart = ({ kind: 'text' } & StyledPart) | { kind: 'link'; text: string; href: string };

/**
 * A line longer than this is shown as typed (links still open): formatting is for chat-sized lines, and a line past
 * this size (WhatsApp Cloud API's whole text message is 4,096 characters) is a paste or an attack, whose thousands of
 * styled runs would only cost the tab its time.
 */
export const FORMAT_MAX_LINE_LENGTH = 4096;

const URL_PATTERN = /\b(https?:\/\/[^\s<>"']+|www\.[^\s<>"']+)/gi;
const TRAILING_PUNCTUATION = new Set(['.', ',', ';', ':', '!', '?', ')', ']']);

/** Splits text into plain parts and links (http(s) and www.), trailing punctuation left outside the link. */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    // Trimmed by a loop: a `[.,...]+$` pattern retries from every character of a long run of dots (quadratic).
    let length = match[0].length;
    while (length > 0 && TRAILING_PUNCTUATION.has(match[0][length - 1]!)) length -= 1;
    const url = match[0].slice(0, length);
    const start = match.index;
    if (start > last) parts.push({ kind: 'text', text: text.slice(last, start) });
    parts.push({ kind: 'link', text: url, href: url.startsWith('www.') ? `https://${url}` : url });
    last = start + url.length;
  }
  if (last < text.length) parts.push({ kind: 'text', text: text.slice(last) });
  return parts;
}

type Mark = '*' | '_' | '~';
const MARKS: Record<Mark, 'bold' | 'italic' | 'strike'> = { '*': 'bold', _: 'italic', '~': 'strike' };
const isMark = (ch: string | undefined): ch is Mark => ch === '*' || ch === '_' || ch === '~';
/** A mark opens or closes only next to a word boundary, as WhatsApp reads it (`5*3*2`, `snake_case_name` stay). */
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
const SPACE = /\s/;

/**
 * For every position p, the first index q >= p holding what `found(q)` asks for (text.length when none): built in one
 * backward pass, so "where is the next closing mark" is one array read instead of a scan.
 */
function nextIndex(text: string, found: (index: number) => boolean, meter?: FormatMeter): Int32Array {
  const next = new Int32Array(text.length + 1);
  next[text.length] = text.length;
  for (let index = text.length - 1; index >= 0; index -= 1) next[index] = found(index) ? index : next[index + 1]!;
  if (meter) meter.steps += text.length;
  return next;
}

/** Counts the formatter's steps (each a constant amount of work): the tests' proof that it stays linear. */
export interface FormatMeter {
  steps: number;
}

/**
 * WhatsApp's text formatting as styled runs, marks removed: what customers, agents' signatures (`*Name*:`) and
 * templates write. The rules (those of the former expression but one):
 * - ```` ```text``` ```` is monospace: no backtick inside, lines may break, the content is taken as it is;
 * - `*`, `_` or `~`, then text that starts and ends with a non-space and stays on one line, then the same mark: the
 *   nearest closing mark (the same mark after a non-space, from the character after the next on; `~~~` is a struck
 *   `~`). The former expression skipped a closing mark right after a one-character content when a later one was on
 *   the line (`~a~ e ~b~` was one struck `a~ e ~b`); WhatsApp strikes `a` and `b`, and so does this;
 * - a span whose outer neighbours are letters or digits is no span (`5*3*2`), and the search goes on one character
 *   after its opening mark; inside a span the marks nest (`*_both_*`).
 * Each position is looked at once per nesting level, each look is O(1) on arrays built once (`nextIndex`), and a mark
 * cannot nest inside itself (its closing mark would have been found first), so the depth is at most four: linear.
 */
export function whatsappStyles(text: string, style: Omit<StyledPart, 'text'> = {}, meter?: FormatMeter): StyledPart[] {
  const newline = nextIndex(text, (index) => text[index] === '\n', meter);
  const backtick = nextIndex(text, (index) => text[index] === '`', meter);
  // A closing mark: the mark, after a non-space.
  const closingOf = (mark: Mark) =>
    nextIndex(text, (index) => text[index] === mark && index > 0 && !SPACE.test(text[index - 1]!), meter);
  const closing = { '*': closingOf('*'), _: closingOf('_'), '~': closingOf('~') };

  /** The span opening at `start` within [.., to): its end (exclusive) and its content's range; null when none. */
  const spanAt = (start: number, to: number): { end: number; content: [number, number]; mono?: true } | null => {
    const ch = text[start];
    if (ch === '`') {
      if (text[start + 1] !== '`' || text[start + 2] !== '`') return null;
      const close = backtick[Math.min(start + 3, text.length)]!;
      if (close === start + 3 || close + 3 > to || text[close + 1] !== '`' || text[close + 2] !== '`') return null;
      return { end: close + 3, content: [start + 3, close], mono: true };
    }
    if (!isMark(ch) || start + 2 >= to || SPACE.test(text[start + 1]!)) return null;
    const close = closing[ch][start + 2]!;
    return close < Math.min(newline[start + 1]!, to) ? { end: close + 1, content: [start + 1, close] } : null;
  };

  const styled = (from: number, to: number, current: Omit<StyledPart, 'text'>, parts: StyledPart[]): void => {
    let last = from;
    const plain = (end: number) => {
      if (end > last) parts.push({ ...current, text: text.slice(last, end) });
    };
    for (let start = from; start < to; start += 1) {
      if (meter) meter.steps += 1;
      const span = spanAt(start, to);
      if (!span) continue;
      const before = start > from ? text[start - 1] : undefined;
      const after = span.end < to ? text[span.end] : undefined;
      if ((before && WORD_CHARACTER.test(before)) || (after && WORD_CHARACTER.test(after))) continue;
      plain(start);
      const [contentStart, contentEnd] = span.content;
      if (span.mono) parts.push({ ...current, text: text.slice(contentStart, contentEnd), mono: true });
      else styled(contentStart, contentEnd, { ...current, [MARKS[text[start] as Mark]]: true }, parts);
      last = span.end;
      start = span.end - 1;
    }
    plain(to);
  };

  const parts: StyledPart[] = [];
  styled(0, text.length, style, parts);
  return parts;
}

/**
 * The parts of a message text as the chat draws them: links, and formatted runs between them. Lines longer than
 * FORMAT_MAX_LINE_LENGTH are cut out of the formatting: each is shown as typed, and no span reaches into or across it.
 */
export function richTextParts(text: string): RichPart[] {
  const parts: RichPart[] = [];
  const add = (segment: string, format: boolean) => {
    for (const part of splitLinks(segment)) {
      if (part.kind === 'link') parts.push(part);
      else if (!format) parts.push({ kind: 'text', text: part.text });
      else for (const run of whatsappStyles(part.text)) parts.push({ kind: 'text', ...run });
    }
  };
  let segmentStart = 0;
  let lineStart = 0;
  while (lineStart <= text.length) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    if (lineEnd - lineStart > FORMAT_MAX_LINE_LENGTH) {
      add(text.slice(segmentStart, lineStart), true);
      add(text.slice(lineStart, lineEnd), false);
      segmentStart = lineEnd;
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  add(text.slice(segmentStart), true);
  return parts;
}
