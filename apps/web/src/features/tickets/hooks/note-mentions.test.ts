import { describe, expect, it } from 'vitest';
import { filterMentionUsers, insertUserMention, splitMentions } from './note-mentions';

const users = [
  { id: 1, name: 'Ana' },
  { id: 2, name: 'Ana Paula' },
  { id: 3, name: 'Joana' },
  { id: 4, name: 'José' },
];

describe('note mentions', () => {
  it('filters by any part of the name, accents and case aside, names starting with it first', () => {
    expect(filterMentionUsers(users, 'an').map((u) => u.id)).toEqual([1, 2, 3]);
    expect(filterMentionUsers(users, 'JOSE').map((u) => u.id)).toEqual([4]);
    expect(filterMentionUsers(users, '').map((u) => u.id)).toEqual([1, 2, 3, 4]);
  });

  it('replaces the typed @query by the whole name and a space', () => {
    const text = 'Olá @an tudo bem';
    expect(insertUserMention(text, { start: 4, query: 'an' }, 'Ana Paula', 7)).toEqual({
      text: 'Olá @Ana Paula tudo bem',
      caret: 15,
    });
  });

  it('splits the text at mentions of known users (the longest name wins)', () => {
    expect(splitMentions('Para @ana paula e @Joana!', users)).toEqual([
      { text: 'Para ', mention: false },
      { text: '@ana paula', mention: true },
      { text: ' e ', mention: false },
      { text: '@Joana', mention: true },
      { text: '!', mention: false },
    ]);
    expect(splitMentions('e-mail a@anabela.com', users)).toEqual([{ text: 'e-mail a@anabela.com', mention: false }]);
  });
});
