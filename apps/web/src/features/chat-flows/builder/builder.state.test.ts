/** The builder's reducer: steps, connections and their lines, deletion, positions, undo/redo and coalescing. */
import { describe, expect, it } from 'vitest';
import { defaultChatFlow, validateChatFlow, type ChatFlowGraph } from '@conversa/shared';
import { freeSpot, isStep, normalizeGraph, parsePosition, type StepNode } from './builder.graph';
import { builderReducer, initialBuilderState, type BuilderAction, type BuilderState } from './builder.state';

const run = (state: BuilderState, ...actions: BuilderAction[]) => actions.reduce(builderReducer, state);
const step = (state: BuilderState, id: string) => state.present.nodeList.find((n) => n.id === id) as StepNode;

/** The default flow plus a second step `two` and a condition `c1` on `welcome`. */
function twoSteps(): BuilderState {
  return run(
    initialBuilderState(defaultChatFlow('Teste')),
    { type: 'addStep', step: { id: 'two', name: 'Dois', left: 500, top: 100 } },
    {
      type: 'updateStep',
      nodeId: 'welcome',
      update: (n) => ({
        ...n,
        conditions: [{ id: 'c1', type: 'US', condition: ['1'], action: 0, nextStepId: null }],
      }),
    },
  );
}

describe('builder positions', () => {
  it('parses the ancestor\'s "100px" texts and numbers; anything else falls back', () => {
    expect(parsePosition('100px', 0)).toBe(100);
    expect(parsePosition(' 12.5px', 0)).toBe(12.5);
    expect(parsePosition('-40', 0)).toBe(-40);
    expect(parsePosition(320, 0)).toBe(320);
    expect(parsePosition('abc', 7)).toBe(7);
    expect(parsePosition(undefined, 9)).toBe(9);
  });

  it('loads stored positions as numbers', () => {
    const graph: ChatFlowGraph = {
      ...defaultChatFlow('x'),
      nodeList: defaultChatFlow('x').nodeList.map((n) => ({ ...n, left: `${n.id.length * 10}px`, top: '33px' })),
    };
    const loaded = normalizeGraph(graph);
    expect(loaded.nodeList.map((n) => [n.left, n.top])).toEqual([
      [50, 33],
      [140, 33],
      [70, 33],
    ]);
  });
});

