/**
 * The `/` shortcuts of the chat input (pure functions, tested): the box holding only `/` and a word opens the quick
 * message picker; the word filters the active quick messages; a send of a lone `/word` that names none is refused
 * (product-spec §5 "A quick message starting with / that has no match gives an error").
 */
import type { QuickMessageDto } from '@conversa/shared';

/** What follows `/` when the whole box is `/` and a word (no space yet); null otherwise. */
export function quickTrigger(text: string): string | null {
  const match = /^\/(\S*)$/.exec(text);
  return match ? (match[1] ?? '') : null;
}

/** Active quick messages whose key starts with the query first, then those whose key or text contains it. */
export function filterQuickReplies(list: readonly QuickMessageDto[], query: string, max = 50): QuickMessageDto[] {
  const q = query.toLowerCase();
  const active = list.filter((quick) => quick.isActive);
  const starts = active.filter((quick) => quick.key.toLowerCase().startsWith(q));
  const contains = active.filter(
    (quick) =>
      !quick.key.toLowerCase().startsWith(q) &&
      (quick.key.toLowerCase().includes(q) || quick.message.toLowerCase().includes(q)),
  );
  return [...starts, ...contains].slice(0, max);
}

/** The key of a lone `/word` send that matches no active quick message (the send is refused); null when fine. */
export function unmatchedShortcut(body: string, list: readonly QuickMessageDto[]): string | null {
  const match = /^\/(\S+)$/.exec(body.trim());
  if (!match) return null;
  const key = match[1]!.toLowerCase();
  return list.some((quick) => quick.isActive && quick.key.toLowerCase() === key) ? null : match[1]!;
}
