/**
 * The ticket state machine (product-spec §4 "Ticket status"): each function checks one transition against the
 * locked ticket and the actor and answers the step to apply (columns and the log row), or null when the ticket is
 * already in the asked state (a repeated call changes nothing and writes no log).
 */
import { isAdminProfile, type TicketLogType, type TicketStatus } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import * as repo from './tickets.repository.js';
import type { TicketPatch, TicketRow } from './tickets.repository.js';
import type { ChannelRow } from '../channels/index.js';
import type { TransitionRules } from './tickets.rules.js';

export interface Step {
  patch: TicketPatch;
  /** Left out only while a farewell close waits for its job (the job writes the `closed` log). */
  log?: { type: TicketLogType; details: Record<string, unknown> };
}

const isAdmin = (ctx: AuthedContext) => isAdminProfile(ctx.profile);
const isSupervisorOrAdmin = (ctx: AuthedContext) => ctx.profile !== 'user';
const stateOf = (t: Pick<TicketRow, 'status' | 'userId' | 'queueId'>) => ({
  status: t.status,
  userId: t.userId,
  queueId: t.queueId,
});

/** An agent acts on its own or unassigned tickets; supervisors and admins on any ticket they can see. */
export function assertMayHandle(ctx: AuthedContext, ticket: TicketRow): void {
  if (ticket.userId === null || ticket.userId === ctx.userId || isSupervisorOrAdmin(ctx)) return;
  throw fail('ERR_NO_PERMISSION');
}

/** A ticket a human moves leaves the chatbot (its flow or auto-reply and pending timer end). */
const leftByBot = (ticket: TicketRow): TicketPatch =>
  ticket.chatFlowId !== null ||
  ticket.autoReplyId !== null ||
  ticket.stepChatFlow !== null ||
  ticket.stepAutoReplyId !== null
    ? { chatFlowId: null, stepChatFlow: null, autoReplyId: null, stepAutoReplyId: null, botRetries: 0 }
    : {};

function step(ticket: TicketRow, type: TicketLogType, patch: TicketPatch, extra: Record<string, unknown> = {}): Step {
  const to = stateOf({ ...ticket, ...patch } as TicketRow);
  // Any move of the attendance cancels a farewell close still waiting for its job, and ends the bot's part (a
  // ticket an agent accepted and returned to the queue must not find the bot answering at a stale step).
  const moved: TicketPatch = type === 'chatBot' ? patch : { ...leftByBot(ticket), ...patch };
  const full: TicketPatch = patch.status === 'closed' ? moved : { closingAt: null, ...moved };
  return { patch: full, log: { type, details: { from: stateOf(ticket), to, ...extra } } };
}

async function assertUserOfTenant(tx: Tx, ctx: AuthedContext, userId: number): Promise<void> {
  if (!(await repo.userExists(tx, ctx.tenantId, userId))) throw fail('ERR_NO_USER_FOUND');
}

/**
 * pending -> open (accept), or open -> open with another user (take / assign). The user is the caller, unless an
 * admin names another; only an admin takes a ticket assigned to someone else.
 */
export async function planOpen(
  tx: Tx,
  ctx: AuthedContext,
  ticket: TicketRow,
  requestedUserId: number | null | undefined,
): Promise<Step | null> {
  const userId = isAdmin(ctx) && requestedUserId ? requestedUserId : ctx.userId;
  if (ticket.status === 'open' && ticket.userId === userId) return null;
  if (ticket.userId !== null && ticket.userId !== userId && !isAdmin(ctx)) throw fail('ERR_NO_PERMISSION');
  if (userId !== ctx.userId) await assertUserOfTenant(tx, ctx, userId);
  const type: TicketLogType = ticket.status === 'pending' ? 'open' : 'userDefine';
  return step(ticket, type, { status: 'open', userId, isTransference: false });
}

/**
 * open -> pending (return to queue): nobody holds it any more, unless the tenant flag `forcePendingUser` keeps the
 * user. pending -> pending is a look without taking it ("spying", client-contract §4.2): no change, except that
 * - an agent (profile user) may look at a pending ticket held by nobody else only while the setting `spyticket` is
 *   on (ERR_NO_PERMISSION otherwise: the agent accepts it instead);
 * - with the tenant flag `forceAdmin` an admin's look takes the ticket (pending -> open, assigned to the admin, log
 *   `open`): admins are forced to take the pending tickets they open.
 */
