/**
 * The builder's state: the flow JSON with an undo/redo history. Every edit is a named action on the pure functions of
 * builder.graph.ts. Typing in one field (same `coalesce` key in a row) is one history entry; a drag moves the node
 * without history (`transient`) and `commitMove` records the position before the drag once it ends.
 */
import type { ChatFlowConfigurations } from '@conversa/shared';
import {
  addStep,
  connect,
  deleteSteps,
  disconnect,
  moveNode,
  normalizeGraph,
  setConditionTarget,
  setStartTarget,
  updateConfigurations,
  updateStep,
  type FlowGraph,
  type StepNode,
} from './builder.graph';

export const HISTORY_LIMIT = 100;

export interface BuilderState {
  present: FlowGraph;
  past: FlowGraph[];
  future: FlowGraph[];
  /** The graph as last loaded or saved: `present !== saved` means unsaved changes. */
  saved: FlowGraph;
  /** The coalesce key of the last edit (see the header). */
  lastKey: string | null;
}

type Edit =
  | { type: 'addStep'; step: { id: string; name: string; left: number; top: number } }
  | { type: 'deleteSteps'; ids: readonly string[] }
  | { type: 'connect'; source: string; sourceHandle?: string | null; target: string }
  | { type: 'disconnect'; source: string; sourceHandle?: string | null }
  | { type: 'setStartTarget'; target: string | null }
  | { type: 'setConditionTarget'; nodeId: string; conditionId: string; target: string | null }
  | { type: 'updateStep'; nodeId: string; update: (node: StepNode) => StepNode; coalesce?: string }
  | {
      type: 'updateConfigurations';
      update: (configurations: ChatFlowConfigurations) => ChatFlowConfigurations;
      coalesce?: string;
    }
  | { type: 'rename'; name: string }
  | { type: 'move'; nodeId: string; left: number; top: number; transient?: boolean };

export type BuilderAction =
  | Edit
  | { type: 'load'; graph: FlowGraph }
  | { type: 'commitMove'; before: FlowGraph }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'saved'; graph: FlowGraph };

export function initialBuilderState(graph: FlowGraph): BuilderState {
  const present = normalizeGraph(graph);
  return { present, past: [], future: [], saved: present, lastKey: null };
}

function apply(graph: FlowGraph, edit: Edit): FlowGraph {
  switch (edit.type) {
    case 'addStep':
      return addStep(graph, edit.step);
    case 'deleteSteps':
      return deleteSteps(graph, edit.ids);
    case 'connect':
      return connect(graph, edit);
    case 'disconnect':
      return disconnect(graph, edit);
    case 'setStartTarget':
      return setStartTarget(graph, edit.target);
    case 'setConditionTarget':
      return setConditionTarget(graph, edit.nodeId, edit.conditionId, edit.target);
    case 'updateStep':
      return updateStep(graph, edit.nodeId, edit.update);
    case 'updateConfigurations':
      return updateConfigurations(graph, edit.update);
    case 'rename':
      return graph.name === edit.name ? graph : { ...graph, name: edit.name };
    case 'move':
      return moveNode(graph, edit.nodeId, edit.left, edit.top);
  }
}

const coalesceKey = (edit: Edit): string | null => {
  if (edit.type === 'rename') return 'rename';
  // Arrow-key moves of one node (xyflow moves the selected node by keys): one entry per run of presses.
  if (edit.type === 'move') return `move:${edit.nodeId}`;
  if (edit.type === 'updateStep' || edit.type === 'updateConfigurations') return edit.coalesce ?? null;
  return null;
};

const record = (state: BuilderState, before: FlowGraph, present: FlowGraph, lastKey: string | null) => ({
  ...state,
  present,
  past: [...state.past, before].slice(-HISTORY_LIMIT),
  future: [],
  lastKey,
});

export function builderReducer(state: BuilderState, action: BuilderAction): BuilderState {
  switch (action.type) {
    case 'load':
      return initialBuilderState(action.graph);
    case 'undo': {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return {
        ...state,
        present: previous,
        past: state.past.slice(0, -1),
        future: [state.present, ...state.future],
        lastKey: null,
      };
    }
    case 'redo': {
      const [next, ...future] = state.future;
      if (!next) return state;
      return { ...state, present: next, past: [...state.past, state.present], future, lastKey: null };
    }
    case 'saved':
      return { ...state, saved: action.graph, lastKey: null };
    case 'commitMove':
      return action.before === state.present ? state : record(state, action.before, state.present, null);
    default: {
      const next = apply(state.present, action);
      if (next === state.present) return state;
      if (action.type === 'move' && action.transient) return { ...state, present: next };
      const key = coalesceKey(action);
      // Typing on in the same field replaces the present; the entry before the first keystroke stays in `past`.
      if (key !== null && key === state.lastKey) return { ...state, present: next, future: [] };
      return record(state, state.present, next, key);
    }
  }
}
