/**
 * The chatbot engine's runtime and jobs (ARCHITECTURE §6k). One runtime per app (platform): the routing
 * configuration cache (chatbot.config.ts) and the engine (chatbot.engine.ts) wired to the messaging port and to the
 * tickets module's distribution. Jobs:
 * - `chatbot.inbound` `{ tenantId, ticketId, messageId, created }`: enqueued by ingestion in the transaction that
 *   stores a customer's message (chatbot.ingestion.ts); routes a new ticket or moves the flow with the answer;
 * - `chatbot.timeout` `{ tenantId, ticketId, token }`: the no-response timer of a step that waits;
 * - `chatbot.resume` `{ tenantId, ticketId, token }`: the rest of a step after a DelayField.
 * Each locks the ticket row, runs the engine in one transaction and publishes `tickets.changed` after commit. They
 * live in PostgreSQL (pg-boss): a restart or another node runs them, and a token or `lastMessageId` makes a replayed
 * or retried job do nothing.
 */
import { z } from 'zod';
import type { Tx } from '../../platform/db/client.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { defineJob, type JobDefinition, type JobSpec } from '../../platform/jobs/queue.js';
import type { Platform } from '../../platform/platform.js';
import { createTicketMessaging } from '../messages/index.js';
import {
  distributeTicket,
  loadTicketDto,
  lockTicketAsSystem,
  type TicketChatbotPort,
  type TicketRow,
} from '../tickets/index.js';
import { createRoutingConfigCache, invalidateOnChanges, type RoutingConfigCache } from './chatbot.config.js';
import {
  CHATBOT_RESUME_JOB,
  CHATBOT_TIMEOUT_JOB,
  createChatbotEngine,
  loadInboundMessage,
  type ChatbotEngine,
  type DistributeTicket,
  type RunOutcome,
} from './chatbot.engine.js';

const inboundPayload = z.object({
  tenantId: z.number().int().positive(),
  ticketId: z.number().int().positive(),
  messageId: z.number().int().positive(),
  /** The message made the ticket: its routing (a flow, distribution) runs once. */
  created: z.boolean(),
});
export type ChatbotInboundPayload = z.infer<typeof inboundPayload>;

export const CHATBOT_INBOUND_JOB: JobSpec<ChatbotInboundPayload> = {
  name: 'chatbot.inbound',
  schema: inboundPayload,
  retryLimit: 5,
  retryDelaySeconds: 5,
  expireInSeconds: 120,
};

export interface ChatbotRuntime {
  config: RoutingConfigCache;
  engine: ChatbotEngine;
  /** Locks the ticket, runs `fn` in one transaction and publishes the ticket after commit when it changed. */
  onTicket(
    tenantId: number,
    ticketId: number,
    fn: (tx: Tx, ticket: TicketRow) => Promise<RunOutcome>,
  ): Promise<RunOutcome | null>;
}

const runtimes = new WeakMap<object, ChatbotRuntime>();

/** The app's chatbot runtime (one per platform: the jobs, ingestion and the tickets port share its cache). */
export function chatbotRuntime(platform: Platform, options: { distribute?: DistributeTicket } = {}): ChatbotRuntime {
  const existing = runtimes.get(platform);
  if (existing) return existing;
  const config = createRoutingConfigCache();
  invalidateOnChanges(platform.events, config);
  const engine = createChatbotEngine({
    messaging: createTicketMessaging({ jobs: platform.jobs }),
    jobs: platform.jobs,
    config,
    distribute: options.distribute ?? distributeTicket,
    publicUrl: platform.config.publicUrl,
  });
  const runtime: ChatbotRuntime = {
    config,
    engine,
    async onTicket(tenantId, ticketId, fn) {
      const done = await withTenant(platform.db, systemContext(tenantId), async (tx) => {
        const ticket = await lockTicketAsSystem(tx, tenantId, ticketId);
        if (!ticket) return null;
        const outcome = await fn(tx, ticket);
        const dto = outcome.changed ? await loadTicketDto(tx, ticketId) : null;
        return { outcome, ticket, dto };
      });
      if (!done) return null;
      if (done.dto) {
        platform.events.publish('tickets.changed', {
          tenantId,
          type: 'ticket:update',
          ticket: done.dto,
          previousUserId: done.ticket.userId,
          previousQueueId: done.ticket.queueId,
          ...(done.outcome.notify ? { notify: true } : {}),
        });
      }
      return done.outcome;
    },
  };
  runtimes.set(platform, runtime);
  return runtime;
}

/** The tickets module's chatbot port: `PUT /ticketsChatBot/{id}` starts the flow in the tickets transaction. */
export function chatbotTicketPort(platform: Platform): TicketChatbotPort {
  return {
    async startFlow(tx, _ctx, ticket, chatFlowId) {
      const { notify } = await chatbotRuntime(platform).engine.startFlow(tx, ticket, chatFlowId);
      return { notify };
    },
  };
}

export function chatbotJobs(platform: Platform): JobDefinition<never>[] {
  const runtime = () => chatbotRuntime(platform);
  return [
    defineJob({
      ...CHATBOT_INBOUND_JOB,
      handler: async ({ tenantId, ticketId, messageId, created }) => {
        await runtime().onTicket(tenantId, ticketId, async (tx, ticket) => {
          const message = await loadInboundMessage(tx, messageId);
          if (!message || message.fromMe) return { changed: false, notify: false };
          return runtime().engine.inbound(tx, ticket, message, created);
        });
      },
    }),
    defineJob({
      ...CHATBOT_TIMEOUT_JOB,
      handler: async ({ tenantId, ticketId, token }) => {
        await runtime().onTicket(tenantId, ticketId, (tx, ticket) => runtime().engine.timeout(tx, ticket, token));
      },
    }),
    defineJob({
      ...CHATBOT_RESUME_JOB,
      handler: async ({ tenantId, ticketId, token }) => {
        await runtime().onTicket(tenantId, ticketId, (tx, ticket) => runtime().engine.resume(tx, ticket, token));
      },
    }),
  ] as never[];
}
