/** The chatbot engine's jobs (ARCHITECTURE §6k): filled in by the engine work. */
import type { JobDefinition } from '../../platform/jobs/queue.js';
import type { Platform } from '../../platform/platform.js';

export function chatbotJobs(_platform: Platform): JobDefinition<never>[] {
  return [];
}
