import { describe, expect, it } from 'vitest';
import { formatScheduleDate, fromDateInputs, shortcutDate, toDateInputs } from './schedules';

describe('schedule shortcuts (product-spec §9)', () => {
  const now = new Date(2026, 10, 26, 15, 17, 42); // Thu 26/11/2026 15:17:42, browser clock

  it('in 30 minutes: the minute above now + 30 min', () => {
    expect(shortcutDate('in30', now)).toEqual(new Date(2026, 10, 26, 15, 48, 0));
    expect(shortcutDate('in30', new Date(2026, 10, 26, 15, 17, 0))).toEqual(new Date(2026, 10, 26, 15, 47, 0));
  });

  it('tomorrow and next week at 09:00, across a month end', () => {
    expect(shortcutDate('tomorrow', now)).toEqual(new Date(2026, 10, 27, 9, 0, 0));
    expect(shortcutDate('nextWeek', now)).toEqual(new Date(2026, 11, 3, 9, 0, 0));
    expect(shortcutDate('tomorrow', new Date(2026, 11, 31, 23, 50))).toEqual(new Date(2027, 0, 1, 9, 0, 0));
  });

  it('in 30 minutes late at night rolls to the next day', () => {
    expect(shortcutDate('in30', new Date(2026, 11, 31, 23, 45, 10))).toEqual(new Date(2027, 0, 1, 0, 16, 0));
  });
});

describe('form date inputs', () => {
  it('round-trips a date through the date and time inputs', () => {
    const date = new Date(2026, 1, 3, 7, 5);
    expect(toDateInputs(date)).toEqual({ day: '2026-02-03', time: '07:05' });
    expect(fromDateInputs('2026-02-03', '07:05')).toEqual(date);
  });

  it('refuses incomplete or impossible values', () => {
    for (const [day, time] of [
      ['', '09:00'],
      ['2026-02-03', ''],
      ['2026-02-30', '09:00'],
      ['2026-02-03', '25:00'],
      ['03/02/2026', '09:00'],
    ]) {
      expect(fromDateInputs(day!, time!), `${day} ${time}`).toBeNull();
    }
  });

  it('shows dates as dd/MM/yyyy HH:mm:ss (product-spec §1)', () => {
    expect(formatScheduleDate(new Date(2026, 11, 1, 9, 0).toISOString())).toBe('01/12/2026 09:00:00');
  });
});
