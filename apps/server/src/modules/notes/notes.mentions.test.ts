import { describe, expect, it } from 'vitest';
import { findMentionedUserIds, noteExcerpt } from './notes.mentions.js';

const users = [
  { id: 1, name: 'Ana' },
  { id: 2, name: 'Ana Paula' },
  { id: 3, name: 'Bruno' },
  { id: 4, name: 'José' },
];

describe('findMentionedUserIds', () => {
  it('finds names with spaces, any case, and prefers the longest name at a position', () => {
    expect(findMentionedUserIds('Oi @ana paula, tudo bem?', users)).toEqual([2]);
    expect(findMentionedUserIds('@Ana e @Ana Paula', users)).toEqual([1, 2]);
    expect(findMentionedUserIds('@JOSÉ!', users)).toEqual([4]);
  });

  it('needs the @ and a word end after the name', () => {
    expect(findMentionedUserIds('Ana e Bruno', users)).toEqual([]);
    expect(findMentionedUserIds('@Anabela e @Brunos', users)).toEqual([]);
    expect(findMentionedUserIds('email@bruno.com', users)).toEqual([3]);
  });

  it('cuts the excerpt to one line of 120 characters', () => {
    expect(noteExcerpt('a\n\n b')).toBe('a b');
    expect(noteExcerpt('x'.repeat(200))).toHaveLength(120);
  });
});
