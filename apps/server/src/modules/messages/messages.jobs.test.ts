/**
 * The pipeline's jobs expire (and so come back to be retried) within minutes when the process that fetched them dies:
 * pg-boss's default of 15 minutes would hold an agent's reply that long after a crash. The crash test of the
 * reliability tier (`reliability/crash.test.ts`) proves the recovery end to end.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../platform/db/client.js';
import { JOB_MAINTENANCE_INTERVAL_SECONDS } from '../../platform/jobs/queue.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { DOWNLOAD_MEDIA_JOB, SEND_MESSAGE_JOB } from './messages.jobs.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('messages jobs of a dead worker', () => {
  it('are stored with a short expiry, checked by pg-boss’s maintenance every 30 s', async () => {
    await t.jobs.enqueue(SEND_MESSAGE_JOB, { tenantId: 1, messageId: 424242 });
    await t.jobs.enqueue(DOWNLOAD_MEDIA_JOB, { tenantId: 1, messageId: 424243 });
    const rows = await queryRows<{ name: string; expire: number }>(
      t.platform.db,
      sql`select name, extract(epoch from expire_in)::int as expire from pgboss.job
           where name in ('messages.send', 'messages.download-media') order by name`,
    );
    expect(rows).toEqual([
      { name: 'messages.download-media', expire: 300 },
      { name: 'messages.send', expire: 120 },
    ]);
    expect(JOB_MAINTENANCE_INTERVAL_SECONDS).toBe(30);
  });
});
