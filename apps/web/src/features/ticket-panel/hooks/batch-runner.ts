/**
 * Mass actions of the ticket panel run per ticket in batches (product-spec §9: 10 tickets per batch): the tickets of
 * one batch run together, the next batch starts when they have all answered. Every ticket ends with a result (ok, or
 * the error's text); cancelling stops before the next batch (a batch already sent finishes).
 */
import { BULK_RESOLVE_BATCH } from '@conversa/shared';

export interface BatchResult {
  id: number;
  ok: boolean;
  /** The error's text when it failed. */
  error?: string;
}

export interface BatchProgress {
  done: number;
  total: number;
  results: BatchResult[];
}

export interface BatchOptions {
  batchSize?: number;
  /** Called after every batch with the results so far. */
  onProgress?: (progress: BatchProgress) => void;
  /** Checked between batches: once aborted, no further batch starts. */
  signal?: AbortSignal;
  describeError: (error: unknown) => string;
}

export interface BatchOutcome extends BatchProgress {
  cancelled: boolean;
}

export async function runInBatches(
  ids: readonly number[],
  worker: (id: number) => Promise<unknown>,
  options: BatchOptions,
): Promise<BatchOutcome> {
  const size = Math.max(1, options.batchSize ?? BULK_RESOLVE_BATCH);
  const results: BatchResult[] = [];
  for (let start = 0; start < ids.length; start += size) {
    if (options.signal?.aborted) return { done: results.length, total: ids.length, results, cancelled: true };
    const batch = ids.slice(start, start + size);
    const settled = await Promise.allSettled(batch.map((id) => worker(id)));
    settled.forEach((outcome, index) => {
      const id = batch[index]!;
      results.push(
        outcome.status === 'fulfilled'
          ? { id, ok: true }
          : { id, ok: false, error: options.describeError(outcome.reason) },
      );
    });
    options.onProgress?.({ done: results.length, total: ids.length, results: [...results] });
  }
  return { done: results.length, total: ids.length, results, cancelled: false };
}
