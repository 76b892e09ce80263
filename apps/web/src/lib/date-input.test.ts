import { describe, expect, it } from 'vitest';
import { dateInputFormat, parseDateInput } from './date-input';

describe('typed dates', () => {
  it('reads day first everywhere but American English', () => {
    expect(dateInputFormat('pt')).toBe('DD/MM/YYYY');
    expect(dateInputFormat('es')).toBe('DD/MM/YYYY');
    expect(dateInputFormat('en-gb')).toBe('DD/MM/YYYY');
    expect(dateInputFormat('en-us')).toBe('MM/DD/YYYY');
    expect(parseDateInput('31/12/1990', 'pt-br')).toBe('1990-12-31');
    expect(parseDateInput('1.2.1980', 'de')).toBe('1980-02-01');
    expect(parseDateInput('12/31/1990', 'en-us')).toBe('1990-12-31');
  });

  it('refuses impossible dates', () => {
    expect(parseDateInput('31/02/1990', 'pt')).toBeNull();
    expect(parseDateInput('12/31/1990', 'pt')).toBeNull();
    expect(parseDateInput('1990-12-31', 'pt')).toBeNull();
    expect(parseDateInput('01/01/1800', 'pt')).toBeNull();
  });
});
