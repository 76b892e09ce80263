/**
 * Chat flows: the repository (queries under the caller's tenant transaction) and the engine's read API
 * (`loadFlow`, `loadAutoReplyGraphSource`). The HTTP service is below the repository.
 */
import { asc, eq, inArray } from 'drizzle-orm';
import type { ChatFlowGraph } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import { autoReplies, autoReplyActions, autoReplySteps, chatFlows } from './chatbot.tables.js';

export type ChatFlowRow = typeof chatFlows.$inferSelect;

/** What the engine needs of a flow (deleted ones included: tickets and logs may still name them). */
export interface LoadedFlow {
  id: number;
  name: string;
  isActive: boolean;
  isDeleted: boolean;
  celularTeste: string | null;
  flow: ChatFlowGraph;
}

/** One flow of the transaction's tenant (RLS), deleted or not; null when there is none with that id. */
export async function loadFlow(tx: Queryable, id: number): Promise<LoadedFlow | null> {
  const [row] = await tx
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
