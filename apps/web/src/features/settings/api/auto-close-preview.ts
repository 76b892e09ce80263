/** GET /settings/auto-close-preview?minutes=: what the auto-close settings about to be saved would close. */
import { z } from 'zod';
import { api } from '../../../lib/api';

export const autoClosePreviewSchema = z.object({
  minutes: z.number(),
  /** Auto-close is on now (off: saving switches it on, and inactivity counts from that moment). */
  enabled: z.boolean(),
  /** Closed at the job's next run with the new time. */
  closeNow: z.number(),
  /** Waiting for the customer's reply: each closes once the customer stays quiet for the new time. */
  awaitingCustomer: z.number(),
});
export type AutoClosePreview = z.infer<typeof autoClosePreviewSchema>;

export async function fetchAutoClosePreview(minutes: string): Promise<AutoClosePreview> {
  return autoClosePreviewSchema.parse(await api.get('/settings/auto-close-preview', { query: { minutes } }));
}
