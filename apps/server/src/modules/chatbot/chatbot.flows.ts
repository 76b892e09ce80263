/**
 * Chat flows (client-contract §13; decisions §A/§B): the repository, the service behind `/chat-flow*`, and the
 * engine's read API (`loadFlow`, `loadAutoReplyGraphSource`). A flow's graph is validated twice before it is stored:
 * its shape by the shared `chatFlowGraphSchema` (400 ERR_VALIDATION) and its meaning by `validateChatFlow` (400
 * ERR_CHAT_FLOW_INVALID), and the ids it names must be the tenant's (chatbot.flows.references.ts, 400 ERR_VALIDATION,
 * at create, edit, import and duplicate). A deleted flow is only marked (`is_deleted`): tickets and logs that name it still resolve.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  defaultChatFlow,
  validateChatFlow,
  type ChatFlowDto,
  type ChatFlowGraph,
  type SettingDto,
} from '@conversa/shared';
import type { Database, Queryable } from '../../platform/db/client.js';
import { withTenant, type TenantContext, type TenantId } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import { toChannelDto, type ChannelRow } from '../channels/index.js';
import { channels } from '../channels/channels.tables.js';
import { findSetting, upsertSetting } from '../settings/index.js';
import { tickets } from '../tickets/tickets.tables.js';
import { toChatFlowDto, type ChatFlowRow } from './chatbot.dto.js';
import { assertTenantReferences } from './chatbot.flows.references.js';
import './chatbot.events.js';
import { autoReplies, autoReplyActions, autoReplySteps, chatFlows } from './chatbot.tables.js';

export type { ChatFlowRow } from './chatbot.dto.js';

/** A flow's record as the service stores it (the inputs, parsed). */
export interface ChatFlowValues {
  name: string;
  isActive: boolean;
  celularTeste: string | null;
  flow: ChatFlowGraph;
}

// ---------- repository ----------

const notDeleted = (tenantId: TenantId, id?: number) =>
  and(
    eq(chatFlows.tenantId, tenantId),
    eq(chatFlows.isDeleted, false),
    ...(id === undefined ? [] : [eq(chatFlows.id, id)]),
  );

export async function listChatFlows(tx: Queryable, tenantId: TenantId): Promise<ChatFlowRow[]> {
  return tx.select().from(chatFlows).where(notDeleted(tenantId)).orderBy(asc(chatFlows.id));
}

