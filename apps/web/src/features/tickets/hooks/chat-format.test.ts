import { describe, expect, it } from 'vitest';
import { whatsappStyles } from './chat-format';

describe("WhatsApp's text formatting", () => {
  it('draws bold, italic, strike-through and monospace without their marks', () => {
    expect(whatsappStyles('*Ana*:\nOlá, _tudo bem_? ~caro~ ```cod_igo*```')).toEqual([
      { text: 'Ana', bold: true },
      { text: ':\nOlá, ' },
      { text: 'tudo bem', italic: true },
      { text: '? ' },
      { text: 'caro', strike: true },
      { text: ' ' },
      { text: 'cod_igo*', mono: true },
    ]);
  });

  it('nests marks', () => {
    expect(whatsappStyles('*_ambos_* e _*ambos*_')).toEqual([
      { text: 'ambos', bold: true, italic: true },
      { text: ' e ' },
      { text: 'ambos', italic: true, bold: true },
    ]);
  });

  it('leaves marks inside words, around spaces, across lines or unpaired as they are', () => {
    for (const text of ['5*3*2', 'snake_case_name', '* não *', '*linha\noutra*', 'só *um', '**']) {
      expect(whatsappStyles(text)).toEqual([{ text }]);
    }
  });
});
