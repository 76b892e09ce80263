/**
 * The business-hours form (client-contract §15, product-spec §4 "Business hours day type"): the stored week to form
 * values, their checks, and the bare array PUT /tenants/business-hours/ takes.
 *
 * An H day has one or two intervals. The server (isWithinBusinessHours) reads an interval whose start equals its end
 * as none, so an empty second interval is sent as hr3 = hr4 = '00:00' and a stored hr3 = hr4 is shown empty. An
 * interval whose end comes before its start runs past midnight into the next day.
 */
import type { TFunction } from 'i18next';
import { DEFAULT_BUSINESS_HOURS, type BusinessHoursDay } from '@conversa/shared';

export type DayType = BusinessHoursDay['type'];
export const DAY_TYPES: readonly DayType[] = ['O', 'C', 'H'];

/** One weekday as the form edits it: times as typed ('' for an empty field). */
export interface DayValues {
  day: number;
  /** The stored (Portuguese) label, sent back unchanged; the screen shows a translated weekday instead. */
  label: string;
  type: DayType;
  hr1: string;
  hr2: string;
  hr3: string;
  hr4: string;
}

export interface WeekValues {
  days: DayValues[];
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** The time meaning "no second interval" (start = end). */
const NO_INTERVAL = '00:00';

/** A typed time as HH:mm when it reads as one ("8:30", "0830", "830", "8" become 08:30, 08:30, 08:30, 08:00). */
export function normalizeTime(text: string): string {
  const value = text.trim();
  const match = /^(\d{1,2})(?::?(\d{2}))?$/.exec(value);
  if (!match) return value;
  const hours = Number(match[1]);
  const minutes = Number(match[2] ?? '0');
  if (hours > 23 || minutes > 59) return value;
  return `${String(hours).padStart(2, '0')}:${String(minutes).padStart(2, '0')}`;
}

export const isTime = (text: string): boolean => TIME.test(text);

/** The interval runs past midnight: both ends are times and the end comes before the start. */
export const crossesMidnight = (start: string, end: string): boolean => isTime(start) && isTime(end) && end < start;

/** The stored week, Sunday to Saturday (a missing day takes the default), as form values. */
export function weekToValues(stored: readonly BusinessHoursDay[]): WeekValues {
  const days = DEFAULT_BUSINESS_HOURS.map((fallback) => {
    const day = stored.find((item) => item.day === fallback.day) ?? fallback;
    const second = day.hr3 === day.hr4 ? { hr3: '', hr4: '' } : { hr3: day.hr3, hr4: day.hr4 };
    return { day: fallback.day, label: day.label, type: day.type, hr1: day.hr1, hr2: day.hr2, ...second };
  });
  return { days };
}

/** Errors by form path (`days.<index>.hr1`): only H days have times to check. */
export function validateWeek(values: WeekValues, t: TFunction): Record<string, string> {
  const errors: Record<string, string> = {};
  values.days.forEach((day, index) => {
    if (day.type !== 'H') return;
    const path = (field: 'hr1' | 'hr2' | 'hr3' | 'hr4') => `days.${index}.${field}`;
    const check = (field: 'hr1' | 'hr2' | 'hr3' | 'hr4'): boolean => {
      const value = normalizeTime(day[field]);
      if (!value) errors[path(field)] = t('businessHours.errors.required');
      else if (!isTime(value)) errors[path(field)] = t('businessHours.errors.format');
      else return true;
      return false;
    };
    // Both ends are checked (no short-circuit), so every empty or malformed field shows its message at once.
    const firstOk = [check('hr1'), check('hr2')].every(Boolean);
    if (firstOk && normalizeTime(day.hr1) === normalizeTime(day.hr2)) {
      errors[path('hr2')] = t('businessHours.errors.sameTime');
    }
    const hr3 = day.hr3.trim();
    const hr4 = day.hr4.trim();
    if (!hr3 && !hr4) return;
    if (!hr3 || !hr4) {
      errors[path(hr3 ? 'hr4' : 'hr3')] = t('businessHours.errors.secondIncomplete');
      return;
    }
    const secondOk = [check('hr3'), check('hr4')].every(Boolean);
    if (secondOk && normalizeTime(hr3) === normalizeTime(hr4)) {
      errors[path('hr4')] = t('businessHours.errors.sameTime');
    }
  });
  return errors;
}

const timeOr = (text: string, fallback: string) => {
  const value = normalizeTime(text);
  return isTime(value) ? value : fallback;
};

/**
 * The PUT body: each day with its stored label. H days send their intervals (an empty second one as 00:00-00:00);
 * O and C days keep their times where they read as times (the server requires HH:mm in every field).
 */
export function valuesToWeek(values: WeekValues): BusinessHoursDay[] {
  return values.days.map((day) => {
    const hr3 = timeOr(day.hr3, NO_INTERVAL);
    const hr4 = timeOr(day.hr4, NO_INTERVAL);
    const noSecond = day.type === 'H' && (!day.hr3.trim() || !day.hr4.trim());
    return {
      day: day.day,
      label: day.label,
      type: day.type,
      hr1: timeOr(day.hr1, NO_INTERVAL),
      hr2: timeOr(day.hr2, NO_INTERVAL),
      hr3: noSecond ? NO_INTERVAL : hr3,
      hr4: noSecond ? NO_INTERVAL : hr4,
    };
  });
}
