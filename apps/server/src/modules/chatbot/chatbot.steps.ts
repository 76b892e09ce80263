/**
 * The chatbot's steps (decisions §C): entering a flow's node and running its interactions, acting on a condition or
 * an action, taking a customer's answer, and leaving the bot (handover to the humans, the flow's end, closing). Each
 * step works on the run (chatbot.run.ts) its entry point (chatbot.engine.ts) opened.
 */
import crypto from 'node:crypto';
import type { DistributionMode, TicketLogType } from '@conversa/shared';
import { closedPatch, logTicketAsSystem, queueOfTenant, userOfTenant, type TicketPatch } from '../tickets/index.js';
import { absenceApplies } from './chatbot.absence.js';
import { loadRunnableAutoReply, loadRunnableFlow, type Runnable } from './chatbot.runnable.js';
import {
  answerText,
  destinationOf,
  idle,
  owner,
  pickCondition,
  released,
  type ChatbotState,
  type Destination,
  type InboundMessage,
  type Run,
} from './chatbot.run.js';
import { armDelay, armTimeout } from './chatbot.timers.js';

// ---------- leaving the bot ----------

/** After the humans got the ticket: distribution (when nobody holds it) and the absence rule. */
export async function afterHandover(run: Run, mode: DistributionMode | undefined): Promise<void> {
  run.notify = true;
  if (run.ticket.userId === null && run.ticket.status === 'pending') {
    const { userId } = await run.deps.distribute(run.tx, run.ctx, run.ticket.id, mode ? { mode } : {});
    if (userId !== null) {
      run.ticket = { ...run.ticket, userId };
      run.changed = true;
    }
  }
  await sendAbsence(run);
}

/**
 * Handover (decisions §C): the bot state cleared, the queue or the user set (status stays pending: the agent
 * accepts it), a log row, then distribution for a queue and the absence rule. A destination that is not (or no
 * longer) the tenant's is none: the ticket stays in its queue.
 */
export async function handover(
  run: Run,
  runnable: Runnable | null,
  destination: Destination,
  type: TicketLogType = 'chatBot',
  extra: Record<string, unknown> = {},
): Promise<void> {
  const { tenantId } = run.ctx;
  const patch = released(run);
  let details: Record<string, unknown>;
  if ('userId' in destination && destination.userId && (await userOfTenant(run.tx, tenantId, destination.userId))) {
    patch.userId = destination.userId;
    details = { to: 'user', userId: destination.userId };
  } else {
    const queueId = 'queueId' in destination ? destination.queueId : null;
    if (queueId && (await queueOfTenant(run.tx, tenantId, queueId))) patch.queueId = queueId;
    details = { to: 'queue', queueId: patch.queueId ?? run.ticket.queueId };
  }
  await run.patch(patch);
  await logTicketAsSystem(run.tx, tenantId, run.ticket.id, type, { ...details, ...owner(runnable), ...extra });
  await afterHandover(run, runnable?.config.autoDistributeTickets);
}

/** The flow ends without a destination: the ticket stays pending in its queue (distribution runs). */
export const endFlow = (run: Run, runnable: Runnable | null) =>
  handover(run, runnable, { queueId: null }, 'chatBot', { reason: 'ended' });

/** Action 4: the farewell (when set), then the ticket closes as the system. */
async function close(run: Run, runnable: Runnable): Promise<void> {
  const farewell = runnable.config.farewellMessage?.message ?? '';
  if (farewell.trim()) await run.say(farewell);
  const from = { status: run.ticket.status, userId: run.ticket.userId, queueId: run.ticket.queueId };
  await run.patch({ ...released(run), ...closedPatch() });
  await logTicketAsSystem(run.tx, run.ctx.tenantId, run.ticket.id, 'closed', {
    from,
    to: { status: 'closed', userId: run.ticket.userId, queueId: run.ticket.queueId },
    reason: 'chatBot',
    ...owner(runnable),
  });
}

export async function sendAbsence(run: Run): Promise<void> {
  if (!absenceApplies(run.ticket, run.config, run.now)) return;
  await run.say(run.config.absenceMessage, 'absence');
  await run.patch({ absenceSentAt: run.now });
}

// ---------- running ----------

/** Where the ticket is: the runnable's step (the bot state's columns). */
async function position(
  run: Run,
  runnable: Runnable,
  nodeId: string,
  state: ChatbotState,
  extra: TicketPatch = {},
): Promise<void> {
  const at =
    runnable.kind === 'flow'
      ? { chatFlowId: runnable.id, stepChatFlow: nodeId, autoReplyId: null, stepAutoReplyId: null }
      : { autoReplyId: runnable.id, stepAutoReplyId: Number(nodeId), chatFlowId: null, stepChatFlow: null };
  await run.patchState(state, { ...at, ...extra });
}

