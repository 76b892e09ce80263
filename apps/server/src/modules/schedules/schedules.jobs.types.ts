/**
 * The scheduled messages' job contract (payloads and the definitions' shape), apart from schedules.jobs.ts so the
 * send, which the jobs run, and the service, which enqueues them, name it without importing the jobs back.
 */
import { z } from 'zod';
import type { JobDefinition } from '../../platform/jobs/queue.js';

export const sendSchedulePayloadSchema = z.object({
  tenantId: z.number().int().positive(),
  scheduleId: z.number().int().positive(),
});
export type SendSchedulePayload = z.infer<typeof sendSchedulePayloadSchema>;

export const sweepPayloadSchema = z.object({});

export interface SchedulesJobs {
  send: JobDefinition<SendSchedulePayload>;
  sweep: JobDefinition<z.infer<typeof sweepPayloadSchema>>;
}
