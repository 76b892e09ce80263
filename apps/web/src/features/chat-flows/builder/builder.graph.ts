/**
 * The builder's edits as pure functions on the stored flow format (packages/shared/src/chat-flows.ts, decisions §A):
 * the graph is the truth, xyflow's nodes and edges are derived from it. Conditions' `nextStepId` is what the engine
 * follows; `lineList` is rebuilt from them after every edit (one line from the start, one per "go to step" condition
 * with a target), reusing the stored line objects so fields the ancestor kept on them ride along.
 */
import {
  CHAT_FLOW_ACTIONS,
  type ChatFlowCondition,
  type ChatFlowConfigurations,
  type ChatFlowGraph,
  type ChatFlowLine,
  type ChatFlowNode,
  type ChatFlowStepNode,
} from '@conversa/shared';

export type FlowGraph = ChatFlowGraph;
export type StepNode = ChatFlowStepNode;
export type ConfigurationsNode = Extract<ChatFlowNode, { type: 'configurations' }>;

export const isStep = (node: ChatFlowNode | undefined): node is StepNode => node?.type === 'node';

/** A uuid v4; `crypto.randomUUID` exists only in secure contexts (an http LAN address is not one). */
export function newId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A stored coordinate: a number, or the ancestor's CSS text ("100px", "12.5"); anything else is `fallback`. */
export function parsePosition(value: unknown, fallback: number): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const parsed = Number.parseFloat(value.trim());
    if (Number.isFinite(parsed)) return parsed;
  }
  return fallback;
}

/** The graph as loaded: every node's `left`/`top` a number (nodes without one laid out in a row). */
export function normalizeGraph(graph: FlowGraph): FlowGraph {
  return {
    ...graph,
    nodeList: graph.nodeList.map((node, index) => ({
      ...node,
      left: parsePosition(node.left, 40 + index * 280),
      top: parsePosition(node.top, 120),
    })),
  };
}

export const startNode = (graph: FlowGraph) => graph.nodeList.find((n) => n.type === 'start');
export const configurationsNode = (graph: FlowGraph) =>
  graph.nodeList.find((n): n is ConfigurationsNode => n.type === 'configurations');
export const stepNodes = (graph: FlowGraph) => graph.nodeList.filter(isStep);

/** Rebuilds the lines from the start's target and the conditions (see the header). */
export function syncLines(graph: FlowGraph): FlowGraph {
  const ids = new Set(graph.nodeList.map((n) => n.id));
  const start = startNode(graph);
  const lines: ChatFlowLine[] = [];
  const startLine = start && graph.lineList.find((line) => line.from === start.id && ids.has(line.to));
  if (startLine) lines.push({ ...startLine, fromCondition: startLine.fromCondition ?? undefined });
  for (const node of stepNodes(graph)) {
    for (const condition of node.conditions) {
      if (condition.action !== CHAT_FLOW_ACTIONS.step || !condition.nextStepId || !ids.has(condition.nextStepId)) {
        continue;
      }
      const stored = graph.lineList.find((line) => line.from === node.id && line.fromCondition === condition.id);
      lines.push({ ...stored, from: node.id, to: condition.nextStepId, fromCondition: condition.id });
    }
  }
  return { ...graph, lineList: lines.map(dropUndefined) };
}

function dropUndefined(line: ChatFlowLine): ChatFlowLine {
  return Object.fromEntries(Object.entries(line).filter(([, v]) => v !== undefined)) as ChatFlowLine;
}

export function addStep(graph: FlowGraph, step: { id: string; name: string; left: number; top: number }): FlowGraph {
  const node: StepNode = { ...step, type: 'node', interactions: [], conditions: [], actions: [] };
  return { ...graph, nodeList: [...graph.nodeList, node] };
}

/** Roughly a step card's size on the canvas: enough to keep a new step clear of the others. */
const CARD = { width: 230, height: 130 };

/** The first place at or right/below of (left, top) where a new card overlaps no node. */
export function freeSpot(graph: FlowGraph, left: number, top: number): { left: number; top: number } {
  const taken = graph.nodeList.map((n) => ({ x: parsePosition(n.left, 0), y: parsePosition(n.top, 0) }));
  const overlaps = (x: number, y: number) =>
    taken.some((n) => Math.abs(n.x - x) < CARD.width && Math.abs(n.y - y) < CARD.height);
  for (let row = 0; row < 8; row += 1) {
    for (let column = 0; column < 8; column += 1) {
      const x = left + column * CARD.width;
      const y = top + row * CARD.height;
      if (!overlaps(x, y)) return { left: Math.round(x), top: Math.round(y) };
    }
  }
  return { left: Math.round(left), top: Math.round(top) };
}

