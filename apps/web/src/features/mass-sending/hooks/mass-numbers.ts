/**
 * Reading what the user pastes (product-spec §5 "Mass sending"): a list of numbers, and the lines of the variables tab
 * ("number,var1,var2"). A number is 8 to 15 digits once spaces, dashes, parentheses and a leading + are removed.
 */

const NUMBER_NOISE = /[\s\-()]/g;
const DIGITS = /^\d{8,15}$/;

/** The digits of a typed number, or null when it is not one. */
export function normalizeNumber(typed: string): string | null {
  const digits = typed.replace(NUMBER_NOISE, '').replace(/^\+/, '');
  return DIGITS.test(digits) ? digits : null;
}

export interface ParsedNumbers {
  /** The distinct valid numbers, as digits, in the order typed. */
  numbers: string[];
  /** The entries that are not numbers, as typed. */
  invalid: string[];
}

/** Numbers one per line, or separated by commas or semicolons. */
export function parseNumbers(text: string): ParsedNumbers {
  const numbers = new Set<string>();
  const invalid: string[] = [];
  for (const entry of text.split(/[\n\r,;]+/)) {
    const typed = entry.trim();
    if (!typed) continue;
    const digits = normalizeNumber(typed);
    if (digits) numbers.add(digits);
    else invalid.push(typed);
  }
  return { numbers: [...numbers], invalid };
}

export interface ParsedLines {
  /** The non-empty lines, trimmed: what POST /bulkVariable/ receives as `number`. */
  lines: string[];
  /** How many of them start with a valid number. */
  valid: number;
  /** The 1-based line number (of the text as typed) of the first line that does not start with a number. */
  firstInvalidLine: number | null;
  invalidCount: number;
  /** The most variables a line carries (columns after the number). */
  columns: number;
}

/** Lines "number,var1,var2"; blank lines are skipped. */
export function parseVariableLines(text: string): ParsedLines {
  const lines: string[] = [];
  let valid = 0;
  let firstInvalidLine: number | null = null;
  let invalidCount = 0;
  let columns = 0;
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    lines.push(line);
    const [number = '', ...variables] = line.split(',');
    if (normalizeNumber(number.trim())) {
      valid += 1;
      columns = Math.max(columns, variables.length);
    } else {
      invalidCount += 1;
      firstInvalidLine ??= index + 1;
    }
  });
  return { lines, valid, firstInvalidLine, invalidCount, columns };
}

/** The variables every message knows, besides the columns of the lines. */
export const CONTACT_VARIABLES = ['name', 'firstName', 'number'] as const;

/** The highest `{{varN}}` the message uses (0 for none). */
export function highestColumnUsed(message: string): number {
  let highest = 0;
  for (const match of message.matchAll(/\{\{\s*var(\d+)\s*\}\}/g)) highest = Math.max(highest, Number(match[1]));
  return highest;
}

/** `text` with `insert` in place of the selection [start, end); the caret goes after the inserted text. */
export function insertAt(text: string, insert: string, start: number, end = start): { value: string; caret: number } {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { value: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}
