/**
 * One chatbot engine run (chatbot.engine.ts): the ticket's bot state, the run object every step works on (one
 * transaction on one locked ticket) and the small pure rules the steps share (which condition an answer picks, where
 * a destination points, what a released ticket keeps).
 */
import { eq } from 'drizzle-orm';
import {
  normalizeAnswer,
  type ChatFlowConfigurations,
  type ChatFlowInteraction,
  type DistributionMode,
} from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import type { TenantContext } from '../../platform/db/tenancy.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { contacts } from '../contacts/contacts.tables.js';
import { updateTicketAsSystem, type TicketMessagingPort, type TicketPatch, type TicketRow } from '../tickets/index.js';
import type { RoutingConfig, RoutingConfigCache } from './chatbot.config.js';
import { flowMediaKeyOf } from './chatbot.media.js';
import type { Runnable, RunnableCondition } from './chatbot.runnable.js';

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

/** The state with no timer pending. */
export const idle = (state: ChatbotState): ChatbotState => {
  const { timer: _t, timerKind: _k, resumeIndex: _r, ...rest } = state;
  return rest;
};

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

export type Destination = { queueId: number | null } | { userId: number | null };

/** Steps entered in one run at most (flows switching to each other at once could otherwise never stop). */
const MAX_STEPS_PER_RUN = 100;

// ---------- the run ----------

/** One engine run: one transaction on one locked ticket. */
export class Run {
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

export const outcome = (run: Run): RunOutcome => ({ changed: run.changed || run.notify, notify: run.notify });

// ---------- shared rules ----------

export const digitsOf = (value: string | null): string | null => (value ? value.replace(/\D/g, '') || null : null);

/** The text an answer is compared as: media or an empty text count as ''. */
export const answerText = (message: InboundMessage): string => (message.mediaType === 'chat' ? message.body : '');

export const keywordsOf = (config: ChatFlowConfigurations): string[] =>
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

export const destinationOf = (target: { type: 1 | 2; destiny: number | null } | undefined): Destination =>
  target?.type === 2 ? { userId: target.destiny } : { queueId: target?.destiny ?? null };

/** The columns of a ticket the bot no longer handles (the last message read and the routing mark kept). */
export const released = (run: Run): TicketPatch => ({
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

/** The log details naming the runnable that acted. */
export const owner = (runnable: Runnable | null) =>
  runnable ? (runnable.kind === 'flow' ? { flowId: runnable.id } : { autoReplyId: runnable.id }) : {};
