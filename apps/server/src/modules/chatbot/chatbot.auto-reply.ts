/**
 * The legacy auto-reply (client-contract §13 `/auto-reply`; decisions §B): an auto-reply, its steps and each step's
 * actions, kept in the ancestor's three tables; the engine compiles them into a flow when it runs one. One
 * auto-reply per trigger (`action`; only 0, "a new ticket", exists): a second is 409 ERR_AUTO_REPLY_EXISTS. An
 * auto-reply an open or pending ticket runs cannot be deleted (409 ERR_AUTO_REPLY_RELATIONED_TICKET). Every id an
 * action names (its step, the next step, a queue, a user) must be the tenant's: a foreign key alone would accept
 * another tenant's row (its check bypasses row-level security).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type {
  AutoReplyActionDto,
  AutoReplyDto,
  AutoReplyStepDto,
  autoReplyActionInputSchema,
  autoReplyInputSchema,
  autoReplyStepInputSchema,
} from '@conversa/shared';
import type { Database, Queryable } from '../../platform/db/client.js';
import { withTenant, type TenantContext, type TenantId } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import {
  actionsOf,
  clearInitialStep,
  findAction,
  findAutoReply,
  findStep,
  hasActiveTicket,
  loadDto,
  lockTriggers,
  queueExists,
  stepsOf,
  triggerTaken,
  userExists,
} from './chatbot.auto-reply.repository.js';
import { toAutoReplyActionDto, toAutoReplyDto, toAutoReplyStepDto } from './chatbot.dto.js';
import './chatbot.events.js';
import { autoReplies, autoReplyActions, autoReplySteps } from './chatbot.tables.js';

export type AutoReplyInput = z.output<typeof autoReplyInputSchema>;
export type AutoReplyStepInput = z.output<typeof autoReplyStepInputSchema>;
export type AutoReplyActionInput = z.output<typeof autoReplyActionInputSchema>;

/**
 * An action's stored values: its step and next step in the tenant and in one auto-reply, and the target its code
 * needs (0 next step, 1 queue, 2 user) present and the tenant's. Only that target is kept.
 */
async function actionValues(tx: Queryable, tenantId: TenantId, input: AutoReplyActionInput) {
  const step = await findStep(tx, tenantId, input.stepReplyId);
  if (!step) throw fail('ERR_NO_STEP_AUTO_REPLY_FOUND');
  const target = {
    nextStepId: null as number | null,
    queueId: null as number | null,
    userIdDestination: null as number | null,
  };
  if (input.action === 0) {
    if (!input.nextStepId) throw fail('ERR_VALIDATION', 'nextStepId');
    const next = await findStep(tx, tenantId, input.nextStepId);
    if (!next || next.autoReplyId !== step.autoReplyId) throw fail('ERR_NO_STEP_AUTO_REPLY_FOUND');
    target.nextStepId = next.id;
  } else if (input.action === 1) {
    if (!input.queueId) throw fail('ERR_VALIDATION', 'queueId');
    if (!(await queueExists(tx, tenantId, input.queueId))) throw fail('ERR_NO_QUEUE_FOUND');
    target.queueId = input.queueId;
  } else {
    if (!input.userIdDestination) throw fail('ERR_VALIDATION', 'userIdDestination');
    if (!(await userExists(tx, tenantId, input.userIdDestination))) throw fail('ERR_NO_USER_FOUND');
    target.userIdDestination = input.userIdDestination;
  }
  return {
    stepReplyId: step.id,
    words: input.words,
    action: input.action,
    replyDefinition: input.replyDefinition?.trim() ? input.replyDefinition : null,
    ...target,
  };
}

// ---------- service ----------

