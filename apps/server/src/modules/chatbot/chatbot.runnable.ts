/**
 * What the engine runs: a chat flow's graph or a legacy auto-reply compiled into the same shape (chatbot.legacy.ts),
 * read in the caller's transaction.
 */
import { chatFlowGraphSchema, startTarget, type ChatFlowConfigurations } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import { loadAutoReplyGraphSource, loadFlow } from './chatbot.flows.js';
import { compileAutoReply } from './chatbot.legacy.js';
import type { Runnable, RunnableNode } from './chatbot.runnable.types.js';

export type { Runnable, RunnableCondition, RunnableNode } from './chatbot.runnable.types.js';

/** A stored flow as the engine runs it; null when missing or its stored graph no longer parses. */
export async function loadRunnableFlow(tx: Queryable, id: number): Promise<Runnable | null> {
  const row = await loadFlow(tx, id);
  if (!row) return null;
  const parsed = chatFlowGraphSchema.safeParse(row.flow);
  if (!parsed.success) return null;
  const graph = parsed.data;
  const nodes = new Map<string, RunnableNode>();
  let config: ChatFlowConfigurations = {};
  for (const node of graph.nodeList) {
    if (node.type === 'node') {
      const { id, interactions, conditions, actions } = node;
      nodes.set(id, { id, interactions, conditions, actions });
    }
    if (node.type === 'configurations') config = node.configurations;
  }
  return {
    kind: 'flow',
    id: row.id,
    name: row.name,
    isActive: row.isActive,
    isDeleted: row.isDeleted,
    nodes,
    first: startTarget(graph),
    config,
  };
}

/** A legacy auto-reply as the engine runs it; null when missing. */
export async function loadRunnableAutoReply(tx: Queryable, id: number): Promise<Runnable | null> {
  const source = await loadAutoReplyGraphSource(tx, id);
  return source ? compileAutoReply(source) : null;
}
