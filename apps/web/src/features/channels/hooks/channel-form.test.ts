/** The channel form's rules for QR types that the modal tests do not reach: import dates and type-specific fields. */
import { describe, expect, it } from 'vitest';
import { i18next } from '../../../lib/i18n';
import { channelFixture } from '../../../test/channels';
import { channelToValues, evoInstanceName, validateChannel, valuesToInput } from './channel-form';

const t = i18next.t.bind(i18next);
const QR = ['baileys', 'whatsapp', 'evo', 'meow', 'telegram'] as const;

describe('channel form rules for QR types', () => {
  it('strips everything but letters and digits from the Evolution instance name', () => {
    expect(evoInstanceName(' Loja-Centro_2 ção! ')).toBe('LojaCentro2o');
  });

  it('sends the import days as the start of the first and the end of the last day; refuses an end before the start', () => {
    const values = { ...channelToValues(undefined, QR), name: 'Zap' };
    values.importOldMessages = '2025-03-10';
    values.importRecentMessages = '2025-03-01';
    expect(validateChannel(values, undefined, t, QR)).toEqual({
      importRecentMessages: 'A data final deve ser igual ou posterior à inicial.',
    });
    values.importRecentMessages = '2025-03-12';
    values.queueIdImportMessages = '3';
    expect(validateChannel(values, undefined, t, QR)).toEqual({});
    const input = valuesToInput(values);
    const start = new Date(String(input.importOldMessages));
    const end = new Date(String(input.importRecentMessages));
    expect([start.getFullYear(), start.getMonth(), start.getDate(), start.getHours(), start.getMinutes()]).toEqual([
      2025, 2, 10, 0, 0,
    ]);
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours(), end.getMinutes()]).toEqual([
      2025, 2, 12, 23, 59,
    ]);
    expect(input.queueIdImportMessages).toBe(3);
  });

  it('reads the stored import days back as days, and a Telegram channel echoes import and gateway fields as stored', () => {
    const channel = channelFixture(2, {
      importOldMessages: '2025-01-05T03:00:00.000Z',
      importRecentMessages: null,
      queueIdImportMessages: 4,
      remotePath: 'https://kept.example.com',
      wabaId: 'kept',
    });
    const values = channelToValues(channel);
    expect(values.importOldMessages).toMatch(/^2025-01-0[45]$/);
    const input = valuesToInput({ ...values, remotePath: 'https://typed.example.com', wabaId: 'typed' }, channel);
    expect(input).toMatchObject({
      importOldMessages: '2025-01-05T03:00:00.000Z',
      queueIdImportMessages: 4,
      remotePath: 'https://kept.example.com',
      wabaId: 'kept',
    });
    expect(input).not.toHaveProperty('tokenAPI');
  });

  it('keeps a stored Wuzapi token on edit but asks for one when the type changes to Wuzapi', () => {
    const meow = channelFixture(3, {
      type: 'meow',
      remotePath: 'https://wz.example.com',
      configuredSecrets: ['tokenAPI'],
    });
    expect(validateChannel(channelToValues(meow, QR), meow, t, QR)).toEqual({});
    const telegram = channelFixture(5, { configuredSecrets: ['tokenAPI'] });
    const switched = { ...channelToValues(telegram, QR), type: 'meow' as const, remotePath: 'https://wz.example.com' };
    expect(validateChannel(switched, telegram, t, QR)).toEqual({ tokenAPI: 'Informe o token do usuário Wuzapi.' });
  });
});
