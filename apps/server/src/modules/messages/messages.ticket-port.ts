/**
 * What the tickets module asks of the message pipeline (TicketMessagingPort), implemented here so tickets never
 * touch message rows: queue a system message (the farewell) inside the tickets transaction, and re-send the tenant's
 * stuck messages. Both only enqueue: the send job talks to the provider after the caller's commit.
 */
import { systemContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { findVisibleTicket, type TicketMessagingPort } from '../tickets/index.js';
import { SEND_MESSAGE_JOB } from './messages.jobs.js';
import { findStuckSends, updateMessage } from './messages.repository.js';
import { queueOutboundMessage } from './messages.send.js';

export function createTicketMessaging(deps: { jobs: JobQueue }): TicketMessagingPort {
  return {
    async queueSystemMessage(tx, ctx, ticketId, body, sendType, options = {}) {
      // The tickets service already authorised the caller: read the ticket as the system would.
      const ticket = await findVisibleTicket(tx, systemContext(ctx.tenantId), ticketId);
      if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
      const values = { body, quotedMsgId: null, idFront: null, sendType, media: null };
      // The caller commits (and publishes its ticket event); the send job announces the message with chat:create.
      await queueOutboundMessage(tx, deps.jobs, ctx, ticket, values, { announce: true, ...options });
    },

    async requeueStuckSends(tx, ctx) {
      const stuck = await findStuckSends(tx);
      for (const message of stuck) {
        await updateMessage(tx, message.id, { isDelayed: false, sendAttempts: 0, sendError: null });
        await deps.jobs.enqueue(SEND_MESSAGE_JOB, { tenantId: ctx.tenantId, messageId: message.id }, { tx });
      }
      return stuck.length;
    },
  };
}
