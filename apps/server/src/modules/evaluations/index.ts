import type { AppModule } from '../../kernel/module.js';
import type { JobDefinition } from '../../platform/jobs/queue.js';
import type { Platform } from '../../platform/platform.js';
import type { TicketMessagingPort } from '../tickets/index.js';
import { RATING_ANSWER_JOB, type RatingAnswerPayload } from './evaluations.jobs.js';
import { evaluationsRoutes } from './evaluations.routes.js';
import { createEvaluationsService } from './evaluations.service.js';

export { RATING_ANSWER_JOB } from './evaluations.jobs.js';

/** The ratings module; the messages module supplies the port that queues the texts sent to the customer. */
export function createEvaluationsModule(messagingFor: (platform: Platform) => TicketMessagingPort): AppModule {
  return (platform) => {
    const service = createEvaluationsService({
      db: platform.db,
      events: platform.events,
      port: messagingFor(platform),
    });
    const answerJob: JobDefinition<RatingAnswerPayload> = {
      ...RATING_ANSWER_JOB,
      handler: async (payload) => {
        await service.handleAnswers(payload.tenantId, payload.ticketId);
      },
    };
    return { plugin: evaluationsRoutes(service), jobs: [answerJob] as never[] };
  };
}
