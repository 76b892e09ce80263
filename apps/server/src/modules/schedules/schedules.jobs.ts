/**
 * Scheduled messages' jobs. `schedules.send` starts at the row's time (enqueued with the create or edit); the
 * `schedules.sweep` cron (every minute) sends the due rows whose job was lost. Both go through sendScheduled, whose
 * claim makes a second run of the same row do nothing.
 */
import { withSystem } from '../../platform/db/tenancy.js';
import { defineJob } from '../../platform/jobs/queue.js';
import {
  sendSchedulePayloadSchema,
  sweepPayloadSchema,
  type SchedulesJobs,
  type SendSchedulePayload,
} from './schedules.jobs.types.js';
import { findDueSchedules } from './schedules.repository.js';
import { sendScheduled, type ScheduleSendDeps } from './schedules.send.js';

export { sendSchedulePayloadSchema, type SchedulesJobs, type SendSchedulePayload } from './schedules.jobs.types.js';

export const SEND_SCHEDULE_JOB = 'schedules.send';
export const SWEEP_SCHEDULES_JOB = 'schedules.sweep';
/** Rows the sweeper sends per run (each in its own transaction). */
export const SWEEP_BATCH = 200;

/** The sweeper's work: every due pending row (system path `schedules.due-sweep`), sent one by one. */
export async function sweepDueSchedules(deps: ScheduleSendDeps, limit = SWEEP_BATCH): Promise<number> {
  const due = await withSystem(deps.db, 'schedules.due-sweep', (tx) => findDueSchedules(tx, limit));
  let sent = 0;
  for (const row of due) {
    if ((await sendScheduled(deps, row.tenantId, row.id)) === 'sent') sent += 1;
  }
  return sent;
}

export function createSchedulesJobs(deps: Omit<ScheduleSendDeps, 'jobs'>): SchedulesJobs {
  const jobs = {} as SchedulesJobs;
  const full: ScheduleSendDeps = { ...deps, jobs };
  jobs.send = defineJob<SendSchedulePayload>({
    name: SEND_SCHEDULE_JOB,
    schema: sendSchedulePayloadSchema,
    retryLimit: 5,
    retryDelaySeconds: 10,
    async handler(payload) {
      await sendScheduled(full, payload.tenantId, payload.scheduleId);
    },
  });
  jobs.sweep = defineJob({
    name: SWEEP_SCHEDULES_JOB,
    schema: sweepPayloadSchema,
    cron: '* * * * *',
    retryLimit: 0,
    async handler() {
      await sweepDueSchedules(full);
    },
  });
  return jobs;
}
