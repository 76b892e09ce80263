import { describe, expect, it } from 'vitest';
import {
  addDaysOnWallClock,
  fromWallClock,
  parseScheduleDate,
  signBody,
  signsMessages,
  toWallClock,
} from './schedules.js';

describe('wall clock in a timezone', () => {
  it.each([
    ['2026-12-01 09:00', 'America/Sao_Paulo', '2026-12-01T12:00:00.000Z'],
    ['2026-07-01 09:00', 'Europe/Lisbon', '2026-07-01T08:00:00.000Z'],
    ['2026-01-01 09:00', 'Europe/Lisbon', '2026-01-01T09:00:00.000Z'],
    ['2026-03-29 12:30', 'America/New_York', '2026-03-29T16:30:00.000Z'],
    ['2026-02-28 23:59', 'UTC', '2026-02-28T23:59:00.000Z'],
  ])('%s in %s is %s', (local, zone, instant) => {
    expect(fromWallClock(local, zone)?.toISOString()).toBe(instant);
    expect(toWallClock(new Date(instant), zone)).toBe(local);
  });

  it('refuses dates that do not exist', () => {
    for (const text of ['2026-02-30 09:00', '2026-13-01 09:00', '2026-01-01 24:00', '2026-01-01 09:60', 'amanhã']) {
      expect(fromWallClock(text, 'America/Sao_Paulo'), text).toBeNull();
    }
  });

  it('reads an ISO instant as it is and a wall clock in the zone', () => {
    expect(parseScheduleDate('2026-12-01T09:00:00Z', 'America/Sao_Paulo')?.toISOString()).toBe(
      '2026-12-01T09:00:00.000Z',
    );
    expect(parseScheduleDate('2026-12-01T09:00-03:00', 'UTC')?.toISOString()).toBe('2026-12-01T12:00:00.000Z');
    expect(parseScheduleDate('2026-12-01 09:00', 'America/Sao_Paulo')?.toISOString()).toBe('2026-12-01T12:00:00.000Z');
  });

  it('adds days keeping the wall-clock time across a DST change', () => {
    // Lisbon moves from +00:00 to +01:00 on 2026-03-29: 09:00 stays 09:00.
    const start = fromWallClock('2026-03-25 09:00', 'Europe/Lisbon')!;
    expect(toWallClock(addDaysOnWallClock(start, 5, 'Europe/Lisbon'), 'Europe/Lisbon')).toBe('2026-03-30 09:00');
    expect(addDaysOnWallClock(start, 5, 'Europe/Lisbon').toISOString()).toBe('2026-03-30T08:00:00.000Z');
  });
});

describe('signature rule', () => {
  it.each([
    // user switch, signed, userDisableSignature, agentSignature -> signs
    [undefined, 'disabled', 'disabled', 'enabled', false],
    [false, 'disabled', 'disabled', 'enabled', false],
    [true, 'disabled', 'disabled', 'enabled', true],
    [undefined, 'enabled', 'disabled', 'enabled', true],
    [false, 'enabled', 'disabled', 'enabled', true],
    [false, 'disabled', 'enabled', 'enabled', true],
    [true, 'enabled', 'enabled', 'enabled', true],
    [true, 'disabled', 'disabled', 'disabled', false],
    [undefined, 'enabled', 'disabled', 'disabled', false],
  ] as const)(
    'user %s, signed %s, userDisableSignature %s, agentSignature %s -> %s',
    (userSignature, signed, disable, agent, expected) => {
      expect(
        signsMessages({
          userSignature,
          signedSetting: signed,
          userDisableSignatureSetting: disable,
          agentSignatureSetting: agent,
        }),
      ).toBe(expected);
    },
  );

  it('prefixes once', () => {
    expect(signBody('Olá', 'Ana')).toBe('*Ana*:\n Olá');
    expect(signBody('*Ana*:\n Olá', 'Ana')).toBe('*Ana*:\n Olá');
    expect(signBody('*Bia*:\n Olá', 'Ana')).toBe('*Ana*:\n *Bia*:\n Olá');
    expect(signBody('Olá', ' ')).toBe('Olá');
  });
});