/** Removes steps (never the start or the configurations), their lines, and the conditions' links to them. */
export function deleteSteps(graph: FlowGraph, ids: readonly string[]): FlowGraph {
  const removed = new Set(graph.nodeList.filter((n) => isStep(n) && ids.includes(n.id)).map((n) => n.id));
  if (removed.size === 0) return graph;
  const nodeList = graph.nodeList
    .filter((n) => !removed.has(n.id))
    .map((n) =>
      isStep(n) && n.conditions.some((c) => c.nextStepId && removed.has(c.nextStepId))
        ? {
            ...n,
            conditions: n.conditions.map((c) =>
              c.nextStepId && removed.has(c.nextStepId) ? { ...c, nextStepId: null } : c,
            ),
          }
        : n,
    );
  const lineList = graph.lineList.filter((l) => !removed.has(l.from) && !removed.has(l.to));
  return syncLines({ ...graph, nodeList, lineList });
}

/** The start leads to `target` (a step), or nowhere. */
export function setStartTarget(graph: FlowGraph, target: string | null): FlowGraph {
  const start = startNode(graph);
  if (!start) return graph;
  const stored = graph.lineList.find((line) => line.from === start.id);
  const others = graph.lineList.filter((line) => line.from !== start.id);
  if (target === null || !isStep(graph.nodeList.find((n) => n.id === target))) {
    return syncLines({ ...graph, lineList: others });
  }
  return syncLines({ ...graph, lineList: [{ ...stored, from: start.id, to: target }, ...others] });
}

/** A "go to step" condition leads to `target`, or nowhere (its line follows). */
export function setConditionTarget(
  graph: FlowGraph,
  nodeId: string,
  conditionId: string,
  target: string | null,
): FlowGraph {
  return updateStep(graph, nodeId, (node) => ({
    ...node,
    conditions: node.conditions.map((c) =>
      c.id === conditionId ? { ...c, action: CHAT_FLOW_ACTIONS.step, nextStepId: target } : c,
    ),
  }));
}

/** What xyflow's `onConnect` gives: from the start's handle or a condition's handle to a step. */
export function connect(
  graph: FlowGraph,
  link: { source: string; sourceHandle?: string | null; target: string },
): FlowGraph {
  if (!isStep(graph.nodeList.find((n) => n.id === link.target))) return graph;
  const source = graph.nodeList.find((n) => n.id === link.source);
  if (source?.type === 'start') return setStartTarget(graph, link.target);
  if (isStep(source) && link.sourceHandle && source.conditions.some((c) => c.id === link.sourceHandle)) {
    return setConditionTarget(graph, source.id, link.sourceHandle, link.target);
  }
  return graph;
}

/** Removing an edge: the start or the condition it came from leads nowhere. */
export function disconnect(graph: FlowGraph, link: { source: string; sourceHandle?: string | null }): FlowGraph {
  const source = graph.nodeList.find((n) => n.id === link.source);
  if (source?.type === 'start') return setStartTarget(graph, null);
  if (isStep(source) && link.sourceHandle) return setConditionTarget(graph, source.id, link.sourceHandle, null);
  return graph;
}

export function updateStep(graph: FlowGraph, nodeId: string, update: (node: StepNode) => StepNode): FlowGraph {
  let changed = false;
  const nodeList = graph.nodeList.map((n) => {
    if (n.id !== nodeId || !isStep(n)) return n;
    changed = true;
    return update(n);
  });
  return changed ? syncLines({ ...graph, nodeList }) : graph;
}

export function updateConfigurations(
  graph: FlowGraph,
  update: (configurations: ChatFlowConfigurations) => ChatFlowConfigurations,
): FlowGraph {
  return {
    ...graph,
    nodeList: graph.nodeList.map((n) =>
      n.type === 'configurations' ? { ...n, configurations: update(n.configurations) } : n,
    ),
  };
}

export function moveNode(graph: FlowGraph, nodeId: string, left: number, top: number): FlowGraph {
  return { ...graph, nodeList: graph.nodeList.map((n) => (n.id === nodeId ? { ...n, left, top } : n)) };
}

/** A condition whose action changed loses the targets of its old action. */
export function withAction(condition: ChatFlowCondition, action: ChatFlowCondition['action']): ChatFlowCondition {
  return { ...condition, action, nextStepId: null, queueId: null, userIdDestination: null, chatFlowId: null };
}

/** Moves the item at `index` by `delta` places (no change at the ends). */
export function moveItem<T>(items: readonly T[], index: number, delta: -1 | 1): T[] {
  const to = index + delta;
  if (to < 0 || to >= items.length) return [...items];
  const copy = [...items];
  const [item] = copy.splice(index, 1);
  copy.splice(to, 0, item!);
  return copy;
}
