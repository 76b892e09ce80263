import type { AppModule } from '../../kernel/module.js';
import type { Platform } from '../../platform/platform.js';
import { createChatbotIngestionHook, type ChatbotIngestionHook } from './chatbot.ingestion.js';
import { chatbotJobs, chatbotRuntime } from './chatbot.jobs.js';
import { chatbotRoutes } from './chatbot.routes.js';

export { loadAutoReplyGraphSource, loadFlow } from './chatbot.flows.js';
export type { AutoReplyActionSource, AutoReplyGraphSource, AutoReplyStepSource, LoadedFlow } from './chatbot.flows.js';

export { CHATBOT_INBOUND_JOB, chatbotRuntime, chatbotTicketPort } from './chatbot.jobs.js';
export type { ChatbotInboundPayload, ChatbotRuntime } from './chatbot.jobs.js';
export { CHATBOT_RESUME_JOB, CHATBOT_TIMEOUT_JOB } from './chatbot.engine.js';
export type { ChatbotIngestionHook, StoredInbound } from './chatbot.ingestion.js';

/** Ingestion's hook (chatbot.ingestion.ts), sharing the app's routing configuration cache. */
export function chatbotIngestionHook(platform: Platform): ChatbotIngestionHook {
  return createChatbotIngestionHook({ jobs: platform.jobs, config: chatbotRuntime(platform).config });
}

/** Chat flows, the legacy auto-reply and the engine that runs them on customers' conversations (ARCHITECTURE §6k). */
export const chatbotModule: AppModule = (platform) => ({
  plugin: chatbotRoutes(platform),
  jobs: chatbotJobs(platform),
});
