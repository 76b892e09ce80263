/** How contacts read on screen: counts and initials (numbers: lib/contact-form.ts formatContactNumber). */
import type { Locale } from '@conversa/shared';
import { LANGUAGE_TAGS } from '../../../lib/i18n';

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
