/**
 * Lanes for ingestion's batches. Each item goes to a lane named by its caller (a channel and a share of its chats);
 * a lane runs one batch at a time. An item that finds its lane idle starts a batch of its own at once (no wait under
 * light load); items that arrive while the lane is busy queue and go together, up to `maxBatch`, when it is free. A
 * chat always maps to the same lane, so its messages are stored in arrival order and two batches in flight never
 * lock the same contact or ticket.
 */

export interface LaneRunner<I> {
  /** Runs a batch; the result of each item, in the same order (a rejected one fails only that item's caller). */
  (lane: string, items: I[]): Promise<PromiseSettledResult<void>[]>;
}

export interface Lanes<I> {
  /** Resolves when the item's batch has committed (or rejects with its own error). */
  push(lane: string, item: I): Promise<void>;
  /** Lanes with a batch in flight (tests). */
  readonly busy: number;
}

interface Entry<I> {
  item: I;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function createLanes<I>(run: LaneRunner<I>, maxBatch: number): Lanes<I> {
  const queues = new Map<string, Entry<I>[]>();

  async function drain(lane: string, queue: Entry<I>[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      let results: PromiseSettledResult<void>[];
      try {
        results = await run(
          lane,
          batch.map((entry) => entry.item),
        );
      } catch (error) {
        results = batch.map(() => ({ status: 'rejected', reason: error }));
      }
      batch.forEach((entry, i) => {
        const result = results[i];
        if (result?.status === 'fulfilled') entry.resolve();
        else entry.reject(result ? result.reason : new Error('the batch gave no result for this item'));
      });
    }
    queues.delete(lane);
  }

  return {
    push(lane, item) {
      return new Promise<void>((resolve, reject) => {
        const entry = { item, resolve, reject };
        const queue = queues.get(lane);
        if (queue) {
          queue.push(entry);
          return;
        }
        const fresh = [entry];
        queues.set(lane, fresh);
        void drain(lane, fresh);
      });
    },
    get busy() {
      return queues.size;
    },
  };
}

/** A lane number for a chat: a stable hash of its id, so a chat's messages always share a lane. */
export function laneOf(chatId: string, lanes: number): number {
  let hash = 0;
  for (let i = 0; i < chatId.length; i += 1) hash = (Math.imul(hash, 31) + chatId.charCodeAt(i)) | 0;
  return Math.abs(hash) % lanes;
}
