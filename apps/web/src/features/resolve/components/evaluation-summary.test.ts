import { describe, expect, it } from 'vitest';
import type { EvaluationDto } from '@conversa/shared';
import { agentsOf, summarize } from './evaluation-summary';

const row = (
  id: number,
  userId: number | null,
  name: string | null,
  status: EvaluationDto['status'],
  value: number | null,
): EvaluationDto => ({
  id,
  evaluation: value === null ? '' : String(value),
  value,
  status,
  attempts: 0,
  ticketId: id,
  userId,
  user: userId === null ? null : { id: userId, name: name! },
  createdAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:00:00.000Z',
  ticket: { id, status: 'closed', contactId: 1, contact: { id: 1, name: 'Cliente' } },
});

describe('summarize', () => {
  it('averages only rated values, overall and per agent (best first)', () => {
    const summary = summarize([
      row(1, 7, 'Ana', 'rated', 5),
      row(2, 7, 'Ana', 'rated', 2),
      row(3, 8, 'Bia', 'rated', 4),
      row(4, 8, 'Bia', 'failed', null),
      row(5, 8, 'Bia', 'waiting', null),
      row(6, null, null, 'rated', 0),
    ]);
    expect(summary.rated).toBe(4);
    expect(summary.average).toBe(11 / 4);
    expect(summary.perAgent).toEqual([
      { userId: 8, name: 'Bia', average: 4, count: 1 },
      { userId: 7, name: 'Ana', average: 3.5, count: 2 },
      { userId: null, name: null, average: 0, count: 1 },
    ]);
  });

  it('has no average without a rated value', () => {
    expect(summarize([row(1, 7, 'Ana', 'failed', null)])).toEqual({ average: null, rated: 0, perAgent: [] });
  });

  it('lists each agent once, by name', () => {
    expect(
      agentsOf([row(1, 8, 'Bia', 'rated', 1), row(2, 7, 'Ana', 'rated', 2), row(3, 8, 'Bia', 'rated', 3)]),
    ).toEqual([
      { value: '7', label: 'Ana' },
      { value: '8', label: 'Bia' },
    ]);
  });
});
