import { describe, expect, it } from 'vitest';
import { isWithinBusinessHours, wallClock, type BusinessHoursDay } from './tenant-preferences.js';

/** A week closed every day but the ones given. 2026-03-02 is a Monday. */
function week(days: Partial<Record<number, Partial<BusinessHoursDay>>>): BusinessHoursDay[] {
  return [0, 1, 2, 3, 4, 5, 6].map((day) => ({
    day,
    label: String(day),
    type: 'C',
    hr1: '08:00',
    hr2: '12:00',
    hr3: '14:00',
    hr4: '18:00',
    ...days[day],
  }));
}

const mondayHours = week({ 1: { type: 'H' } });
const open = (days: BusinessHoursDay[], zone: string, iso: string) => isWithinBusinessHours(days, zone, new Date(iso));

describe('isWithinBusinessHours at the boundaries of an H day', () => {
  it.each([
    // São Paulo is UTC-3: Monday 07:59 local is 10:59Z.
    ['America/Sao_Paulo', '2026-03-02T10:59:00Z', '07:59', false],
    ['America/Sao_Paulo', '2026-03-02T11:00:00Z', '08:00', true],
    ['America/Sao_Paulo', '2026-03-02T14:59:00Z', '11:59', true],
    ['America/Sao_Paulo', '2026-03-02T15:00:00Z', '12:00', false],
    ['America/Sao_Paulo', '2026-03-02T17:00:00Z', '14:00', true],
    ['America/Sao_Paulo', '2026-03-02T21:00:00Z', '18:00', false],
    // Tokyo is UTC+9: Monday 08:00 local is Sunday 23:00Z.
    ['Asia/Tokyo', '2026-03-01T22:59:00Z', '07:59', false],
    ['Asia/Tokyo', '2026-03-01T23:00:00Z', '08:00', true],
    ['Asia/Tokyo', '2026-03-02T02:59:00Z', '11:59', true],
    ['Asia/Tokyo', '2026-03-02T03:00:00Z', '12:00', false],
  ])('%s %s (Monday %s local): open %s', (zone, iso, local, expected) => {
    const at = new Date(iso);
    const clock = wallClock(at, zone);
    expect(clock.day).toBe(1);
    expect(
      `${String(Math.floor(clock.minute / 60)).padStart(2, '0')}:${String(clock.minute % 60).padStart(2, '0')}`,
    ).toBe(local);
    expect(isWithinBusinessHours(mondayHours, zone, at)).toBe(expected);
  });

  it('the same instant is open in one time zone and closed in the other', () => {
    expect(open(mondayHours, 'America/Sao_Paulo', '2026-03-02T11:00:00Z')).toBe(true);
    expect(open(mondayHours, 'Asia/Tokyo', '2026-03-02T11:00:00Z')).toBe(false);
  });

  it('one interval when hr3 equals hr4', () => {
    const morning = week({ 1: { type: 'H', hr3: '00:00', hr4: '00:00' } });
    expect(open(morning, 'UTC', '2026-03-02T09:00:00Z')).toBe(true);
    expect(open(morning, 'UTC', '2026-03-02T15:00:00Z')).toBe(false);
  });
});

describe('an interval across midnight (22:00-02:00 on Monday, Tuesday closed)', () => {
  const night = week({ 1: { type: 'H', hr1: '22:00', hr2: '02:00', hr3: '00:00', hr4: '00:00' } });

  it.each([
    ['Monday 21:59', '2026-03-03T00:59:00Z', false],
    ['Monday 23:30', '2026-03-03T02:30:00Z', true],
    ['Tuesday 01:59 (the rest of Monday night)', '2026-03-03T04:59:00Z', true],
    ['Tuesday 02:00', '2026-03-03T05:00:00Z', false],
    ['Monday 01:00 (Sunday is closed)', '2026-03-02T04:00:00Z', false],
  ])('%s in São Paulo: open %s', (_label, iso, expected) => {
    expect(open(night, 'America/Sao_Paulo', iso)).toBe(expected);
  });
});

describe('O and C days', () => {
  const days = week({ 0: { type: 'O' }, 6: { type: 'C' } });

  it('O is open all day, C closed all day, whatever the hours say', () => {
    expect(open(days, 'America/Sao_Paulo', '2026-03-01T03:00:00Z')).toBe(true); // Sunday 00:00
    expect(open(days, 'America/Sao_Paulo', '2026-03-02T02:59:00Z')).toBe(true); // Sunday 23:59
    expect(open(days, 'America/Sao_Paulo', '2026-02-28T13:00:00Z')).toBe(false); // Saturday 10:00
    expect(open(days, 'America/Sao_Paulo', '2026-03-02T03:00:00Z')).toBe(false); // Monday 00:00: closed (C)
  });
});
