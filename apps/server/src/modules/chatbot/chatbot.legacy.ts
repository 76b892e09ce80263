/**
 * The legacy auto-reply (client-contract §13 `/auto-reply`) compiled at run time into the graph the engine runs
 * (ARCHITECTURE §6k): each step a node with one MessageField (its reply); each of its actions a `US` condition whose
 * words are the action's comma-separated `words`, with action 0 (next step), 1 (queue) or 2 (user) and the action's
 * `replyDefinition` sent before the action runs. The initial step is where the start leads (the lowest step id when
 * none is marked). An auto-reply has no configurations: no timer, no retries limit, no invalid-answer message (an
 * invalid answer sends the step's reply again).
 */
import type { AutoReplyGraphSource } from './chatbot.flows.js';
import type { Runnable, RunnableCondition, RunnableNode } from './chatbot.runnable.types.js';

const nodeId = (stepId: number) => String(stepId);

export function compileAutoReply(source: AutoReplyGraphSource): Runnable {
  const nodes = new Map<string, RunnableNode>();
  for (const step of source.steps) {
    const conditions: RunnableCondition[] = step.actions.map((action) => ({
      id: `action-${action.id}`,
      type: 'US',
      condition: action.words
        .split(',')
        .map((word) => word.trim())
        .filter(Boolean),
      action: action.action === 1 ? 1 : action.action === 2 ? 2 : 0,
      nextStepId: action.nextStepId === null ? null : nodeId(action.nextStepId),
      queueId: action.queueId,
      userIdDestination: action.userIdDestination,
      reply: action.replyDefinition?.trim() || null,
    }));
    nodes.set(nodeId(step.id), {
      id: nodeId(step.id),
      interactions: [{ id: `reply-${step.id}`, type: 'MessageField', data: { message: step.reply } }],
      conditions,
      actions: [],
    });
  }
  const initial = source.steps.find((step) => step.initialStep) ?? source.steps[0];
  return {
    kind: 'legacy',
    id: source.id,
    name: source.name,
    isActive: source.isActive,
    nodes,
    first: initial ? nodeId(initial.id) : null,
    config: {},
  };
}
