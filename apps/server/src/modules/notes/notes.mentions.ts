/**
 * `@name` mentions in a note's text: a user of the tenant is mentioned when `@` + their name (any case) stands in
 * the text and is not followed by a letter or digit ("@Ana" does not mention "Ana" in "@Anabela"). Longer names are
 * matched first and their text is taken, so "@Ana Paula" mentions Ana Paula and not also Ana.
 */
const WORD_CHAR = /[\p{L}\p{N}_]/u;

export function findMentionedUserIds(text: string, candidates: { id: number; name: string }[]): number[] {
  const lower = text.toLocaleLowerCase();
  const taken: boolean[] = new Array<boolean>(text.length).fill(false);
  const found = new Set<number>();
  const byLength = [...candidates]
    .filter((c) => c.name.trim().length > 0)
    .sort((a, b) => b.name.trim().length - a.name.trim().length);
  for (const candidate of byLength) {
    const needle = `@${candidate.name.trim().toLocaleLowerCase()}`;
    for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + 1)) {
      const end = at + needle.length;
      if (taken[at] || WORD_CHAR.test(lower[end] ?? '')) continue;
      for (let i = at; i < end; i++) taken[i] = true;
      found.add(candidate.id);
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** The notification's excerpt of a note: one line, at most 120 characters. */
export function noteExcerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}
