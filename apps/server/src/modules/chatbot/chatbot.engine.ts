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
 */
import crypto from 'node:crypto';
import { and, asc, eq, or } from 'drizzle-orm';
import {
  normalizeAnswer,
  type ChatFlowConfigurations,
  type ChatFlowInteraction,
  type DistributionMode,
  type TicketLogType,
} from '@conversa/shared';
import { z } from 'zod';
import type { Tx } from '../../platform/db/client.js';
import { systemContext, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import type { JobQueue, JobSpec } from '../../platform/jobs/queue.js';
import { channels } from '../channels/channels.tables.js';
import { contacts } from '../contacts/contacts.tables.js';
import { messages } from '../messages/messages.tables.js';
import {
  closedPatch,
  contactHadEarlierTicket,
  logTicketAsSystem,
  queueOfTenant,
  updateTicketAsSystem,
  userOfTenant,
  type TicketMessagingPort,
  type TicketPatch,
  type TicketRow,
} from '../tickets/index.js';
import { absenceApplies, botHandles } from './chatbot.absence.js';
import { isOpen, type RoutingConfig, type RoutingConfigCache } from './chatbot.config.js';
import { flowMediaKeyOf } from './chatbot.media.js';
import { loadRunnableAutoReply, loadRunnableFlow, type Runnable, type RunnableCondition } from './chatbot.runnable.js';
import { autoReplies, chatFlows } from './chatbot.tables.js';

// ---------- jobs the engine enqueues (handlers: chatbot.jobs.ts) ----------

const timerPayload = z.object({
  tenantId: z.number().int().positive(),
  ticketId: z.number().int().positive(),
  token: z.string().min(1).max(100),
});
export type TimerPayload = z.infer<typeof timerPayload>;

/** No answer within notResponseMessage.time minutes: the message, then the destination. */
export const CHATBOT_TIMEOUT_JOB: JobSpec<TimerPayload> = {
  name: 'chatbot.timeout',
  schema: timerPayload,
  retryLimit: 5,
  retryDelaySeconds: 5,
  expireInSeconds: 120,
};

/** A DelayField's wait is over: the rest of the step continues. */
export const CHATBOT_RESUME_JOB: JobSpec<TimerPayload> = {
  name: 'chatbot.resume',
  schema: timerPayload,
  retryLimit: 5,
  retryDelaySeconds: 5,
  expireInSeconds: 120,
};

// ---------- state ----------

export interface ChatbotState {
  lastMessageId?: number;
  timer?: string;
  timerKind?: 'delay' | 'timeout';
  /** The interaction a delay's continuation starts at. */
  resumeIndex?: number;
  flowRunId?: string;
  /** The new ticket's routing ran (a flow, distribution or nothing): set by the first inbound job. */
  routed?: boolean;
}

export const stateOf = (ticket: Pick<TicketRow, 'chatbotState'>): ChatbotState =>
  (ticket.chatbotState ?? {}) as ChatbotState;

/** The distribution of decisions §E (tickets.distribution.ts), injected. */
export type DistributeTicket = (
  tx: Tx,
  ctx: TenantContext,
  ticketId: number,
  options: { mode?: DistributionMode },
) => Promise<{ userId: number | null; reason: string }>;

export interface EngineDeps {
  messaging: TicketMessagingPort;
  jobs: JobQueue;
  config: RoutingConfigCache;
  distribute: DistributeTicket;
  /** PUBLIC_URL (no trailing slash): a MediaField's server path becomes absolute. */
  publicUrl: string;
  now?: () => Date;
}

/** What a run did: the caller publishes `tickets.changed` after commit when `changed`, with `notify` when set. */
export interface RunOutcome {
  changed: boolean;
  notify: boolean;
}

export interface InboundMessage {
  id: number;
  body: string;
  mediaType: string;
  fromMe: boolean;
}

type Destination = { queueId: number | null } | { userId: number | null };

/** Steps entered in one run at most (flows switching to each other at once could otherwise never stop). */
const MAX_STEPS_PER_RUN = 100;

/** One engine run: one transaction on one locked ticket. */
class Run {
  ticket: TicketRow;
  changed = false;
  notify = false;
  private priority = 1000;
  private steps = 0;
  private contact: { name: string; number: string | null; chatbotBlocked: boolean } | null = null;

  constructor(
    readonly deps: EngineDeps,
    readonly tx: Tx,
    readonly ctx: TenantContext,
    ticket: TicketRow,
    readonly config: RoutingConfig,
    readonly now: Date,
  ) {
    this.ticket = ticket;
  }

  get state(): ChatbotState {
    return stateOf(this.ticket);
  }

  async patch(patch: TicketPatch): Promise<void> {
    this.ticket = await updateTicketAsSystem(this.tx, this.ctx.tenantId, this.ticket.id, patch);
    this.changed = true;
  }

  async patchState(state: ChatbotState, patch: TicketPatch = {}): Promise<void> {
    await this.patch({ ...patch, chatbotState: state as Record<string, unknown> });
  }

  countStep(): boolean {
    this.steps += 1;
    return this.steps <= MAX_STEPS_PER_RUN;
  }

  async contactOf() {
    if (this.contact) return this.contact;
    const [row] = await this.tx
      .select({ name: contacts.name, number: contacts.number, chatbotBlocked: contacts.chatbotBlocked })
      .from(contacts)
      .where(eq(contacts.id, this.ticket.contactId));
    this.contact = row ?? { name: '', number: null, chatbotBlocked: false };
    return this.contact;
  }

  /**
   * Messages queued in one transaction go out in the order queued (higher priority first). Placeholders ({{name}},
   * {{firstName}}, {{protocol}}, {{greeting}}) are rendered by the messaging port, the one renderer of every text
   * the server sends for a ticket (messages.placeholders.ts).
   */
  async say(text: string, sendType: 'chatbot' | 'absence' = 'chatbot'): Promise<void> {
    const body = text.trim();
    if (!body) return;
    await this.deps.messaging.queueSystemMessage(this.tx, this.ctx, this.ticket.id, body, sendType, {
      priority: this.priority--,
    });
  }

  async sendMedia(data: Extract<ChatFlowInteraction, { type: 'MediaField' }>['data']): Promise<void> {
    const url = data.mediaUrl.startsWith('/') ? `${this.deps.publicUrl}${data.mediaUrl}` : data.mediaUrl;
    const caption = data.caption || null;
    // A file the flow's builder uploaded is read from the store; any other address is fetched by the send.
    const stored = flowMediaKeyOf(this.ctx.tenantId, data.mediaUrl);
    await this.deps.messaging.queueSystemMedia(
      this.tx,
      this.ctx,
      this.ticket.id,
      { url, type: data.type, name: data.name ?? null, caption, stored },
      'chatbot',
      { priority: this.priority-- },
    );
  }
}

const digitsOf = (value: string | null): string | null => (value ? value.replace(/\D/g, '') || null : null);

/** The text an answer is compared as: media or an empty text count as ''. */
const answerText = (message: InboundMessage): string => (message.mediaType === 'chat' ? message.body : '');

const keywordsOf = (config: ChatFlowConfigurations): string[] =>
  (config.keyword?.message ?? '')
    .split(',')
    .map((word) => normalizeAnswer(word))
    .filter(Boolean);

/** Conditions in order: a `US` whose word equals the answer, or an `R`; else the first `O`. */
export function pickCondition(conditions: readonly RunnableCondition[], text: string): RunnableCondition | null {
  const answer = normalizeAnswer(text);
  const hit = conditions.find(
    (c) =>
      c.type === 'R' ||
      (c.type === 'US' && answer !== '' && c.condition.some((word) => normalizeAnswer(word) === answer)),
  );
  return hit ?? conditions.find((c) => c.type === 'O') ?? null;
}

const destinationOf = (target: { type: 1 | 2; destiny: number | null } | undefined): Destination =>
  target?.type === 2 ? { userId: target.destiny } : { queueId: target?.destiny ?? null };

export function createChatbotEngine(deps: EngineDeps) {
  const now = deps.now ?? (() => new Date());

  const newRun = async (tx: Tx, ticket: TicketRow): Promise<Run> => {
    const ctx = systemContext(ticket.tenantId);
    return new Run(deps, tx, ctx, ticket, await deps.config.get(tx, ticket.tenantId), now());
  };

  // ---------- leaving the bot ----------

  /** The columns of a ticket the bot no longer handles (the last message read and the routing mark kept). */
  const released = (run: Run): TicketPatch => ({
    chatFlowId: null,
    stepChatFlow: null,
    autoReplyId: null,
    stepAutoReplyId: null,
    botRetries: 0,
    chatbotState: {
      ...(run.state.lastMessageId !== undefined ? { lastMessageId: run.state.lastMessageId } : {}),
      ...(run.state.routed ? { routed: true } : {}),
    },
  });

  const owner = (runnable: Runnable | null) =>
    runnable ? (runnable.kind === 'flow' ? { flowId: runnable.id } : { autoReplyId: runnable.id }) : {};

  /** After the humans got the ticket: distribution (when nobody holds it) and the absence rule. */
  async function afterHandover(run: Run, mode: DistributionMode | undefined): Promise<void> {
    run.notify = true;
    if (run.ticket.userId === null && run.ticket.status === 'pending') {
      const { userId } = await deps.distribute(run.tx, run.ctx, run.ticket.id, mode ? { mode } : {});
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
  async function handover(
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
  const endFlow = (run: Run, runnable: Runnable | null) =>
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

  async function sendAbsence(run: Run): Promise<void> {
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

  /** The state with no timer pending. */
  const idle = (state: ChatbotState): ChatbotState => {
    const { timer: _t, timerKind: _k, resumeIndex: _r, ...rest } = state;
    return rest;
  };

  /** Starts a runnable at its start: the welcome message, then its first step. */
  async function start(run: Run, runnable: Runnable): Promise<void> {
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
  async function enter(run: Run, runnable: Runnable, nodeId: string | null | undefined, from = 0): Promise<void> {
    const node = nodeId ? runnable.nodes.get(nodeId) : undefined;
    if (!node || !run.countStep()) return endFlow(run, runnable);
    await position(run, runnable, node.id, idle(run.state));
    for (let i = from; i < node.interactions.length; i += 1) {
      const interaction = node.interactions[i]!;
      if (interaction.type === 'MessageField') await run.say(interaction.data.message);
      if (interaction.type === 'MediaField') await run.sendMedia(interaction.data);
      if (interaction.type === 'DelayField') {
        const token = crypto.randomUUID();
        await run.patchState({ ...run.state, timer: token, timerKind: 'delay', resumeIndex: i + 1 });
        const payload = { tenantId: run.ctx.tenantId, ticketId: run.ticket.id, token };
        await deps.jobs.enqueue(CHATBOT_RESUME_JOB, payload, {
          tx: run.tx,
          startAfterSeconds: interaction.data.seconds,
        });
        return;
      }
    }
    const [action] = node.actions;
    if (action) return act(run, runnable, action);
    const automatic = node.conditions.find((c) => c.type === 'A');
    if (automatic) return act(run, runnable, automatic);
    if (node.conditions.length === 0) return endFlow(run, runnable);
    // Waits for the answer; the no-response timer starts when the flow sets one.
    const minutes = runnable.config.notResponseMessage?.time ?? 0;
    if (minutes > 0) {
      const token = crypto.randomUUID();
      await run.patchState({ ...run.state, timer: token, timerKind: 'timeout' });
      const payload = { tenantId: run.ctx.tenantId, ticketId: run.ticket.id, token };
      await deps.jobs.enqueue(CHATBOT_TIMEOUT_JOB, payload, { tx: run.tx, startAfterSeconds: minutes * 60 });
    }
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
  async function current(run: Run): Promise<Runnable | null> {
    const t = run.ticket;
    if (t.chatFlowId !== null && t.stepChatFlow !== null) return loadRunnableFlow(run.tx, t.chatFlowId);
    if (t.autoReplyId !== null && t.stepAutoReplyId !== null) return loadRunnableAutoReply(run.tx, t.autoReplyId);
    return null;
  }

  const currentStep = (run: Run): string | null =>
    run.ticket.stepChatFlow ?? (run.ticket.stepAutoReplyId !== null ? String(run.ticket.stepAutoReplyId) : null);

  /** A customer's answer on a ticket the bot handles. */
  async function answer(run: Run, message: InboundMessage): Promise<void> {
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

  // ---------- which flow a new conversation gets ----------

  async function flowFor(run: Run, digits: string | null): Promise<Runnable | null> {
    const { tx } = run;
    if (digits) {
      const [test] = await tx
        .select({ id: chatFlows.id })
        .from(chatFlows)
        .where(and(eq(chatFlows.celularTeste, digits), eq(chatFlows.isActive, false), eq(chatFlows.isDeleted, false)))
        .orderBy(asc(chatFlows.id))
        .limit(1);
      if (test) return loadRunnableFlow(tx, test.id);
    }
    const runnableFlow = async (id: number | null | undefined) => {
      const flow = id ? await loadRunnableFlow(tx, id) : null;
      return flow?.isActive && !flow.isDeleted ? flow : null;
    };
    if (run.ticket.channelId !== null) {
      const [channel] = await tx
        .select({ chatFlowId: channels.chatFlowId })
        .from(channels)
        .where(eq(channels.id, run.ticket.channelId));
      const flow = await runnableFlow(channel?.chatFlowId);
      if (flow) return flow;
    }
    const byDefault = await runnableFlow(run.config.defaultFlowId);
    if (byDefault) return byDefault;
    const legacy = await tx
      .select({ id: autoReplies.id, isActive: autoReplies.isActive, celularTeste: autoReplies.celularTeste })
      .from(autoReplies)
      .where(
        and(
          eq(autoReplies.action, 0),
          digits
            ? or(eq(autoReplies.isActive, true), eq(autoReplies.celularTeste, digits))
            : eq(autoReplies.isActive, true),
        ),
      )
      .orderBy(asc(autoReplies.id));
    // A test number's inactive auto-reply first, then the active one.
    const chosen =
      legacy.find((r) => !r.isActive && digits && r.celularTeste === digits) ?? legacy.find((r) => r.isActive);
    return chosen ? loadRunnableAutoReply(tx, chosen.id) : null;
  }

  /** A new customer conversation: a flow, or the humans (distribution and the absence rule). */
  async function route(run: Run, message: InboundMessage): Promise<void> {
    await run.patchState({ ...run.state, routed: true });
    run.notify = true;
    const t = run.ticket;
    const eligible = !t.isGroup && t.status === 'pending' && t.userId === null && !message.fromMe;
    const contact = eligible ? await run.contactOf() : null;
    const runnable = contact && !contact.chatbotBlocked ? await flowFor(run, digitsOf(contact.number)) : null;
    if (!runnable) return afterHandover(run, undefined);
    const config = runnable.config;
    const keywords = keywordsOf(config);
    if (keywords.length > 0) {
      const text = normalizeAnswer(answerText(message));
      if (!keywords.some((word) => text.includes(word))) return afterHandover(run, undefined);
    }
    if (config.firstInteraction && (await contactHadEarlierTicket(run.tx, t.contactId, t.id))) {
      return handover(run, runnable, destinationOf(config.firstInteraction), 'chatBot', {
        reason: 'firstInteraction',
      });
    }
    if (config.outOpenHours && !isOpen(run.config, run.now)) {
      return handover(run, runnable, destinationOf(config.outOpenHours), 'chatBot', { reason: 'outOpenHours' });
    }
    await start(run, runnable);
    run.notify = !botHandles(run.ticket);
  }

  const outcome = (run: Run): RunOutcome => ({ changed: run.changed || run.notify, notify: run.notify });

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