/** Starts a runnable at its start: the welcome message, then its first step. */
export async function start(run: Run, runnable: Runnable): Promise<void> {
  const state: ChatbotState = { ...idle(run.state), flowRunId: crypto.randomUUID() };
  if (!runnable.first || !runnable.nodes.has(runnable.first)) return endFlow(run, runnable);
  await position(run, runnable, runnable.first, state, { botRetries: 0 });
  const welcome = runnable.config.welcomeMessage?.message ?? '';
  if (welcome.trim()) await run.say(welcome);
  await enter(run, runnable, runnable.first);
}

/**
 * Enters a step: its interactions from `from` on (a DelayField continues in a job), then its first action, an
 * automatic condition, the wait for an answer, or the flow's end.
 */
export async function enter(run: Run, runnable: Runnable, nodeId: string | null | undefined, from = 0): Promise<void> {
  const node = nodeId ? runnable.nodes.get(nodeId) : undefined;
  if (!node || !run.countStep()) return endFlow(run, runnable);
  await position(run, runnable, node.id, idle(run.state));
  for (let i = from; i < node.interactions.length; i += 1) {
    const interaction = node.interactions[i]!;
    if (interaction.type === 'MessageField') await run.say(interaction.data.message);
    if (interaction.type === 'MediaField') await run.sendMedia(interaction.data);
    if (interaction.type === 'DelayField') return armDelay(run, i + 1, interaction.data.seconds);
  }
  const [action] = node.actions;
  if (action) return act(run, runnable, action);
  const automatic = node.conditions.find((c) => c.type === 'A');
  if (automatic) return act(run, runnable, automatic);
  if (node.conditions.length === 0) return endFlow(run, runnable);
  // Waits for the answer; the no-response timer starts when the flow sets one.
  const minutes = runnable.config.notResponseMessage?.time ?? 0;
  if (minutes > 0) await armTimeout(run, minutes);
}

/** A condition's or a step's action: 0 step, 1 queue, 2 user, 3 another flow, 4 close. */
async function act(
  run: Run,
  runnable: Runnable,
  action: {
    action: number;
    nextStepId?: string | null;
    queueId?: number | null;
    userIdDestination?: number | null;
    chatFlowId?: number | null;
  },
): Promise<void> {
  switch (action.action) {
    case 0:
      return enter(run, runnable, action.nextStepId);
    case 1:
      return handover(run, runnable, { queueId: action.queueId ?? null });
    case 2:
      return handover(run, runnable, { userId: action.userIdDestination ?? null });
    case 3: {
      const next = action.chatFlowId ? await loadRunnableFlow(run.tx, action.chatFlowId) : null;
      // Only an active flow that is not deleted takes over; otherwise the flow ends here.
      if (!next || !next.isActive || next.isDeleted || !run.countStep()) return endFlow(run, runnable);
      return start(run, next);
    }
    case 4:
      return close(run, runnable);
    default:
      return endFlow(run, runnable);
  }
}

/** The runnable the ticket is in (flow or auto-reply), or null. */
export async function current(run: Run): Promise<Runnable | null> {
  const t = run.ticket;
  if (t.chatFlowId !== null && t.stepChatFlow !== null) return loadRunnableFlow(run.tx, t.chatFlowId);
  if (t.autoReplyId !== null && t.stepAutoReplyId !== null) return loadRunnableAutoReply(run.tx, t.autoReplyId);
  return null;
}

export const currentStep = (run: Run): string | null =>
  run.ticket.stepChatFlow ?? (run.ticket.stepAutoReplyId !== null ? String(run.ticket.stepAutoReplyId) : null);

/** A customer's answer on a ticket the bot handles. */
export async function answer(run: Run, message: InboundMessage): Promise<void> {
  const runnable = await current(run);
  if (!runnable) return endFlow(run, null);
  // A step still sending (a delay pending) takes no answer: the message waits for the humans.
  if (run.state.timerKind === 'delay') return;
  const node = runnable.nodes.get(currentStep(run) ?? '');
  if (!node) return endFlow(run, runnable);
  const match = pickCondition(node.conditions, answerText(message));
  if (match) {
    await run.patchState(idle(run.state), { botRetries: 0 });
    if (match.reply) await run.say(match.reply);
    return act(run, runnable, match);
  }
  const retries = run.ticket.botRetries + 1;
  await run.patchState(idle(run.state), { botRetries: retries });
  const limit = runnable.config.maxRetryBotMessage;
  if (limit && limit.number > 0 && retries >= limit.number) {
    const type = limit.type === 2 ? 'retriesLimitUserDefine' : 'retriesLimitQueue';
    return handover(run, runnable, destinationOf(limit), type, { retries });
  }
  const invalid = runnable.config.notOptionsSelectMessage;
  if (invalid?.message.trim()) await run.say(invalid.message);
  return invalid?.stepReturn === 'S' ? enter(run, runnable, runnable.first) : enter(run, runnable, node.id);
}
