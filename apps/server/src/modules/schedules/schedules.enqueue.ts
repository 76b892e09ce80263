/** Enqueueing a schedule's send job, shared by the service (create, edit) and the send (the next recurrence). */
import type { Tx } from '../../platform/db/client.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { SchedulesJobs } from './schedules.jobs.types.js';
import type { ScheduleRow } from './schedules.repository.js';

export interface EnqueueSendDeps {
  queue: JobQueue;
  jobs: Pick<SchedulesJobs, 'send'>;
}

/** Enqueues the row's send to start at its time, in the caller's transaction. */
export async function enqueueSend(tx: Tx, deps: EnqueueSendDeps, row: ScheduleRow) {
  const seconds = Math.max(0, Math.ceil((row.scheduleAt.getTime() - Date.now()) / 1000));
  await deps.queue.enqueue(
    deps.jobs.send,
    { tenantId: row.tenantId, scheduleId: row.id },
    { tx, ...(seconds > 0 ? { startAfterSeconds: seconds } : {}) },
  );
}
