import { describe, expect, it } from 'vitest';
import type { QuickMessageDto } from '@conversa/shared';
import { filterQuickReplies, quickTrigger, unmatchedShortcut } from './quick-replies';

const quick = (id: number, key: string, message: string, extra: Partial<QuickMessageDto> = {}): QuickMessageDto => ({
  id,
  key,
  message,
  media: null,
  voice: 'disabled',
  mediaType: null,
  mediaUrl: null,
  isActive: true,
  ...extra,
});
const LIST = [
  quick(1, 'ola', 'Olá, {{name}}!'),
  quick(2, 'prazo', 'Entregamos em 3 dias'),
  quick(3, 'Olhar', 'Vou olhar seu pedido'),
  quick(4, 'velho', 'ola antigo', { isActive: false }),
  quick(5, 'pix', 'Nossa chave: ola@loja'),
];

describe('quickTrigger', () => {
  it('opens only while the box is / and one word', () => {
    expect(quickTrigger('/')).toBe('');
    expect(quickTrigger('/ol')).toBe('ol');
    expect(quickTrigger('/ol a')).toBeNull();
    expect(quickTrigger(' /ol')).toBeNull();
    expect(quickTrigger('oi /ol')).toBeNull();
  });
});

describe('filterQuickReplies', () => {
  it('lists active keys starting with the query first, then keys or texts containing it', () => {
    expect(filterQuickReplies(LIST, 'ol').map((q) => q.key)).toEqual(['ola', 'Olhar', 'pix']);
    expect(filterQuickReplies(LIST, '').map((q) => q.key)).toEqual(['ola', 'prazo', 'Olhar', 'pix']);
    expect(filterQuickReplies(LIST, 'zzz')).toEqual([]);
    expect(filterQuickReplies(LIST, '', 2)).toHaveLength(2);
  });
});

describe('unmatchedShortcut', () => {
  it('names a lone /word matching no active key, whatever the case; other text passes', () => {
    expect(unmatchedShortcut('/xyz', LIST)).toBe('xyz');
    expect(unmatchedShortcut(' /velho ', LIST)).toBe('velho');
    expect(unmatchedShortcut('/OLA', LIST)).toBeNull();
    expect(unmatchedShortcut('/xyz e mais', LIST)).toBeNull();
    expect(unmatchedShortcut('oi', LIST)).toBeNull();
  });
});
