import { describe, expect, it, vi } from 'vitest';
import { runInBatches, type BatchProgress } from './batch-runner';

const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const describeError = (error: unknown) => (error instanceof Error ? error.message : String(error));

describe('runInBatches', () => {
  it('runs 10 tickets per batch, the next batch after the previous one answered', async () => {
    let running = 0;
    let peak = 0;
    const started: number[][] = [];
    let current: number[] = [];
    const worker = vi.fn(async (id: number) => {
      running += 1;
      peak = Math.max(peak, running);
      current.push(id);
      await new Promise((resolve) => setTimeout(resolve, 1));
      running -= 1;
    });
    const progress: BatchProgress[] = [];
    const outcome = await runInBatches(ids(25), worker, {
      describeError,
      onProgress: (p) => {
        progress.push(p);
        started.push(current);
        current = [];
      },
    });
    expect(worker).toHaveBeenCalledTimes(25);
    expect(peak).toBe(10);
    expect(started.map((batch) => batch.length)).toEqual([10, 10, 5]);
    expect(progress.map((p) => p.done)).toEqual([10, 20, 25]);
    expect(progress.every((p) => p.total === 25)).toBe(true);
    expect(outcome).toMatchObject({ done: 25, total: 25, cancelled: false });
  });

  it('keeps going after a failure and reports each ticket’s result with the error text', async () => {
    const outcome = await runInBatches(
      ids(12),
      async (id) => {
        if (id === 3 || id === 11) throw new Error(`Falhou ${id}`);
      },
      { describeError },
    );
    expect(outcome.results).toHaveLength(12);
    expect(outcome.results.filter((r) => !r.ok)).toEqual([
      { id: 3, ok: false, error: 'Falhou 3' },
      { id: 11, ok: false, error: 'Falhou 11' },
    ]);
    expect(outcome.results.find((r) => r.id === 4)).toEqual({ id: 4, ok: true });
  });

  it('cancels between batches: the running batch finishes, no further batch starts', async () => {
    const controller = new AbortController();
    const worker = vi.fn(async () => undefined);
    const outcome = await runInBatches(ids(30), worker, {
      describeError,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done === 10) controller.abort();
      },
    });
    expect(worker).toHaveBeenCalledTimes(10);
    expect(outcome).toMatchObject({ done: 10, total: 30, cancelled: true });
  });
});
