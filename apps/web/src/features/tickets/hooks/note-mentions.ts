/**
 * `@name` mentions of the tenant's users in a note (the server notifies each mentioned user): the users a typed
 * `@query` matches, and the text once one is chosen (`@<full name> `, which is what the server looks for).
 */
import type { MentionTrigger } from './chat-mentions';

export interface MentionUser {
  id: number;
  name: string;
}

const fold = (value: string) =>
  value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** Users whose name contains the query (accents and case aside); names starting with it first. */
export function filterMentionUsers(users: MentionUser[], query: string): MentionUser[] {
  const wanted = fold(query.trim());
  const matching = wanted ? users.filter((u) => fold(u.name).includes(wanted)) : [...users];
  const starts = (u: MentionUser) => (fold(u.name).startsWith(wanted) ? 0 : 1);
  return matching.sort((a, b) => starts(a) - starts(b) || a.name.localeCompare(b.name));
}

/** The text with the trigger replaced by `@<name> `, and where the caret goes. */
export function insertUserMention(
  text: string,
  trigger: MentionTrigger,
  name: string,
  caret: number,
): { text: string; caret: number } {
  const inserted = `@${name} `;
  const after = text.slice(caret).replace(/^\s/, '');
  return { text: text.slice(0, trigger.start) + inserted + after, caret: trigger.start + inserted.length };
}

/** The text split into plain parts and the mentions of known users, for display. */
export function splitMentions(text: string, users: { name: string }[]): { text: string; mention: boolean }[] {
  const names = users
    .map((u) => u.name.trim())
    .filter(Boolean)
    .sort((a, b) => b.length - a.length);
  if (names.length === 0) return [{ text, mention: false }];
  const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`@(?:${escaped.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
  const parts: { text: string; mention: boolean }[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index), mention: false });
    parts.push({ text: match[0], mention: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), mention: false });
  return parts;
}
