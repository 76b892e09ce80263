import { describe, expect, it } from 'vitest';
import {
  FORMAT_MAX_LINE_LENGTH,
  richTextParts,
  splitLinks,
  whatsappStyles,
  type FormatMeter,
  type StyledPart,
} from './whatsapp-format';

/**
 * The formatter this one replaced (a regular expression, quadratic on unmatched marks), kept here as the reference
 * of "the same output as before" on short texts, where its cost does not matter; with its one fix: the optional part
 * of a span's content is lazy (`??`, was `?`), so the nearest closing mark closes a one-character span.
 */
function formerWhatsappStyles(text: string, style: Omit<StyledPart, 'text'> = {}): StyledPart[] {
  const marks = { '*': 'bold', _: 'italic', '~': 'strike' } as const;
  const parts: StyledPart[] = [];
  const plain = (value: string) => {
    if (value) parts.push({ ...style, text: value });
  };
  let last = 0;
  const pattern = /```([^`]+?)```|([*_~])(\S(?:[^\n]*?\S)??)\2/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const start = match.index;
    const end = start + match[0].length;
    const before = text[start - 1];
    const after = text[end];
    if ((before && /[\p{L}\p{N}]/u.test(before)) || (after && /[\p{L}\p{N}]/u.test(after))) {
      pattern.lastIndex = start + 1;
      continue;
    }
    plain(text.slice(last, start));
    if (match[1] !== undefined) parts.push({ ...style, text: match[1], mono: true });
    else parts.push(...formerWhatsappStyles(match[3]!, { ...style, [marks[match[2] as keyof typeof marks]]: true }));
    last = end;
  }
  plain(text.slice(last));
  return parts;
}

/** A small deterministic generator (mulberry32): the same texts on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the linear WhatsApp formatter', () => {
  it('gives the former output on 20,000 random texts made of marks, words, spaces and line breaks', () => {
    const next = random(22);
    const alphabet = ['*', '_', '~', '`', '```', 'a', 'b', '5', 'é', ' ', '\n', '.', '\u00a0', '😀'];
    for (let run = 0; run < 20_000; run += 1) {
      const length = 1 + Math.floor(next() * 24);
      let text = '';
      for (let index = 0; index < length; index += 1) text += alphabet[Math.floor(next() * alphabet.length)];
      expect(whatsappStyles(text), JSON.stringify(text)).toEqual(formerWhatsappStyles(text));
    }
  });

  it('keeps the former readings of the cases that decide the rules', () => {
    const cases = [
      '*a*b*', // the nearest closing mark is followed by a letter: no span
      '~~~', // a single character between the marks: a struck "~"
      '*a*b c*', // a span rejected by its neighbour is not retried longer at the same mark
      'x *a* y _b_ ~c~ ```d```',
      '```a\nb``` e ```', // monospace crosses lines, marks do not
      '*_~all~_*',
      '(*ok*)',
      'a*b* *c*',
    ];
    for (const text of cases) expect(whatsappStyles(text), text).toEqual(formerWhatsappStyles(text));
    expect(whatsappStyles('*a*b*')).toEqual([{ text: '*a*b*' }]);
    expect(whatsappStyles('~~~')).toEqual([{ text: '~', strike: true }]);
  });

  it('closes a one-character span at its nearest mark (the former formatter read `~a~ e ~b~` as one span)', () => {
    expect(whatsappStyles('~a~ e ~b~')).toEqual([
      { text: 'a', strike: true },
      { text: ' e ' },
      { text: 'b', strike: true },
    ]);
  });

  it("reads the customer's 60,000-character `~a ` message as plain text in one pass", () => {
    const text = '~a '.repeat(20_000);
    expect(text).toHaveLength(60_000);
    // The former formatter scanned the rest of the line again from each of the 20,000 marks (28.5 s in a tab, past
    // vitest's 5 s limit here); this one looks at each character a fixed number of times.
    expect(whatsappStyles(text)).toEqual([{ text }]);
  });

  it('takes a number of steps proportional to the length, whatever the marks (counted, not timed)', () => {
    const stepsFor = (text: string) => {
      const meter: FormatMeter = { steps: 0 };
      whatsappStyles(text, {}, meter);
      return meter.steps;
    };
    // Unclosed marks, spans rejected by a neighbouring letter, nested spans, monospace openings without an end.
    for (const unit of ['~a ', '*a*b', '*_~a~_* ', '```a ', 'a_b_ ', '~ ~']) {
      const once = stepsFor(unit.repeat(2_000));
      const twice = stepsFor(unit.repeat(4_000));
      expect(once, unit).toBeLessThanOrEqual(10 * unit.length * 2_000);
      expect(twice, unit).toBeLessThanOrEqual(2 * once + 10);
    }
  });

  it('formats 63,000 characters of closed and unclosed marks, every span found', () => {
    const text = '~a~ *b '.repeat(9_000);
    const parts = whatsappStyles(text);
    const struck = parts.filter((part) => part.strike);
    expect(struck).toHaveLength(9_000);
    expect(parts.some((part) => part.bold)).toBe(false);
    expect(struck.every((part) => part.text === 'a')).toBe(true);
    expect(parts.map((part) => part.text).join('')).toBe(text.replaceAll('~', ''));
  });

  it('trims trailing punctuation from a link in one pass, also after 100,000 dots', () => {
    const dots = '.'.repeat(100_000);
    expect(splitLinks(`see https://example.com/a${dots}x`)).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: `https://example.com/a${dots}x`, href: `https://example.com/a${dots}x` },
    ]);
    expect(splitLinks(`https://example.com/a${dots}`)).toEqual([
      { kind: 'link', text: 'https://example.com/a', href: 'https://example.com/a' },
      { kind: 'text', text: dots },
    ]);
  });
});

describe('the formatting cut-off for long lines', () => {
  it(`formats a line of ${FORMAT_MAX_LINE_LENGTH} characters and shows a longer one as typed`, () => {
    const filler = (length: number) => 'x'.repeat(length - 6);
    const atLimit = `*b* ${filler(FORMAT_MAX_LINE_LENGTH)}  `;
    const pastLimit = `*b* ${filler(FORMAT_MAX_LINE_LENGTH + 1)}  `;
    expect(atLimit).toHaveLength(FORMAT_MAX_LINE_LENGTH);
    expect(richTextParts(atLimit)[0]).toEqual({ kind: 'text', text: 'b', bold: true });
    expect(richTextParts(pastLimit)).toEqual([{ kind: 'text', text: pastLimit }]);
  });

  it('keeps formatting the short lines around a long one, with no span reaching across it', () => {
    const long = 'y'.repeat(FORMAT_MAX_LINE_LENGTH + 1);
    const text = `*Ana*:\n\`\`\`a\n${long} https://example.com\nb\`\`\` _fim_`;
    expect(richTextParts(text)).toEqual([
      { kind: 'text', text: 'Ana', bold: true },
      { kind: 'text', text: ':\n```a\n' },
      { kind: 'text', text: `${long} ` },
      { kind: 'link', text: 'https://example.com', href: 'https://example.com' },
      { kind: 'text', text: '\nb``` ' },
      { kind: 'text', text: 'fim', italic: true },
    ]);
  });
});
