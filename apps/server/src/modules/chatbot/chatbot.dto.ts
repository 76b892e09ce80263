/** Chat-flow and auto-reply rows to the wire shapes of packages/shared (client-contract §13). */
import type { AutoReplyActionDto, AutoReplyDto, AutoReplyStepDto, ChatFlowDto } from '@conversa/shared';
import type { autoReplies, autoReplyActions, autoReplySteps, chatFlows } from './chatbot.tables.js';

export type ChatFlowRow = typeof chatFlows.$inferSelect;
export type AutoReplyRow = typeof autoReplies.$inferSelect;
export type AutoReplyStepRow = typeof autoReplySteps.$inferSelect;
export type AutoReplyActionRow = typeof autoReplyActions.$inferSelect;

export function toChatFlowDto(row: ChatFlowRow): ChatFlowDto {
  return {
    id: row.id,
    name: row.name,
    isActive: row.isActive,
    celularTeste: row.celularTeste,
    userId: row.userId,
    flow: row.flow,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toAutoReplyActionDto(row: AutoReplyActionRow): AutoReplyActionDto {
  return {
    id: row.id,
    stepReplyId: row.stepReplyId,
    words: row.words,
    action: row.action,
    queueId: row.queueId,
    userIdDestination: row.userIdDestination,
    nextStepId: row.nextStepId,
    replyDefinition: row.replyDefinition,
  };
}

export function toAutoReplyStepDto(row: AutoReplyStepRow, actions: AutoReplyActionRow[]): AutoReplyStepDto {
  return {
    id: row.id,
    idAutoReply: row.autoReplyId,
    reply: row.reply,
    initialStep: row.initialStep,
    userId: row.userId,
    stepsReplyAction: actions.filter((a) => a.stepReplyId === row.id).map(toAutoReplyActionDto),
  };
}

export function toAutoReplyDto(
  row: AutoReplyRow,
  steps: AutoReplyStepRow[],
  actions: AutoReplyActionRow[],
): AutoReplyDto {
  return {
    id: row.id,
    name: row.name,
    action: row.action,
    isActive: row.isActive,
    celularTeste: row.celularTeste,
    userId: row.userId,
    stepsReply: steps.filter((s) => s.autoReplyId === row.id).map((s) => toAutoReplyStepDto(s, actions)),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
