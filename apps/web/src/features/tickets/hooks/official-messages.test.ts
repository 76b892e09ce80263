import { describe, expect, it } from 'vitest';
import { messageFixture } from '../components/chat/chat-fixtures';
import { canForward, interactiveOptions, interactiveView, splitLabels } from './official-messages';

describe('official message kinds', () => {
  it('reads options from our payloads, Meta interactive objects and plain arrays; nothing from junk', () => {
    expect(interactiveOptions(JSON.stringify({ buttons: [{ id: 'a', title: 'Sim' }, { title: 'Não' }] }))).toEqual([
      { title: null, options: ['Sim', 'Não'] },
    ]);
    expect(
      interactiveOptions(JSON.stringify({ action: { buttons: [{ type: 'reply', reply: { id: '1', title: 'Ok' } }] } })),
    ).toEqual([{ title: null, options: ['Ok'] }]);
    expect(
      interactiveOptions(
        JSON.stringify({
          button: 'Ver',
          sections: [{ title: 'Planos', rows: [{ title: 'Básico' }, { title: 'Pro' }] }],
        }),
      ),
    ).toEqual([{ title: 'Planos', options: ['Básico', 'Pro'] }]);
    expect(interactiveOptions('["A","B"]')).toEqual([{ title: null, options: ['A', 'B'] }]);
    for (const junk of [null, '', 'not json', '42', '{"latitude":1}']) expect(interactiveOptions(junk)).toEqual([]);
  });

  it("splits the stored body's last paragraph of [labels] into chips", () => {
    expect(splitLabels('*Oferta*\n\nQuer continuar?\n\n[Sim] [Não]')).toEqual({
      text: '*Oferta*\n\nQuer continuar?',
      labels: ['Sim', 'Não'],
    });
    expect(splitLabels('Texto com [colchetes] no meio')).toEqual({ text: 'Texto com [colchetes] no meio', labels: [] });
    expect(interactiveView(messageFixture(1, { mediaType: 'list', body: 'Escolha\n\n[Ver planos]' }))).toEqual({
      text: 'Escolha',
      sections: [],
      listButton: 'Ver planos',
    });
  });

  it('hides forward for interactive kinds, choices and unsupported types only', () => {
    for (const mediaType of ['button', 'list', 'interactive', 'button_reply', 'unsupported'] as const)
      expect(canForward(messageFixture(1, { mediaType }))).toBe(false);
    for (const mediaType of ['chat', 'image', 'location'] as const)
      expect(canForward(messageFixture(1, { mediaType }))).toBe(true);
  });
});