describe('builderReducer', () => {
  it('adds a step with empty lists', () => {
    const state = twoSteps();
    expect(step(state, 'two')).toEqual({
      id: 'two',
      type: 'node',
      name: 'Dois',
      left: 500,
      top: 100,
      interactions: [],
      conditions: [],
      actions: [],
    });
  });

  it('connecting a condition handle sets its nextStepId and its line; disconnecting clears both', () => {
    let state = run(twoSteps(), { type: 'connect', source: 'welcome', sourceHandle: 'c1', target: 'two' });
    expect(step(state, 'welcome').conditions[0]?.nextStepId).toBe('two');
    expect(state.present.lineList).toEqual([
      { from: 'start', to: 'welcome' },
      { from: 'welcome', to: 'two', fromCondition: 'c1' },
    ]);
    expect(validateChatFlow(state.present)).toEqual([]);

    state = run(state, { type: 'disconnect', source: 'welcome', sourceHandle: 'c1' });
    expect(step(state, 'welcome').conditions[0]?.nextStepId).toBeNull();
    expect(state.present.lineList).toEqual([{ from: 'start', to: 'welcome' }]);
  });

  it("connecting the start's handle moves the start line; a connection to the start or configurations is ignored", () => {
    let state = run(twoSteps(), { type: 'connect', source: 'start', sourceHandle: 'start', target: 'two' });
    expect(state.present.lineList).toEqual([{ from: 'start', to: 'two' }]);
    const before = state.present;
    state = run(state, { type: 'connect', source: 'welcome', sourceHandle: 'c1', target: 'configurations' });
    expect(state.present).toBe(before);
    state = run(state, { type: 'disconnect', source: 'start' });
    expect(state.present.lineList).toEqual([]);
  });

  it('a condition whose action is no longer "go to step" loses its line', () => {
    let state = run(twoSteps(), { type: 'setConditionTarget', nodeId: 'welcome', conditionId: 'c1', target: 'two' });
    expect(state.present.lineList).toHaveLength(2);
    state = run(state, {
      type: 'updateStep',
      nodeId: 'welcome',
      update: (n) => ({ ...n, conditions: n.conditions.map((c) => ({ ...c, action: 1 as const, queueId: 3 })) }),
    });
    expect(state.present.lineList).toEqual([{ from: 'start', to: 'welcome' }]);
  });

  it('deleting a step removes its lines and the conditions pointing to it; the start and configurations stay', () => {
    let state = run(
      twoSteps(),
      { type: 'connect', source: 'welcome', sourceHandle: 'c1', target: 'two' },
      { type: 'deleteSteps', ids: ['two', 'start', 'configurations'] },
    );
    expect(state.present.nodeList.map((n) => n.id)).toEqual(['start', 'configurations', 'welcome']);
    expect(step(state, 'welcome').conditions[0]?.nextStepId).toBeNull();
    expect(state.present.lineList).toEqual([{ from: 'start', to: 'welcome' }]);

    state = run(state, { type: 'deleteSteps', ids: ['welcome'] });
    expect(state.present.nodeList.filter(isStep)).toEqual([]);
    expect(state.present.lineList).toEqual([]);
  });

  it('undo and redo walk the history; a new edit drops the redo branch', () => {
    const base = twoSteps();
    let state = run(base, { type: 'connect', source: 'welcome', sourceHandle: 'c1', target: 'two' });
    const connected = state.present;
    state = run(state, { type: 'undo' });
    expect(state.present).toBe(base.present);
    expect(state.future).toEqual([connected]);
    state = run(state, { type: 'redo' });
    expect(state.present).toBe(connected);
    state = run(state, { type: 'undo' }, { type: 'rename', name: 'Outro' });
    expect(state.future).toEqual([]);
    expect(run(state, { type: 'redo' })).toBe(state);
    // Back to the loaded graph by undoing everything: nothing unsaved.
    state = run(state, { type: 'undo' }, { type: 'undo' }, { type: 'undo' });
    expect(state.present).toBe(state.saved);
    expect(run(state, { type: 'undo' })).toBe(state);
  });

  it('typing in one field is one history entry; another field starts a new one', () => {
    const typing = (name: string): BuilderAction => ({
      type: 'updateStep',
      nodeId: 'welcome',
      update: (n) => ({ ...n, name }),
      coalesce: 'welcome:name',
    });
    const base = twoSteps();
    let state = run(base, typing('B'), typing('Bo'), typing('Bom'));
    expect(state.past).toHaveLength(base.past.length + 1);
    state = run(state, { type: 'rename', name: 'X' }, typing('Bom dia'));
    expect(state.past).toHaveLength(base.past.length + 3);
    state = run(state, { type: 'undo' }, { type: 'undo' });
    expect(step(state, 'welcome').name).toBe('Bom');
    state = run(state, { type: 'undo' });
    expect(step(state, 'welcome').name).toBe('Boas-vindas');
  });

  it('a drag moves without history and records one entry when it ends', () => {
    const base = twoSteps();
    let state = run(
      base,
      { type: 'move', nodeId: 'two', left: 510, top: 110, transient: true },
      { type: 'move', nodeId: 'two', left: 540, top: 120, transient: true },
    );
    expect(state.past).toHaveLength(base.past.length);
    state = run(state, { type: 'commitMove', before: base.present });
    expect(state.past).toHaveLength(base.past.length + 1);
    expect([step(state, 'two').left, step(state, 'two').top]).toEqual([540, 120]);
    state = run(state, { type: 'undo' });
    expect([step(state, 'two').left, step(state, 'two').top]).toEqual([500, 100]);
  });
});

describe('freeSpot', () => {
  it('keeps a new step clear of the cards around the wanted place', () => {
    const graph = defaultChatFlow('x'); // start 40,120; configurations 40,20; welcome 300,120
    expect(freeSpot(graph, 300, 120)).toEqual({ left: 530, top: 120 });
    expect(freeSpot(graph, 40, 120)).toEqual({ left: 730, top: 120 });
    expect(freeSpot(graph, 800, 500)).toEqual({ left: 800, top: 500 });
  });
});

describe('keyboard moves', () => {
  it('a run of arrow-key moves of one node is one history entry', () => {
    const base = initialBuilderState(defaultChatFlow('x'));
    const state = run(
      base,
      { type: 'move', nodeId: 'welcome', left: 305, top: 120 },
      { type: 'move', nodeId: 'welcome', left: 310, top: 120 },
      { type: 'move', nodeId: 'welcome', left: 315, top: 120 },
    );
    expect(state.past).toHaveLength(1);
    expect(run(state, { type: 'undo' }).present).toBe(base.present);
  });
});
