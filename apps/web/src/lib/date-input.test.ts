import { describe, expect, it } from 'vitest';
import { dateInputFormat, parseDateInput, parseDayInput, parseTimeInput } from './date-input';

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

describe('picked date-times (schedules): dd/MM/yyyy and 24 h in every language', () => {
  it('reads the day first, also for American English users', () => {
    expect(parseDayInput('01/12/2026')).toBe('2026-12-01');
    expect(parseDayInput('1.12.2026')).toBe('2026-12-01');
    expect(parseDayInput('31/02/2026')).toBeNull();
    expect(parseDayInput('12/31/2026')).toBeNull();
  });

  it('reads 24-hour times and refuses 12-hour ones', () => {
    expect(parseTimeInput('19:12')).toBe('19:12');
    expect(parseTimeInput('9:05')).toBe('09:05');
    expect(parseTimeInput('9h05')).toBe('09:05');
    expect(parseTimeInput('0905')).toBe('09:05');
    expect(parseTimeInput('24:00')).toBeNull();
    expect(parseTimeInput('12:60')).toBeNull();
    expect(parseTimeInput('7:12 PM')).toBeNull();
    expect(parseTimeInput('')).toBeNull();
  });
});
