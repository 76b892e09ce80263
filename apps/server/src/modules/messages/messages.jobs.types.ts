/**
 * The payloads of the pipeline's jobs (messages.jobs.ts), apart from the jobs so their runners (messages.send-job.ts,
 * messages.media-job.ts) name them without importing the jobs back.
 */
import { z } from 'zod';

export const sendPayloadSchema = z.object({
  tenantId: z.number().int().positive(),
  messageId: z.number().int().positive(),
  /** Publish chat:create on the first attempt: the message was queued inside someone else's transaction. */
  announce: z.boolean().optional(),
});
export type SendPayload = z.infer<typeof sendPayloadSchema>;

export const mediaPayloadSchema = z.object({
  tenantId: z.number().int().positive(),
  messageId: z.number().int().positive(),
});
export type MediaPayload = z.infer<typeof mediaPayloadSchema>;
