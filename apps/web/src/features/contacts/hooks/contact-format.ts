/** How contacts read on screen: numbers in the international form, Brazilian ones with area code and hyphen. */
import type { Locale } from '@conversa/shared';
import { LANGUAGE_TAGS } from '../../../lib/i18n';

/** `5511912345678` -> `+55 (11) 91234-5678`; other countries `+<digits>`; group ids as they are. */
export function formatContactNumber(number: string | null | undefined, isGroup = false): string {
  if (!number) return '';
  if (isGroup) return number;
  const digits = number.replace(/\D/g, '');
  if (!digits) return number;
  if (digits.startsWith('55') && (digits.length === 12 || digits.length === 13)) {
    const local = digits.slice(4);
    const split = local.length - 4;
    return `+55 (${digits.slice(2, 4)}) ${local.slice(0, split)}-${local.slice(split)}`;
  }
  return `+${digits}`;
}

/** The list total; a count the server stopped at reads `10.000+` (in the interface language's grouping). */
export function formatContactCount(count: number, capped: boolean, locale: Locale): string {
  const text = new Intl.NumberFormat(LANGUAGE_TAGS[locale], { maximumFractionDigits: 0 }).format(count);
  return capped ? `${text}+` : text;
}

/** Up to two initials for the avatar when there is no picture. */
export function contactInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0]];
  return letters
    .map((word) => (word ? Array.from(word)[0] : ''))
    .join('')
    .toUpperCase();
}
