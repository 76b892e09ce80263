/**
 * The absence message (product-spec §4 business hours; ARCHITECTURE §6k): the tenant's `messageBusinessHours`, sent
 * at most once per ticket (`tickets.absence_sent_at`), never to a group, never while the bot handles the ticket,
 * when the company is closed (the tenant's business hours in its time zone). It goes on a customer's message outside
 * hours on a ticket the bot does not handle, and right after the bot hands a ticket over outside hours ("sent after
 * automatic attendance ends"). The tenant flag `maxRetries` plays no part in it; the spec gives channels no hours of
 * their own, so the tenant's hours hold for every channel.
 */
import type { TicketRow } from '../tickets/index.js';
import { absenceDue, type RoutingConfig } from './chatbot.config.js';

/** "The bot handles the ticket" (decisions §C): pending, nobody, and a flow or an auto-reply at a step. */
export const botHandles = (
  ticket: Pick<TicketRow, 'status' | 'userId' | 'chatFlowId' | 'stepChatFlow' | 'autoReplyId' | 'stepAutoReplyId'>,
): boolean =>
  ticket.status === 'pending' &&
  ticket.userId === null &&
  ((ticket.chatFlowId !== null && ticket.stepChatFlow !== null) ||
    (ticket.autoReplyId !== null && ticket.stepAutoReplyId !== null));

/** Whether the absence message goes to this ticket now. */
export function absenceApplies(
  ticket: Pick<
    TicketRow,
    | 'status'
    | 'userId'
    | 'chatFlowId'
    | 'stepChatFlow'
    | 'autoReplyId'
    | 'stepAutoReplyId'
    | 'isGroup'
    | 'absenceSentAt'
  >,
  config: RoutingConfig,
  at: Date,
): boolean {
  if (ticket.isGroup || ticket.absenceSentAt !== null || ticket.status === 'closed' || botHandles(ticket)) return false;
  return absenceDue(config, at);
}