/** A flow that is not deleted; `lock` holds its row until the transaction ends. */
export async function findChatFlow(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  options: { lock?: boolean } = {},
): Promise<ChatFlowRow | undefined> {
  const query = tx.select().from(chatFlows).where(notDeleted(tenantId, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function insertChatFlow(
  tx: Queryable,
  tenantId: TenantId,
  userId: number | null,
  values: ChatFlowValues,
): Promise<ChatFlowRow> {
  const [row] = await tx
    .insert(chatFlows)
    .values({ tenantId, userId, ...values })
    .returning();
  return row!;
}

export async function updateChatFlow(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  values: Partial<ChatFlowValues> & { isDeleted?: boolean },
): Promise<ChatFlowRow | undefined> {
  const [row] = await tx
    .update(chatFlows)
    .set({ ...values, updatedAt: sql`now()` })
    .where(notDeleted(tenantId, id))
    .returning();
  return row;
}

/** Whether an open or pending ticket runs the flow (it cannot be deleted then). */
async function flowHasActiveTicket(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(eq(tickets.tenantId, tenantId), eq(tickets.chatFlowId, id), inArray(tickets.status, ['open', 'pending'])),
    )
    .limit(1);
  return row !== undefined;
}

/** Channels whose new conversations ran the flow now run none; the changed rows are returned. */
async function detachFlowFromChannels(tx: Queryable, tenantId: TenantId, id: number): Promise<ChannelRow[]> {
  return tx
    .update(channels)
    .set({ chatFlowId: null, updatedAt: sql`now()` })
    .where(and(eq(channels.tenantId, tenantId), eq(channels.chatFlowId, id)))
    .returning();
}

// ---------- service ----------

export interface ChatFlowsDeps {
  db: Database;
  events: EventBus;
  /** The server's public address: channel DTOs published after a delete carry it. */
  publicUrl: string;
}

function assertValidGraph(flow: ChatFlowGraph): void {
  if (validateChatFlow(flow).length > 0) throw fail('ERR_CHAT_FLOW_INVALID', 'flow');
}

/** The copy's name: `<name> (cópia)`, cut so it stays within the input's 120 characters. */
export const copyName = (name: string): string => `${name.slice(0, 120 - ' (cópia)'.length)} (cópia)`;

export function createChatFlowsService(deps: ChatFlowsDeps) {
  const { db, events } = deps;
  const changed = (ctx: TenantContext) => events.publish('chatbot.changed', { tenantId: ctx.tenantId });

  /**
   * Runs a change to one existing flow and publishes it; a missing or deleted flow is 404. A new graph (`flow`) must
   * name only the tenant's queues, users and flows.
   */
  async function changeFlow(
    ctx: TenantContext,
    id: number,
    values: (current: ChatFlowRow) => Partial<ChatFlowValues>,
    flow?: ChatFlowGraph,
  ): Promise<ChatFlowDto> {
    const row = await withTenant(db, ctx, async (tx) => {
      const current = await findChatFlow(tx, ctx.tenantId, id, { lock: true });
      if (!current) throw fail('ERR_NO_AUTO_REPLY_FOUND');
      if (flow) await assertTenantReferences(tx, ctx.tenantId, flow);
      return (await updateChatFlow(tx, ctx.tenantId, id, values(current)))!;
    });
    changed(ctx);
    return toChatFlowDto(row);
  }

  return {
    listChatFlows: async (ctx: TenantContext): Promise<ChatFlowDto[]> =>
      (await withTenant(db, ctx, (tx) => listChatFlows(tx, ctx.tenantId))).map(toChatFlowDto),

    async getChatFlow(ctx: TenantContext, id: number): Promise<ChatFlowDto> {
      const row = await withTenant(db, ctx, (tx) => findChatFlow(tx, ctx.tenantId, id));
      if (!row) throw fail('ERR_NO_AUTO_REPLY_FOUND');
      return toChatFlowDto(row);
    },

    /** The caller is the flow's author (a `userId` in the body is ignored); no graph: the default flow. */
    async createChatFlow(
      ctx: TenantContext,
      input: Omit<ChatFlowValues, 'flow'> & { flow?: ChatFlowGraph | undefined },
    ): Promise<ChatFlowDto> {
      const flow = input.flow ?? defaultChatFlow(input.name);
      assertValidGraph(flow);
      const row = await withTenant(db, ctx, async (tx) => {
        await assertTenantReferences(tx, ctx.tenantId, flow);
        return insertChatFlow(tx, ctx.tenantId, ctx.userId, { ...input, flow });
      });
      changed(ctx);
      return toChatFlowDto(row);
    },

    /** The whole record (name, isActive, celularTeste, flow); the author stays. */
    updateChatFlow(ctx: TenantContext, id: number, input: ChatFlowValues): Promise<ChatFlowDto> {
      assertValidGraph(input.flow);
      return changeFlow(ctx, id, () => input, input.flow);
    },

    /** Replaces the graph only (import). */
    importChatFlow(ctx: TenantContext, id: number, flow: ChatFlowGraph): Promise<ChatFlowDto> {
      assertValidGraph(flow);
      return changeFlow(ctx, id, () => ({ flow }), flow);
    },

    /** An inactive copy without test number, named `<name> (cópia)`, with the same graph. */
    async duplicateChatFlow(ctx: TenantContext, id: number): Promise<ChatFlowDto> {
      const row = await withTenant(db, ctx, async (tx) => {
        const source = await findChatFlow(tx, ctx.tenantId, id);
        if (!source) throw fail('ERR_NO_AUTO_REPLY_FOUND');
        // A graph stored before references were checked is not copied with another tenant's ids.
        await assertTenantReferences(tx, ctx.tenantId, source.flow);
        return insertChatFlow(tx, ctx.tenantId, ctx.userId, {
          name: copyName(source.name),
          isActive: false,
          celularTeste: null,
          flow: source.flow,
        });
      });
      changed(ctx);
      return toChatFlowDto(row);
    },

    /**
     * Marks the flow deleted, refused (409) while an open or pending ticket runs it. Channels that started it on new
     * conversations, and the setting botTicketActive naming it, are cleared in the same transaction.
     */
    async deleteChatFlow(ctx: TenantContext, id: number): Promise<void> {
      const { detached, settingCleared } = await withTenant(db, ctx, async (tx) => {
        if (!(await findChatFlow(tx, ctx.tenantId, id, { lock: true }))) throw fail('ERR_NO_AUTO_REPLY_FOUND');
        if (await flowHasActiveTicket(tx, ctx.tenantId, id)) throw fail('ERR_AUTO_REPLY_RELATIONED_TICKET');
        await updateChatFlow(tx, ctx.tenantId, id, { isDeleted: true });
        const cleared = (await findSetting(tx, ctx.tenantId, 'botTicketActive')).trim() === String(id);
        if (cleared) await upsertSetting(tx, ctx.tenantId, 'botTicketActive', '');
        return { detached: await detachFlowFromChannels(tx, ctx.tenantId, id), settingCleared: cleared };
      });
      for (const row of detached) {
        events.publish('channels.changed', { tenantId: ctx.tenantId, channel: toChannelDto(row, deps.publicUrl) });
      }
      if (settingCleared) {
        const setting: SettingDto = { key: 'botTicketActive', value: '' };
        events.publish('settings.updated', { tenantId: ctx.tenantId, setting });
      }
      changed(ctx);
    },
  };
}

export type ChatFlowsService = ReturnType<typeof createChatFlowsService>;

// ---------- the engine's reads ----------

/** What the engine needs of a flow (deleted ones included: tickets and logs may still name them). */
export interface LoadedFlow {
  id: number;
  name: string;
  isActive: boolean;
  isDeleted: boolean;
  celularTeste: string | null;
  flow: ChatFlowGraph;
}

/**
 * One flow of the transaction's tenant (RLS), deleted or not; null when there is none with that id. `lock: 'share'`
 * holds the row until the transaction ends: a delete running at the same time waits, or has committed and the
 * flow reads as deleted, so a ticket never starts a flow whose delete found no ticket in it.
 */
export async function loadFlow(
  tx: Queryable,
  id: number,
  options: { lock?: 'share' | 'update' } = {},
): Promise<LoadedFlow | null> {
  const query = tx
    .select({
      id: chatFlows.id,
      name: chatFlows.name,
      isActive: chatFlows.isActive,
      isDeleted: chatFlows.isDeleted,
      celularTeste: chatFlows.celularTeste,
      flow: chatFlows.flow,
    })
    .from(chatFlows)
    .where(eq(chatFlows.id, id));
  const [row] = options.lock ? await query.for(options.lock) : await query;
  return row ?? null;
}

export interface AutoReplyActionSource {
  id: number;
  stepReplyId: number;
  words: string;
  action: number;
  queueId: number | null;
  userIdDestination: number | null;
  nextStepId: number | null;
  replyDefinition: string | null;
}
export interface AutoReplyStepSource {
  id: number;
  reply: string;
  initialStep: boolean;
  /** In id order. */
  actions: AutoReplyActionSource[];
}
/** A legacy auto-reply with its steps (id order) and each step's actions: what chatbot.legacy.ts compiles. */
export interface AutoReplyGraphSource {
  id: number;
  name: string;
  action: number;
  isActive: boolean;
  celularTeste: string | null;
  steps: AutoReplyStepSource[];
}

/** One auto-reply of the transaction's tenant (RLS) with its steps and actions; null when there is none. */
export async function loadAutoReplyGraphSource(tx: Queryable, id: number): Promise<AutoReplyGraphSource | null> {
  const [reply] = await tx
    .select({
      id: autoReplies.id,
      name: autoReplies.name,
      action: autoReplies.action,
      isActive: autoReplies.isActive,
      celularTeste: autoReplies.celularTeste,
    })
    .from(autoReplies)
    .where(eq(autoReplies.id, id));
  if (!reply) return null;
  const steps = await tx
    .select({ id: autoReplySteps.id, reply: autoReplySteps.reply, initialStep: autoReplySteps.initialStep })
    .from(autoReplySteps)
    .where(eq(autoReplySteps.autoReplyId, id))
    .orderBy(asc(autoReplySteps.id));
  const actions =
    steps.length === 0
      ? []
      : await tx
          .select({
            id: autoReplyActions.id,
            stepReplyId: autoReplyActions.stepReplyId,
            words: autoReplyActions.words,
            action: autoReplyActions.action,
            queueId: autoReplyActions.queueId,
            userIdDestination: autoReplyActions.userIdDestination,
            nextStepId: autoReplyActions.nextStepId,
            replyDefinition: autoReplyActions.replyDefinition,
          })
          .from(autoReplyActions)
          .where(
            inArray(
              autoReplyActions.stepReplyId,
              steps.map((s) => s.id),
            ),
          )
          .orderBy(asc(autoReplyActions.id));
  return {
    ...reply,
    steps: steps.map((step) => ({ ...step, actions: actions.filter((a) => a.stepReplyId === step.id) })),
  };
}
