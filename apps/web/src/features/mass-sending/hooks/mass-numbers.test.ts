/** What counts as a number (8-15 digits once spaces, dashes, parentheses and a leading + go), and the lines' reading. */
import { describe, expect, it } from 'vitest';
import { highestColumnUsed, insertAt, normalizeNumber, parseNumbers, parseVariableLines } from './mass-numbers';

describe('mass-sending numbers', () => {
  it('normalizes a typed number and refuses what is not 8 to 15 digits', () => {
    expect(normalizeNumber('+55 (11) 99999-0000')).toBe('5511999990000');
    expect(normalizeNumber('12345678')).toBe('12345678');
    expect(normalizeNumber('1234567')).toBeNull();
    expect(normalizeNumber('1234567890123456')).toBeNull();
    expect(normalizeNumber('55 11 9999x0000')).toBeNull();
    expect(normalizeNumber('++5511999990000')).toBeNull();
  });

  it('splits on lines, commas and semicolons, keeps distinct numbers in order and lists the rest', () => {
    const parsed = parseNumbers('+55 11 99999-0000\n5511999990000; 5521988887777,abc\r\n\n  ;1234');
    expect(parsed.numbers).toEqual(['5511999990000', '5521988887777']);
    expect(parsed.invalid).toEqual(['abc', '1234']);
  });

  it('reads the variable lines: blank lines skipped, the first bad line by its number as typed, the most columns', () => {
    const parsed = parseVariableLines('5511999990000,Maria,15/12\n\n abc,João \n5521988887777,Pedro,20/12,Loja\nxyz');
    expect(parsed.lines).toEqual(['5511999990000,Maria,15/12', 'abc,João', '5521988887777,Pedro,20/12,Loja', 'xyz']);
    expect(parsed).toMatchObject({ valid: 2, firstInvalidLine: 3, invalidCount: 2, columns: 3 });
  });

  it('finds the highest {{varN}} and inserts at the cursor, replacing a selection', () => {
    expect(highestColumnUsed('Oi {{var1}}, {{ var3 }} e {{name}}')).toBe(3);
    expect(highestColumnUsed('Oi {{name}}')).toBe(0);
    expect(insertAt('Olá !', '{{var1}}', 4)).toEqual({ value: 'Olá {{var1}}!', caret: 12 });
    expect(insertAt('Olá XX!', '{{name}}', 4, 6)).toEqual({ value: 'Olá {{name}}!', caret: 12 });
  });
});
