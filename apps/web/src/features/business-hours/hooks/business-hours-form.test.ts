import { describe, expect, it } from 'vitest';
import { DEFAULT_BUSINESS_HOURS, isWithinBusinessHours, type BusinessHoursDay } from '@conversa/shared';
import { i18next } from '../../../lib/i18n';
import {
  crossesMidnight,
  normalizeTime,
  validateWeek,
  valuesToWeek,
  weekToValues,
  type WeekValues,
} from './business-hours-form';

const t = i18next.t.bind(i18next);
const day = (n: number, patch: Partial<BusinessHoursDay> = {}): BusinessHoursDay => ({
  ...DEFAULT_BUSINESS_HOURS[n]!,
  ...patch,
});

describe('business hours form', () => {
  it('reads the week Sunday to Saturday, a missing day as the default, and hr3 = hr4 as no second interval', () => {
    const stored = [day(3, { type: 'H', hr3: '00:00', hr4: '00:00' }), day(1, { type: 'C' }), day(0)];
    const values = weekToValues(stored);
    expect(values.days.map((d) => d.day)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(values.days[1]!.type).toBe('C');
    expect(values.days[2]).toMatchObject({ type: 'O', hr3: '14:00', hr4: '18:00', label: 'Terça-feira' });
    expect(values.days[3]).toMatchObject({ type: 'H', hr1: '08:00', hr2: '12:00', hr3: '', hr4: '' });
  });

  it('reads typed times as HH:mm where they are times', () => {
    expect(['8:30', '0830', '830', '8', ' 23:59 ', '24:00', '12:60', 'abc', ''].map(normalizeTime)).toEqual([
      '08:30',
      '08:30',
      '08:30',
      '08:00',
      '23:59',
      '24:00',
      '12:60',
      'abc',
      '',
    ]);
  });

  it('says when an interval runs past midnight', () => {
    expect(crossesMidnight('22:00', '02:00')).toBe(true);
    expect(crossesMidnight('08:00', '12:00')).toBe(false);
    expect(crossesMidnight('22:00', '')).toBe(false);
  });

  it('checks only H days: both ends of the first interval, both or neither of the second, ends that differ', () => {
    const values: WeekValues = weekToValues([
      day(0, { type: 'C', hr1: 'x' }),
      day(1, { type: 'H', hr1: '', hr2: '25:00', hr3: '14:00', hr4: '18:00' }),
      day(2, { type: 'H', hr1: '08:00', hr2: '8:00', hr3: '14:00', hr4: '14:00' }),
      day(3, { type: 'H' }),
    ]);
    values.days[3]!.hr3 = '13:00';
    values.days[3]!.hr4 = '';
    values.days[4] = { ...values.days[4]!, type: 'H', hr3: '', hr4: '9' };
    values.days[5] = { ...values.days[5]!, type: 'H', hr3: '14:00', hr4: '1400' };
    expect(validateWeek(values, t)).toEqual({
      'days.1.hr1': 'Informe o horário.',
      'days.1.hr2': 'Use o formato HH:mm (24 horas), por exemplo 08:30.',
      'days.2.hr2': 'O fim precisa ser diferente do início.',
      'days.3.hr4': 'Preencha o início e o fim do segundo intervalo, ou deixe os dois em branco.',
      'days.4.hr3': 'Preencha o início e o fim do segundo intervalo, ou deixe os dois em branco.',
      'days.5.hr4': 'O fim precisa ser diferente do início.',
    });
  });

  it('sends the 7 days with their stored labels, an empty second interval as 00:00-00:00, typed times as HH:mm', () => {
    const values = weekToValues(DEFAULT_BUSINESS_HOURS);
    values.days[1] = { ...values.days[1]!, type: 'H', hr1: '8:00', hr2: '1200', hr3: '', hr4: '' };
    values.days[6] = { ...values.days[6]!, type: 'C', hr1: 'oops' };
    const week = valuesToWeek(values);
    expect(week).toHaveLength(7);
    expect(week[1]).toEqual({
      day: 1,
      label: 'Segunda-feira',
      type: 'H',
      hr1: '08:00',
      hr2: '12:00',
      hr3: '00:00',
      hr4: '00:00',
    });
    expect(week[6]).toEqual({ ...DEFAULT_BUSINESS_HOURS[6], type: 'C', hr1: '00:00' });
    // What the server then evaluates: Monday 12:30 is outside the one interval left.
    const monday = new Date('2026-01-05T12:30:00Z');
    expect(isWithinBusinessHours(week, 'UTC', monday)).toBe(false);
    expect(isWithinBusinessHours(week, 'UTC', new Date('2026-01-05T11:59:00Z'))).toBe(true);
  });
});
