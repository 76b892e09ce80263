/**
 * Inbox: ingestion of the channels' normalised inbound events. The webhook routes belong to the channels module,
 * which calls `ingest` (wired at the composition root); this module mounts no route of its own.
 */
import type { AppModule } from '../../kernel/module.js';
import { setInboundSink } from '../channels/index.js';
import { createCampaignIngestionHook } from '../campaigns/index.js';
import { chatbotIngestionHook } from '../chatbot/index.js';
import { createMediaLinks, messagesMediaStore } from '../messages/index.js';
import { registerContactAvatarJobs } from './ingestion.avatars.js';
import { createIngestion } from './ingestion.service.js';

export { createIngestion };
export type { Ingestion, IngestionDeps } from './ingestion.service.js';

/** Registers the ingestion as the channels' inbound sink: each webhook event is stored before the 2xx. */
export const inboxModule: AppModule = (platform) => {
  const ingestion = createIngestion({
    db: platform.db,
    jobs: platform.jobs,
    events: platform.events,
    links: createMediaLinks(platform.secrets.jwtSecret, platform.config.publicUrl),
    store: messagesMediaStore(platform),
    logger: platform.logger,
    chatbot: chatbotIngestionHook(platform),
    campaigns: createCampaignIngestionHook({ events: platform.events }),
  });
  setInboundSink(platform, { receive: (channel, event) => ingestion.ingest(channel, [event]) });
  // The pictures of the contacts ingestion claims are asked of the live session: on its owner, from its queue.
  registerContactAvatarJobs(platform);
  return { plugin: async () => undefined };
};