export function planReturnToQueue(ctx: AuthedContext, ticket: TicketRow, rules: TransitionRules): Step | null {
  if (ticket.status === 'pending') {
    if (ticket.userId === ctx.userId) return null;
    if (isAdmin(ctx) && rules.forceAdmin) {
      return step(ticket, 'open', { status: 'open', userId: ctx.userId, isTransference: false }, { forceAdmin: true });
    }
    if (ctx.profile === 'user' && !rules.spyticket) throw fail('ERR_NO_PERMISSION');
    return null;
  }
  assertMayHandle(ctx, ticket);
  return step(ticket, 'pending', { status: 'pending', userId: rules.forcePendingUser ? ticket.userId : null });
}

/**
 * The columns of a closed ticket (resolve, force close, silent close, farewell job). A rating still awaited is
 * abandoned: the customer's next message opens a new ticket, which is no answer.
 */
export function closedPatch(): TicketPatch {
  return { status: 'closed', closedAt: new Date(), closingAt: null, unreadMessages: 0, awaitingRating: false };
}

export function planClose(ticket: TicketRow, type: TicketLogType, extra: Record<string, unknown> = {}): Step | null {
  if (ticket.status === 'closed') return null;
  return step(ticket, type, closedPatch(), extra);
}

/**
 * Transfer to a queue and/or a user. Refused when it names the user the ticket already has, or its queue without
 * changing the user (ERR_TICKET_SAME_ASSIGNEE).
 */
export async function planTransfer(
  tx: Tx,
  ctx: AuthedContext,
  ticket: TicketRow,
  input: { userId?: number | null | undefined; queueId?: number | null | undefined },
): Promise<Step> {
  assertMayHandle(ctx, ticket);
  const userChanges = input.userId !== undefined && input.userId !== ticket.userId;
  if (input.userId !== undefined && input.userId !== null && input.userId === ticket.userId) {
    throw fail('ERR_TICKET_SAME_ASSIGNEE');
  }
  if (!userChanges && (input.queueId === undefined || input.queueId === ticket.queueId)) {
    throw fail('ERR_TICKET_SAME_ASSIGNEE');
  }
  const userId = input.userId === undefined ? ticket.userId : input.userId;
  const queueId = input.queueId === undefined ? ticket.queueId : input.queueId;
  if (userId !== null && userChanges) await assertUserOfTenant(tx, ctx, userId);
  if (queueId !== null && queueId !== ticket.queueId && !(await repo.queueExists(tx, ctx.tenantId, queueId))) {
    throw fail('ERR_NO_QUEUE_FOUND');
  }
  const status: TicketStatus = userId === null ? 'pending' : 'open';
  return step(ticket, 'transfered', { status, userId, queueId, isTransference: true });
}

/**
 * closed -> open, assigned to the caller. An agent (profile user) reopens a ticket that was someone else's only while
 * the setting `userReopenTicket` is on (its own, or one nobody held, always).
 */
export function planReopen(ctx: AuthedContext, ticket: TicketRow, rules: TransitionRules): Step {
  const someoneElses = ticket.userId !== null && ticket.userId !== ctx.userId;
  if (ctx.profile === 'user' && someoneElses && !rules.userReopenTicket) throw fail('ERR_NO_PERMISSION');
  // client-contract §4.3 has no `reopen`: a reopen is logged `open`, its details saying so.
  return step(
    ticket,
    'open',
    { status: 'open', userId: ctx.userId, closedAt: null, isFarewellMessage: false, isTransference: false },
    { reopened: true },
  );
}

/**
 * Hand the ticket to a chat flow: pending, nobody, the flow starting over (the chatbot engine then enters its first
 * step). A legacy auto-reply in progress and a pending bot timer end; the last message the bot read is kept.
 */
export function planChatBot(ticket: TicketRow, chatFlowId: number | null): Step {
  const lastMessageId = (ticket.chatbotState as { lastMessageId?: unknown }).lastMessageId;
  return step(
    ticket,
    'chatBot',
    {
      status: 'pending',
      userId: null,
      chatFlowId,
      stepChatFlow: null,
      autoReplyId: null,
      stepAutoReplyId: null,
      botRetries: 0,
      chatbotState: typeof lastMessageId === 'number' ? { lastMessageId } : {},
    },
    { chatFlowId },
  );
}

/** Move the ticket to another channel of the tenant. */
export function planChannelMove(ticket: TicketRow, channel: ChannelRow): Step | null {
  if (ticket.channelId === channel.id) return null;
  // Logged as the contract's `transfered` (client-contract §4.3 has no channel type); the details name the channels.
  return step(
    ticket,
    'transfered',
    { channelId: channel.id, channel: channel.type },
    { reason: 'channelMove', fromChannelId: ticket.channelId, toChannelId: channel.id },
  );
}
