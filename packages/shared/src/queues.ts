/** Queues (filas): product-spec §3 "Queue", client-contract §8. */
import { z } from 'zod';
import { distributionModeSchema } from './chat-flows.js';
import { looseBoolean } from './schemas.js';

/**
 * `distribution` (an addition to the contract): how the queue's new unassigned tickets are given to its online users,
 * N none, R random, B balanced (ARCHITECTURE §6k).
 */
export const queueDtoSchema = z.object({
  id: z.number(),
  queue: z.string(),
  isActive: z.boolean(),
  distribution: distributionModeSchema,
});
export type QueueDto = z.infer<typeof queueDtoSchema>;

/** POST/PUT /queue body; clients echo the whole object back (unknown keys are dropped). */
export const queueInputSchema = z.object({
  queue: z.string().trim().min(1).max(120),
  isActive: looseBoolean.optional(),
  distribution: distributionModeSchema.optional(),
});
export type QueueInput = z.input<typeof queueInputSchema>;
