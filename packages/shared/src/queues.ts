/** Queues (filas): product-spec §3 "Queue", client-contract §8. */
import { z } from 'zod';
import { looseBoolean } from './schemas.js';

export const queueDtoSchema = z.object({ id: z.number(), queue: z.string(), isActive: z.boolean() });
export type QueueDto = z.infer<typeof queueDtoSchema>;

/** POST/PUT /queue body; clients echo the whole object back (unknown keys are dropped). */
export const queueInputSchema = z.object({
  queue: z.string().trim().min(1).max(120),
  isActive: looseBoolean.optional(),
});
export type QueueInput = z.input<typeof queueInputSchema>;
