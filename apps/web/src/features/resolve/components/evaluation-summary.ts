/** The averages the ratings screen shows: overall and per agent, over the rated values only. */
import type { EvaluationDto } from '@conversa/shared';

export interface AgentAverage {
  userId: number | null;
  name: string | null;
  average: number;
  count: number;
}

export interface EvaluationSummary {
  average: number | null;
  rated: number;
  perAgent: AgentAverage[];
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

export function summarize(evaluations: EvaluationDto[]): EvaluationSummary {
  const rated = evaluations.filter((e) => e.status === 'rated' && e.value !== null);
  const byAgent = new Map<number | null, { name: string | null; values: number[] }>();
  for (const e of rated) {
    const entry = byAgent.get(e.userId) ?? { name: e.user?.name ?? null, values: [] };
    entry.values.push(e.value!);
    byAgent.set(e.userId, entry);
  }
  const perAgent = [...byAgent.entries()]
    .map(([userId, { name, values }]) => ({ userId, name, average: mean(values), count: values.length }))
    .sort((a, b) => b.average - a.average || (a.name ?? '').localeCompare(b.name ?? ''));
  return { average: rated.length ? mean(rated.map((e) => e.value!)) : null, rated: rated.length, perAgent };
}

/** The agents present in a list (the agent filter's options). */
export function agentsOf(evaluations: EvaluationDto[]): { value: string; label: string }[] {
  const seen = new Map<number, string>();
  for (const e of evaluations) if (e.user) seen.set(e.user.id, e.user.name);
  return [...seen.entries()]
    .map(([id, name]) => ({ value: String(id), label: name }))
    .sort((a, b) => a.label.localeCompare(b.label));
}
