/**
 * The chatbot engine (decisions §C, ARCHITECTURE §6k): runs chat flows and legacy auto-replies on customers'
 * conversations. Every entry point works on a ticket row its caller locked (`select ... for update`) inside one
 * transaction, acts as the system, queues what the bot says through the tickets messaging port (sendType 'chatbot',
 * so a rollback sends nothing) and answers what the caller publishes after commit.
 *
 * Ticket state: chat_flow_id + step_chat_flow (flows) or auto_reply_id + step_auto_reply_id (auto-replies) while the
 * bot runs, bot_retries (invalid answers in a row), chatbot_state `{ lastMessageId, timer, timerKind, resumeIndex,
 * flowRunId, routed }`: `timer` is the token of the one pending timer (a DelayField's continuation or the no-response
 * timeout); a job whose token is no longer the ticket's does nothing.
 *
 * The engine in files: this one holds the entry points; chatbot.run.ts the run and its state, chatbot.steps.ts the
 * steps (enter, act, answer, handover), chatbot.routing.ts which flow a new conversation gets, chatbot.timers.ts the
 * timer jobs.
 */
import { eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.js';
import { systemContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import { messages } from '../messages/messages.tables.js';
import type { TicketRow } from '../tickets/index.js';
import { botHandles } from './chatbot.absence.js';
import { loadRunnableFlow } from './chatbot.runnable.js';
import { route } from './chatbot.routing.js';
import { destinationOf, outcome, Run, type EngineDeps, type InboundMessage, type RunOutcome } from './chatbot.run.js';
import { answer, current, currentStep, endFlow, enter, handover, sendAbsence, start } from './chatbot.steps.js';

export { CHATBOT_RESUME_JOB, CHATBOT_TIMEOUT_JOB } from './chatbot.timers.js';
export type { TimerPayload } from './chatbot.timers.js';
export { pickCondition, stateOf } from './chatbot.run.js';
export type { ChatbotState, DistributeTicket, EngineDeps, InboundMessage, RunOutcome } from './chatbot.run.js';

export function createChatbotEngine(deps: EngineDeps) {
  const now = deps.now ?? (() => new Date());

  const newRun = async (tx: Tx, ticket: TicketRow): Promise<Run> => {
    const ctx = systemContext(ticket.tenantId);
    return new Run(deps, tx, ctx, ticket, await deps.config.get(tx, ticket.tenantId), now());
  };

  return {
    /**
     * A customer's message (the `chatbot.inbound` job): a new ticket is routed once (whatever the order its jobs run
     * in); otherwise a message already read (id <= lastMessageId) is skipped, an answer on a ticket the bot handles
     * moves the flow, and any other message may get the absence message.
     */
    async inbound(tx: Tx, ticket: TicketRow, message: InboundMessage, created: boolean): Promise<RunOutcome> {
      const run = await newRun(tx, ticket);
      const state = run.state;
      const seen = state.lastMessageId !== undefined && message.id <= state.lastMessageId;
      if (created && !state.routed && ticket.status !== 'closed') {
        await run.patchState({ ...state, lastMessageId: Math.max(message.id, state.lastMessageId ?? 0) });
        await route(run, message);
        return outcome(run);
      }
      if (seen || message.fromMe || ticket.status === 'closed') return outcome(run);
      await run.patchState({ ...state, lastMessageId: message.id });
      if (botHandles(run.ticket)) await answer(run, message);
      else await sendAbsence(run);
      return outcome(run);
    },

    /** The no-response timer fired: when the ticket still waits with that token, the message and the handover. */
    async timeout(tx: Tx, ticket: TicketRow, token: string): Promise<RunOutcome> {
      const run = await newRun(tx, ticket);
      const state = run.state;
      if (state.timer !== token || state.timerKind !== 'timeout' || !botHandles(ticket)) return outcome(run);
      const runnable = await current(run);
      const config = runnable?.config.notResponseMessage;
      if (config?.message.trim()) await run.say(config.message);
      await handover(run, runnable, destinationOf(config), 'chatBot', { reason: 'noResponse' });
      return outcome(run);
    },

    /** A DelayField's wait ended: the rest of the step, when the ticket is still at it with that token. */
    async resume(tx: Tx, ticket: TicketRow, token: string): Promise<RunOutcome> {
      const run = await newRun(tx, ticket);
      const state = run.state;
      if (state.timer !== token || state.timerKind !== 'delay' || !botHandles(ticket)) return outcome(run);
      const runnable = await current(run);
      if (!runnable) {
        await endFlow(run, null);
        return outcome(run);
      }
      await enter(run, runnable, currentStep(run), state.resumeIndex ?? 0);
      run.notify = !botHandles(run.ticket);
      return outcome(run);
    },

    /**
     * `PUT /ticketsChatBot/{id}`: the ticket (already handed: pending, nobody) runs flow `flowId` from its start. A
     * missing or deleted flow answers 404 ERR_NO_AUTO_REPLY_FOUND; an inactive one runs (an agent chose it).
     */
    async startFlow(tx: Tx, ticket: TicketRow, flowId: number): Promise<RunOutcome> {
      const runnable = await loadRunnableFlow(tx, flowId);
      if (!runnable || runnable.isDeleted) throw fail('ERR_NO_AUTO_REPLY_FOUND');
      const run = await newRun(tx, ticket);
      await start(run, runnable);
      run.notify = !botHandles(run.ticket);
      return outcome(run);
    },
  };
}

export type ChatbotEngine = ReturnType<typeof createChatbotEngine>;

/** The message an inbound job names (the tenant's, RLS). */
export async function loadInboundMessage(tx: Tx, id: number): Promise<InboundMessage | null> {
  const [row] = await tx
    .select({ id: messages.id, body: messages.body, mediaType: messages.mediaType, fromMe: messages.fromMe })
    .from(messages)
    .where(eq(messages.id, id));
  return row ?? null;
}
