/**
 * Mentions in a group chat: the `@` being typed before the caret, the participants it matches, the text once one is
 * chosen (`@<number>`, how WhatsApp writes a mention), and the numbers a text mentions when it is sent.
 */
import type { GroupParticipant } from '../api/list-participants';

export interface MentionTrigger {
  /** Index of the `@`. */
  start: number;
  /** What follows it up to the caret. */
  query: string;
}

/** The `@word` ending at the caret (at the start or after a space), or null. */
export function mentionTriggerAt(text: string, caret: number): MentionTrigger | null {
  const match = /(^|\s)@([^\s@]{0,40})$/.exec(text.slice(0, caret));
  if (!match) return null;
  const query = match[2] ?? '';
  return { start: caret - query.length - 1, query };
}

const fold = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** Participants whose name or number contains the query (accents and case aside), names first in their order. */
export function filterParticipants(participants: GroupParticipant[], query: string): GroupParticipant[] {
  const wanted = fold(query.trim());
  if (!wanted) return participants;
  const digits = wanted.replace(/\D/g, '');
  return participants.filter(
    (p) => (p.name !== null && fold(p.name).includes(wanted)) || (digits.length > 0 && p.number.includes(digits)),
  );
}

/** The text with the trigger replaced by `@<number> `, and where the caret goes. */
export function insertMention(
  text: string,
  trigger: MentionTrigger,
  number: string,
  caret: number,
): { text: string; caret: number } {
  const mention = `@${number} `;
  const rest = text.slice(caret).replace(/^ /, '');
  return { text: text.slice(0, trigger.start) + mention + rest, caret: trigger.start + mention.length };
}

/** The participants' numbers a text mentions (`@<number>`), once each, in order of appearance. */
export function mentionedNumbers(text: string, participants: readonly GroupParticipant[]): string[] {
  const known = new Set(participants.map((p) => p.number));
  const found: string[] = [];
  for (const match of text.matchAll(/@(\d{5,20})(?!\d)/g)) {
    const number = match[1] ?? '';
    if (known.has(number) && !found.includes(number)) found.push(number);
  }
  return found;
}
