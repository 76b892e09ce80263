/**
 * Typed dates (product-spec §5): day/month/year in every language but American English, which reads month/day/year.
 * Values travel as ISO dates (YYYY-MM-DD); the calendars speak the interface language.
 */
import 'dayjs/locale/de';
import 'dayjs/locale/en-gb';
import 'dayjs/locale/es';
import 'dayjs/locale/fr';
import 'dayjs/locale/it';
import 'dayjs/locale/pl';
import 'dayjs/locale/pt';
import 'dayjs/locale/pt-br';
import 'dayjs/locale/ru';
import type { Locale } from '@conversa/shared';

export const dateInputFormat = (locale: Locale): string => (locale === 'en-us' ? 'MM/DD/YYYY' : 'DD/MM/YYYY');

const DAYJS_LOCALES: Record<Locale, string> = {
  pt: 'pt',
  'pt-br': 'pt-br',
  'en-us': 'en',
  'en-gb': 'en-gb',
  es: 'es',
  'es-419': 'es',
  de: 'de',
  fr: 'fr',
  it: 'it',
  pl: 'pl',
  ru: 'ru',
};

/** The dayjs locale for calendars (month and weekday names). */
export const dayjsLocale = (locale: Locale): string => DAYJS_LOCALES[locale];

const pad = (value: number) => String(value).padStart(2, '0');

/** A typed date (`31/12/1990`, `31.12.1990`, `31-12-1990`; `12/31/1990` in en-us) as YYYY-MM-DD, or null. */
export function parseDateInput(text: string, locale: Locale): string | null {
  const match = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/.exec(text);
  if (!match) return null;
  const [first, second, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const [month, day] = locale === 'en-us' ? [first, second] : [second, first];
  const date = new Date(Date.UTC(year, month - 1, day));
  const valid = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return valid && year >= 1900 ? `${year}-${pad(month)}-${pad(day)}` : null;
}

/** Where a date and time are picked (schedules): always day/month/year and 24 h, in every language (issue 23). */
export const PICK_DAY_FORMAT = 'DD/MM/YYYY';

/** A typed `dd/MM/yyyy` day (also `.` or `-`) as YYYY-MM-DD, whatever the language; null when no date. */
export const parseDayInput = (text: string): string | null => parseDateInput(text, 'pt');

/** A typed 24-hour time (`9:05`, `09:05`, `0905`, `9h05`) as HH:mm; null when no time of day. */
export function parseTimeInput(text: string): string | null {
  const match = /^\s*(\d{1,2})(?:\s*[:h.]\s*|(?=\d{2}\s*$))(\d{2})\s*$/i.exec(text);
  if (!match) return null;
  const [hours, minutes] = [Number(match[1]), Number(match[2])];
  return hours <= 23 && minutes <= 59 ? `${pad(hours)}:${pad(minutes)}` : null;
}
