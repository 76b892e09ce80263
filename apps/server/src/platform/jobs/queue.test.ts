import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { queryRows } from '../db/client.js';
import { defineJob } from './queue.js';

let t: TestApp;
const handled: number[] = [];
const probe = defineJob({
  name: 'test.probe',
  schema: z.object({ n: z.number() }),
  handler: async ({ n }) => {
    handled.push(n);
  },
});

beforeAll(async () => {
  t = await createTestApp();
  await t.jobs.start([probe as never], false);
});
afterAll(async () => t.close());

describe('job queue', () => {
  it('enqueues inside the transaction: a rolled back write leaves no job, a committed one does', async () => {
    await t.platform.db
      .transaction(async (tx) => {
        await t.jobs.enqueue(probe, { n: 1 }, { tx });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await t.platform.db.transaction(async (tx) => {
      await t.jobs.enqueue(probe, { n: 2 }, { tx });
    });
    expect(await t.jobs.runPending(probe)).toBe(1);
    expect(handled).toEqual([2]);
  });

  it('enqueues many jobs in one insert, inside the transaction', async () => {
    handled.length = 0;
    await t.platform.db
      .transaction(async (tx) => {
        await t.jobs.enqueueMany(probe, [{ n: 10 }, { n: 11 }], { tx });
        throw new Error('rollback');
      })
      .catch(() => undefined);
    await t.platform.db.transaction(async (tx) => {
      await t.jobs.enqueueMany(probe, [{ n: 12 }, { n: 13 }, { n: 14 }], { tx });
      await t.jobs.enqueueMany(probe, [], { tx });
    });
    expect(await t.jobs.runPending(probe)).toBe(3);
    expect([...handled].sort()).toEqual([12, 13, 14]);
    await expect(t.jobs.enqueueMany(probe, [{ n: 1 }, { n: 'x' } as never])).rejects.toThrow();
    expect(await t.jobs.runPending(probe)).toBe(0);
  });

  it('validates payloads with the job schema', async () => {
    await expect(t.jobs.enqueue(probe, { n: 'x' } as never)).rejects.toThrow();
  });

  it('stores cron schedules in the database, so every process shares one schedule', async () => {
    const rows = await queryRows<{ name: string; cron: string }>(
      t.platform.db,
      sql`select name, cron from pgboss.schedule`,
    );
    const expected = t.jobDefinitions.filter((d) => d.cron).map((d) => d.name);
    // Workers are off in route tests: schedules are registered when workers start (main.ts).
    expect(rows.map((r) => r.name).sort()).toEqual([]);
    await t.jobs.stop();
    await t.jobs.start(t.jobDefinitions, true);
    const after = await queryRows<{ name: string }>(t.platform.db, sql`select name from pgboss.schedule`);
    expect(after.map((r) => r.name).sort()).toEqual(expected.sort());
  });
});

describe('job queue workers', () => {
  it('fetch again at once after a full batch instead of waiting for the polling interval', async () => {
    const ran: number[] = [];
    // Polling every 30 s: without the immediate re-fetch, only the first batch of two would run within the wait.
    const burst = defineJob({
      name: 'test.burst',
      schema: z.object({ n: z.number() }),
      batchSize: 2,
      pollingIntervalSeconds: 30,
      handler: async ({ n }) => {
        ran.push(n);
      },
    });
    await t.jobs.stop();
    await t.jobs.start([burst as never], false);
    for (let n = 1; n <= 7; n += 1) await t.jobs.enqueue(burst, { n });
    await t.jobs.stop();
    await t.jobs.start([burst as never], true);
    await vi.waitFor(() => expect(ran).toHaveLength(7), { timeout: 15_000, interval: 50 });
    expect([...ran].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await t.jobs.stop();
    await t.jobs.start([probe as never], false);
  });
});

describe('job queue inside a tenant transaction', () => {
  it('lets tenant-scoped work enqueue jobs', async () => {
    const { withTenant, systemContext } = await import('../db/tenancy.js');
    await withTenant(t.platform.db, systemContext(1), async (tx) => {
      await t.jobs.enqueue(probe, { n: 3 }, { tx });
    });
    await t.jobs.stop();
    await t.jobs.start([probe as never], false);
    expect(await t.jobs.runPending(probe)).toBe(1);
    expect(handled).toContain(3);
  });
});

describe('dynamic queues', () => {
  it('work a queue made at run time with a given handler, keep its output, and stop on offWork', async () => {
    const queue = 'test.dynamic.q1';
    await t.jobs.ensureQueue(queue);
    await t.jobs.ensureQueue(queue); // idempotent
    const seen: unknown[] = [];
    const first = await t.jobs.enqueue(probe, { n: 41 }, { queue });
    expect(first).toEqual(expect.any(String));
    // The definition's own queue does not get it.
    expect(await t.jobs.runPending(probe)).toBe(0);
    await t.jobs.workQueue(queue, async (data) => {
      seen.push(data);
      return { doubled: (data as { n: number }).n * 2 };
    });
    await vi.waitFor(async () => expect((await t.jobs.jobState(queue, first!))?.state).toBe('completed'), {
      timeout: 10_000,
      interval: 50,
    });
    expect(await t.jobs.jobState(queue, first!)).toEqual({ state: 'completed', output: { doubled: 82 } });
    expect(seen).toEqual([{ n: 41 }]);

    await t.jobs.offWork(queue);
    const second = await t.jobs.enqueue(probe, { n: 42 }, { queue });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await t.jobs.jobState(queue, second!))?.state).toBe('created');
    await t.jobs.cancel(queue, second!);
    expect((await t.jobs.jobState(queue, second!))?.state).toBe('cancelled');
    expect(seen).toHaveLength(1);
  });

  it('fails a job whose handler throws, with the error kept', async () => {
    const queue = 'test.dynamic.q2';
    await t.jobs.ensureQueue(queue);
    const id = await t.jobs.enqueue({ ...probe, retryLimit: 0 }, { n: 1 }, { queue });
    await t.jobs.workQueue(queue, async () => {
      throw new Error('boom');
    });
    await vi.waitFor(async () => expect((await t.jobs.jobState(queue, id!))?.state).toBe('failed'), {
      timeout: 10_000,
      interval: 50,
    });
    expect((await t.jobs.jobState(queue, id!))?.output).toMatchObject({ message: 'boom' });
    await t.jobs.offWork(queue);
  });
});
