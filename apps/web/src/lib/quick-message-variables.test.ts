import { describe, expect, it } from 'vitest';
import { fillVariables, greetingFor } from './quick-message-variables';

const greetings = { morning: 'Bom dia', afternoon: 'Boa tarde', evening: 'Boa noite' };
const at = (hour: number, minute = 0) => new Date(2026, 10, 26, hour, minute);

describe('greetingFor', () => {
  it('follows the local hour: morning from 5, afternoon from 12, evening from 18 until 4:59', () => {
    expect([4, 5, 11, 12, 17, 18, 23, 0].map((h) => greetingFor(h, greetings))).toEqual([
      'Boa noite',
      'Bom dia',
      'Bom dia',
      'Boa tarde',
      'Boa tarde',
      'Boa noite',
      'Boa noite',
      'Boa noite',
    ]);
  });
});

describe('fillVariables', () => {
  const ctx = {
    contactName: '  Maria  da Silva ',
    protocol: '20261126-0042',
    userName: 'Ana',
    ticketId: 321,
    greetings,
    now: at(9, 30),
  };

  it('fills every variable', () => {
    expect(
      fillVariables(
        '{{greeting}}, {{firstName}} ({{name}})! Sou {{user}}; protocolo {{protocol}}, ticket #{{ticket}}.',
        ctx,
      ),
    ).toBe('Bom dia, Maria (Maria  da Silva)! Sou Ana; protocolo 20261126-0042, ticket #321.');
  });

  it('uses the evening greeting late and repeats a variable', () => {
    expect(fillVariables('{{ greeting }} {{greeting}}', { ...ctx, now: at(21) })).toBe('Boa noite Boa noite');
  });

  it('leaves unknown variables and plain text alone; missing values become empty', () => {
    expect(fillVariables('{{desconto}} {name} {{name}}|{{protocol}}|{{ticket}}', { greetings, now: at(13) })).toBe(
      '{{desconto}} {name} ||',
    );
  });
});
