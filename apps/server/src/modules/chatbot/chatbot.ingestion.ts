/**
 * Ingestion's hook (decisions §C "Idempotency and order"): in the transaction that stores customers' messages of
 * private chats, `chatbot.inbound` is enqueued (one insert for a batch) for
 * - a ticket the message just made, when the tenant's cached routing configuration says a flow, distribution or the
 *   absence message may apply (the first message of that ticket only: later ones of the same burst came before the
 *   bot said anything); its announcement then waits for the job (no `notify` at creation: agents are alerted when
 *   the humans get it, not while the bot talks);
 * - a message on a ticket the bot handles (the flow's answer; the state came with the ticket row: no look-up);
 * - a message that may get the absence message (outside business hours, not sent on that ticket yet), once per
 *   ticket and batch.
 * A tenant with nothing configured reads its cached configuration (a map look-up; a read every few seconds) and
 * enqueues nothing. A replayed webhook stores no message, so it enqueues nothing either.
 */
import type { Tx } from '../../platform/db/client.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { TicketRow } from '../tickets/index.js';
import { botHandles } from './chatbot.absence.js';
import {
  absenceDue,
  mayDistribute,
  mayRunFlow,
  type RoutingConfig,
  type RoutingConfigCache,
} from './chatbot.config.js';
import { CHATBOT_INBOUND_JOB, type ChatbotInboundPayload } from './chatbot.jobs.js';

/** A customer's message of a private chat, stored on its ticket (the row as it was before the message). */
export interface StoredInbound {
  ticket: TicketRow;
  created: boolean;
  messageId: number;
  channelId: number;
}

export interface ChatbotIngestionHook {
  /**
   * Enqueues the jobs the stored messages need, in `tx`; answers the new tickets whose announcement waits for their
   * job (published without `notify`).
   */
  afterStore(tx: Tx, tenantId: number, stored: readonly StoredInbound[]): Promise<ReadonlySet<number>>;
}

const NONE: ReadonlySet<number> = new Set();

export function createChatbotIngestionHook(deps: {
  jobs: JobQueue;
  config: RoutingConfigCache;
  now?: () => Date;
}): ChatbotIngestionHook {
  return {
    async afterStore(tx, tenantId, stored) {
      let config: RoutingConfig | null = null;
      const configOf = async () => (config ??= await deps.config.get(tx, tenantId));
      const at = deps.now?.() ?? new Date();
      const payloads: ChatbotInboundPayload[] = [];
      const seen = new Set<number>();
      let deferred: Set<number> | null = null;
      for (const { ticket, created, messageId, channelId } of stored) {
        if (ticket.isGroup || seen.has(ticket.id)) continue;
        const job = { tenantId, ticketId: ticket.id, messageId };
        if (created) {
          seen.add(ticket.id);
          const c = await configOf();
          const free = ticket.userId === null;
          const routes = free && (mayRunFlow(c, channelId) || mayDistribute(c, channelId, ticket.queueId));
          if (!routes && !absenceDue(c, at)) continue;
          payloads.push({ ...job, created: true });
          (deferred ??= new Set()).add(ticket.id);
        } else if (botHandles(ticket)) {
          payloads.push({ ...job, created: false });
        } else if (ticket.absenceSentAt === null && absenceDue(await configOf(), at)) {
          seen.add(ticket.id);
          payloads.push({ ...job, created: false });
        }
      }
      await deps.jobs.enqueueMany(CHATBOT_INBOUND_JOB, payloads, { tx });
      return deferred ?? NONE;
    },
  };
}
