/**
 * The rating answer job: enqueued by ingestion, in the transaction that stores a customer's message on a ticket that
 * waits for a rating (`tickets.awaiting_rating`); the handler is idempotent (evaluations.service.ts).
 */
import { z } from 'zod';
import type { JobSpec } from '../../platform/jobs/queue.js';

export const RATING_ANSWER_JOB_NAME = 'evaluations.answer';

const ratingAnswerSchema = z.object({
  tenantId: z.number().int().positive(),
  ticketId: z.number().int().positive(),
});
export type RatingAnswerPayload = z.infer<typeof ratingAnswerSchema>;

export const RATING_ANSWER_JOB: JobSpec<RatingAnswerPayload> = {
  name: RATING_ANSWER_JOB_NAME,
  schema: ratingAnswerSchema,
  retryLimit: 5,
  retryDelaySeconds: 5,
  expireInSeconds: 120,
};
