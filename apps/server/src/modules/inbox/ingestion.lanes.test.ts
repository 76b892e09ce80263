/** Lanes: one batch at a time per lane, later arrivals together up to the cap, each item its own outcome. */
import { describe, expect, it } from 'vitest';
import { createLanes, laneOf } from './ingestion.lanes.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('lanes', () => {
  it('runs the first item alone, then what queued meanwhile in batches of at most the cap, in order', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const lanes = createLanes<number>(async (_lane, items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items.map(() => ({ status: 'fulfilled', value: undefined }));
    }, 3);
    const done = [1, 2, 3, 4, 5, 6].map((n) => lanes.push('a', n));
    const other = lanes.push('b', 7);
    await tick();
    expect(batches).toEqual([[1], [7]]);
    expect(lanes.busy).toBe(1);
    release();
    await Promise.all([...done, other]);
    expect(batches).toEqual([[1], [7], [2, 3, 4], [5, 6]]);
    expect(lanes.busy).toBe(0);
  });

  it('fails only the items the batch failed; a batch that throws fails all of its items', async () => {
    const lanes = createLanes<number>(async (_lane, items) => {
      if (items.includes(0)) throw new Error('whole batch');
      return items.map((n) => (n % 2 ? { status: 'fulfilled', value: undefined } : { status: 'rejected', reason: n }));
    }, 10);
    const results = await Promise.allSettled([1, 2, 3].map((n) => lanes.push('a', n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    await expect(lanes.push('a', 0)).rejects.toThrow('whole batch');
    await expect(lanes.push('a', 5)).resolves.toBeUndefined();
  });

  it('maps a chat to the same lane every time, within range', () => {
    const lanes = ['123', '-100777', '5511999990000', 'abc'].map((id) => laneOf(id, 4));
    expect(lanes).toEqual(['123', '-100777', '5511999990000', 'abc'].map((id) => laneOf(id, 4)));
    for (const lane of lanes) expect(lane).toBeGreaterThanOrEqual(0);
    for (const lane of lanes) expect(lane).toBeLessThan(4);
    expect(new Set(Array.from({ length: 100 }, (_, i) => laneOf(String(1000 + i), 4))).size).toBe(4);
  });
});
