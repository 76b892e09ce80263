import type { AppModule } from '../../modules.js';
import { chatbotJobs } from './chatbot.jobs.js';
import { chatbotRoutes } from './chatbot.routes.js';

export * from './chatbot.tables.js';
export { loadAutoReplyGraphSource, loadFlow } from './chatbot.flows.js';
export type { AutoReplyActionSource, AutoReplyGraphSource, AutoReplyStepSource, LoadedFlow } from './chatbot.flows.js';

/** Chat flows, the legacy auto-reply and the engine that runs them on customers' conversations (ARCHITECTURE §6k). */
export const chatbotModule: AppModule = (platform) => ({
  plugin: chatbotRoutes(platform),
  jobs: chatbotJobs(platform),
});
