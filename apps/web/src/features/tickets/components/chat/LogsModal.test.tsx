/** The log labels: the contract's types, a reopen, a force close and a channel move told apart by their details. */
import { describe, expect, it } from 'vitest';
import ptBr from '../../../../locales/pt-br.json';
import { logLabelKey } from './LogsModal';

const label = (type: Parameters<typeof logLabelKey>[0]['type'], details: Record<string, unknown> = {}) =>
  (ptBr.chat.logs.types as Record<string, string>)[logLabelKey({ type, details })];

describe('logLabelKey', () => {
  it('labels a reopen, a force close and a channel move by their details, the rest by their type', () => {
    expect(label('open', { reopened: true })).toBe('Reabriu o ticket');
    expect(label('open')).toBe('Iniciou o atendimento');
    expect(label('closed', { force: true })).toBe('Fechou sem despedida/avaliação');
    expect(label('closed', { silent: true })).toBe('Resolveu o ticket');
    expect(label('transfered', { reason: 'channelMove' })).toBe('Canal alterado');
    expect(label('transfered')).toBe('Transferiu o ticket');
    expect(label('autoClose')).toBe('Fechado por inatividade');
  });
});
