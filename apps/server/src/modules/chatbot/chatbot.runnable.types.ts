/**
 * The shape the engine runs (chatbot.runnable.ts builds it from a chat flow, chatbot.legacy.ts from a legacy
 * auto-reply): apart from both so the legacy compiler names it without importing the loader back.
 */
import type {
  ChatFlowCondition,
  ChatFlowConfigurations,
  ChatFlowInteraction,
  ChatFlowNodeAction,
} from '@conversa/shared';

/** A condition; a legacy auto-reply's carries the reply sent before its action. */
export type RunnableCondition = ChatFlowCondition & { reply?: string | null };
export interface RunnableNode {
  id: string;
  interactions: ChatFlowInteraction[];
  conditions: RunnableCondition[];
  actions: ChatFlowNodeAction[];
}

export interface Runnable {
  /** `flow`: the ticket keeps chat_flow_id/step_chat_flow; `legacy`: auto_reply_id/step_auto_reply_id. */
  kind: 'flow' | 'legacy';
  id: number;
  name: string;
  isActive: boolean;
  isDeleted?: boolean;
  nodes: ReadonlyMap<string, RunnableNode>;
  /** The step the start leads to. */
  first: string | null;
  config: ChatFlowConfigurations;
}