export function createAutoReplyService(deps: { db: Database; events: EventBus }) {
  const { db, events } = deps;

  /** Runs a write under the tenant and, once committed, tells the engine's configuration cache. */
  async function write<T>(ctx: TenantContext, fn: (tx: Queryable, tenantId: TenantId) => Promise<T>): Promise<T> {
    const result = await withTenant(db, ctx, (tx) => fn(tx, ctx.tenantId));
    events.publish('chatbot.changed', { tenantId: ctx.tenantId });
    return result;
  }

  /** The step `id` of auto-reply `autoReplyId`: 404 for a missing auto-reply, then for a step not of it. */
  async function stepOf(tx: Queryable, tenantId: TenantId, autoReplyId: number, id: number) {
    if (!(await findAutoReply(tx, tenantId, autoReplyId))) throw fail('ERR_NO_AUTO_REPLY_FOUND');
    const step = await findStep(tx, tenantId, id, true);
    if (!step || step.autoReplyId !== autoReplyId) throw fail('ERR_NO_STEP_AUTO_REPLY_FOUND');
    return step;
  }

  return {
    async listAutoReplies(ctx: TenantContext): Promise<AutoReplyDto[]> {
      return withTenant(db, ctx, async (tx) => {
        const rows = await tx
          .select()
          .from(autoReplies)
          .where(eq(autoReplies.tenantId, ctx.tenantId))
          .orderBy(asc(autoReplies.id));
        const steps = await stepsOf(
          tx,
          ctx.tenantId,
          rows.map((r) => r.id),
        );
        const actions = await actionsOf(
          tx,
          ctx.tenantId,
          steps.map((s) => s.id),
        );
        return rows.map((row) => toAutoReplyDto(row, steps, actions));
      });
    },

    createAutoReply: (ctx: TenantContext, input: AutoReplyInput): Promise<AutoReplyDto> =>
      write(ctx, async (tx, tenantId) => {
        await lockTriggers(tx, tenantId);
        if (await triggerTaken(tx, tenantId, input.action)) throw fail('ERR_AUTO_REPLY_EXISTS');
        const [row] = await tx
          .insert(autoReplies)
          .values({ tenantId, userId: ctx.userId, ...input })
          .returning();
        return toAutoReplyDto(row!, [], []);
      }),

    updateAutoReply: (ctx: TenantContext, id: number, input: AutoReplyInput): Promise<AutoReplyDto> =>
      write(ctx, async (tx, tenantId) => {
        await lockTriggers(tx, tenantId);
        if (!(await findAutoReply(tx, tenantId, id, true))) throw fail('ERR_NO_AUTO_REPLY_FOUND');
        if (await triggerTaken(tx, tenantId, input.action, id)) throw fail('ERR_AUTO_REPLY_EXISTS');
        const [row] = await tx
          .update(autoReplies)
          .set({ ...input, updatedAt: sql`now()` })
          .where(and(eq(autoReplies.tenantId, tenantId), eq(autoReplies.id, id)))
          .returning();
        return loadDto(tx, tenantId, row!);
      }),

    /** Removes the auto-reply with its steps and their actions (cascade). */
    deleteAutoReply: (ctx: TenantContext, id: number): Promise<void> =>
      write(ctx, async (tx, tenantId) => {
        if (!(await findAutoReply(tx, tenantId, id, true))) throw fail('ERR_NO_AUTO_REPLY_FOUND');
        if (await hasActiveTicket(tx, tenantId, id)) throw fail('ERR_AUTO_REPLY_RELATIONED_TICKET');
        await tx.delete(autoReplies).where(and(eq(autoReplies.tenantId, tenantId), eq(autoReplies.id, id)));
      }),

    createStep: (ctx: TenantContext, autoReplyId: number, input: AutoReplyStepInput): Promise<AutoReplyStepDto> =>
      write(ctx, async (tx, tenantId) => {
        if (!(await findAutoReply(tx, tenantId, autoReplyId, true))) throw fail('ERR_NO_AUTO_REPLY_FOUND');
        if (input.initialStep) await clearInitialStep(tx, tenantId, autoReplyId);
        const [row] = await tx
          .insert(autoReplySteps)
          .values({ tenantId, autoReplyId, userId: ctx.userId, ...input })
          .returning();
        return toAutoReplyStepDto(row!, []);
      }),

    updateStep: (
      ctx: TenantContext,
      autoReplyId: number,
      id: number,
      input: AutoReplyStepInput,
    ): Promise<AutoReplyStepDto> =>
      write(ctx, async (tx, tenantId) => {
        await stepOf(tx, tenantId, autoReplyId, id);
        if (input.initialStep) await clearInitialStep(tx, tenantId, autoReplyId, id);
        const [row] = await tx
          .update(autoReplySteps)
          .set({ ...input, updatedAt: sql`now()` })
          .where(and(eq(autoReplySteps.tenantId, tenantId), eq(autoReplySteps.id, id)))
          .returning();
        return toAutoReplyStepDto(row!, await actionsOf(tx, tenantId, [id]));
      }),

    /** Removes the step and its actions; actions of other steps that led to it lose their next step. */
    deleteStep: (ctx: TenantContext, autoReplyId: number, id: number): Promise<void> =>
      write(ctx, async (tx, tenantId) => {
        await stepOf(tx, tenantId, autoReplyId, id);
        await tx.delete(autoReplySteps).where(and(eq(autoReplySteps.tenantId, tenantId), eq(autoReplySteps.id, id)));
      }),

    createAction: (ctx: TenantContext, input: AutoReplyActionInput): Promise<AutoReplyActionDto> =>
      write(ctx, async (tx, tenantId) => {
        const values = await actionValues(tx, tenantId, input);
        const [row] = await tx
          .insert(autoReplyActions)
          .values({ tenantId, ...values })
          .returning();
        return toAutoReplyActionDto(row!);
      }),

    updateAction: (ctx: TenantContext, id: number, input: AutoReplyActionInput): Promise<AutoReplyActionDto> =>
      write(ctx, async (tx, tenantId) => {
        if (!(await findAction(tx, tenantId, id))) throw fail('ERR_NO_STEP_AUTO_REPLY_FOUND');
        const values = await actionValues(tx, tenantId, input);
        const [row] = await tx
          .update(autoReplyActions)
          .set({ ...values, updatedAt: sql`now()` })
          .where(and(eq(autoReplyActions.tenantId, tenantId), eq(autoReplyActions.id, id)))
          .returning();
        return toAutoReplyActionDto(row!);
      }),

    deleteAction: (ctx: TenantContext, id: number): Promise<void> =>
      write(ctx, async (tx, tenantId) => {
        if (!(await findAction(tx, tenantId, id))) throw fail('ERR_NO_STEP_AUTO_REPLY_FOUND');
        await tx
          .delete(autoReplyActions)
          .where(and(eq(autoReplyActions.tenantId, tenantId), eq(autoReplyActions.id, id)));
      }),
  };
}

export type AutoReplyService = ReturnType<typeof createAutoReplyService>;
