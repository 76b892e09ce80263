import { describe, expect, it } from 'vitest';
import { filterParticipants, insertMention, mentionedNumbers, mentionTriggerAt } from './chat-mentions';

const people = [
  { number: '5511911110000', name: 'Bruno Lima' },
  { number: '5511922220000', name: 'Cárla Dias' },
  { number: '5511933330000', name: null },
];

describe('chat mentions', () => {
  it('finds the @word ending at the caret, at the start or after a space only', () => {
    expect(mentionTriggerAt('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionTriggerAt('Oi @car', 7)).toEqual({ start: 3, query: 'car' });
    expect(mentionTriggerAt('Oi @car tudo', 7)).toEqual({ start: 3, query: 'car' });
    expect(mentionTriggerAt('Oi @car tudo', 12)).toBeNull();
    expect(mentionTriggerAt('ana@mail', 8)).toBeNull();
  });

  it('filters by name (accents and case aside) or by digits', () => {
    expect(filterParticipants(people, 'CARLA').map((p) => p.number)).toEqual(['5511922220000']);
    expect(filterParticipants(people, '3333').map((p) => p.number)).toEqual(['5511933330000']);
    expect(filterParticipants(people, '')).toHaveLength(3);
  });

  it('replaces the trigger with @number and a space, caret after it', () => {
    expect(insertMention('Oi @car tudo', { start: 3, query: 'car' }, '5511922220000', 7)).toEqual({
      text: 'Oi @5511922220000 tudo',
      caret: 18,
    });
  });

  it('lists the known numbers a text mentions, once each', () => {
    expect(mentionedNumbers('@5511922220000 e @5511911110000 e @5511922220000 e @5599999999999', people)).toEqual([
      '5511922220000',
      '5511911110000',
    ]);
    expect(mentionedNumbers('@55119222200001', people)).toEqual([]);
  });
});
