/** The chat-flow contract: validateChatFlow (every issue code), the default flow, and the graph schema's edges. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CHAT_FLOW_ISSUE_CODES,
  chatFlowDtoSchema,
  chatFlowGraphSchema,
  defaultChatFlow,
  normalizeAnswer,
  startTarget,
  validateChatFlow,
  type ChatFlowCondition,
  type ChatFlowGraph,
  type ChatFlowIssueCode,
  type ChatFlowNode,
  type ChatFlowNodeAction,
} from './chat-flows.js';

type Step = Extract<ChatFlowNode, { type: 'node' }>;
const step = (id: string, conditions: Partial<ChatFlowCondition>[] = [], actions: ChatFlowNodeAction[] = []): Step => ({
  id,
  type: 'node',
  name: id,
  interactions: [{ id: `${id}-text`, type: 'MessageField', data: { message: id } }],
  conditions: conditions.map((c, i) => ({ id: `${id}-c${i}`, type: 'US', condition: [], action: 0, ...c })),
  actions,
});
const start: ChatFlowNode = { id: 'start', type: 'start', name: 'Início' };
const configurations: ChatFlowNode = { id: 'cfg', type: 'configurations', name: 'Configurações', configurations: {} };

/** start -> menu; menu: "1" -> one, "2" -> queue 5, anything else -> menu again (waits for an answer). */
function menu(): ChatFlowGraph {
  return {
    name: 'Menu',
    nodeList: [
      start,
      configurations,
      step('menu', [
        { type: 'US', condition: ['1'], action: 0, nextStepId: 'one' },
        { type: 'US', condition: ['2'], action: 1, queueId: 5 },
        { type: 'O', action: 0, nextStepId: 'menu' },
      ]),
      step('one', [{ type: 'R', action: 4 }]),
    ],
    lineList: [
      { from: 'start', to: 'menu' },
      { from: 'menu', to: 'one', fromCondition: 'menu-c0' },
    ],
  };
}

const codes = (flow: ChatFlowGraph): ChatFlowIssueCode[] => validateChatFlow(flow).map((issue) => issue.code);
const withNodes = (flow: ChatFlowGraph, nodeList: ChatFlowNode[]): ChatFlowGraph => ({ ...flow, nodeList });

describe('validateChatFlow', () => {
  it('accepts the default flow and a menu with a loop that waits for the customer', () => {
    expect(validateChatFlow(defaultChatFlow('Novo'))).toEqual([]);
    expect(validateChatFlow(menu())).toEqual([]);
    // The default flow also passes the stored format's schema unchanged.
    expect(chatFlowGraphSchema.parse(defaultChatFlow('Novo'))).toEqual(defaultChatFlow('Novo'));
  });

  it('duplicateId: two nodes with one id', () => {
    const flow = menu();
    expect(validateChatFlow(withNodes(flow, [...flow.nodeList, step('one')]))).toContainEqual({
      code: 'duplicateId',
      nodeId: 'one',
    });
  });

  it('noStart and manyStarts', () => {
    const flow = menu();
    expect(
      codes(
        withNodes(
          flow,
          flow.nodeList.filter((n) => n.type !== 'start'),
        ),
      ),
    ).toContain('noStart');
    const twoStarts = withNodes(flow, [...flow.nodeList, { id: 'start2', type: 'start', name: 'Outro' }]);
    expect(codes(twoStarts)).toEqual(['manyStarts']);
  });

  it('noConfigurations', () => {
    const flow = menu();
    expect(
      codes(
        withNodes(
          flow,
          flow.nodeList.filter((n) => n.type !== 'configurations'),
        ),
      ),
    ).toEqual(['noConfigurations']);
  });

  it('startNotConnected: no line from the start, or one to a node that is not a step', () => {
    const flow = menu();
    const noLine = { ...flow, lineList: flow.lineList.filter((l) => l.from !== 'start') };
    expect(codes(noLine)).toContain('startNotConnected');
    for (const to of ['cfg', 'missing']) {
      const wrong = { ...flow, lineList: [{ from: 'start', to }, ...flow.lineList.slice(1)] };
      expect(codes(wrong), to).toContain('startNotConnected');
    }
  });

  it('unreachable: a step no line or condition leads to', () => {
    const flow = menu();
    expect(validateChatFlow(withNodes(flow, [...flow.nodeList, step('orphan')]))).toEqual([
      { code: 'unreachable', nodeId: 'orphan' },
    ]);
  });

  it('conditionWithoutTarget: "go to step" without a step, to a missing node or to a non-step', () => {
    for (const nextStepId of [null, 'missing', 'cfg', 'start']) {
      const flow = menu();
      const broken = withNodes(flow, [
        start,
        configurations,
        step('menu', [{ type: 'US', condition: ['1'], action: 0, nextStepId }]),
      ]);
      expect(validateChatFlow(broken), String(nextStepId)).toContainEqual({
        code: 'conditionWithoutTarget',
        nodeId: 'menu',
        conditionId: 'menu-c0',
      });
    }
  });

  it('actionWithoutTarget: a queue, user or flow action (condition or node action) naming none; close needs none', () => {
    const targets = [
      { action: 1, field: 'queueId' },
      { action: 2, field: 'userIdDestination' },
      { action: 3, field: 'chatFlowId' },
    ] as const;
    for (const { action, field } of targets) {
      const asCondition = withNodes(menu(), [start, configurations, step('menu', [{ type: 'R', action }])]);
      expect(validateChatFlow(asCondition), `condition ${action}`).toEqual([
        { code: 'actionWithoutTarget', nodeId: 'menu', conditionId: 'menu-c0' },
      ]);
      const asAction = withNodes(menu(), [start, configurations, step('menu', [], [{ id: 'a1', action }])]);
      expect(validateChatFlow(asAction), `action ${action}`).toEqual([
        { code: 'actionWithoutTarget', nodeId: 'menu', conditionId: 'a1' },
      ]);
      const named = withNodes(menu(), [start, configurations, step('menu', [], [{ id: 'a1', action, [field]: 9 }])]);
      expect(validateChatFlow(named), `named ${action}`).toEqual([]);
    }
    const close = withNodes(menu(), [start, configurations, step('menu', [{ type: 'R', action: 4 }])]);
    expect(validateChatFlow(close)).toEqual([]);
  });

  it('loopWithoutInput: automatic conditions going round without the customer typing', () => {
    const loop = (nodes: Step[]): ChatFlowGraph => ({
      name: 'Laço',
      nodeList: [start, configurations, ...nodes],
      lineList: [{ from: 'start', to: nodes[0]!.id }],
    });
    const twoSteps = loop([
      step('a', [{ type: 'A', action: 0, nextStepId: 'b' }]),
      step('b', [{ type: 'A', action: 0, nextStepId: 'a' }]),
    ]);
    expect(codes(twoSteps)).toEqual(['loopWithoutInput']);
    expect(codes(loop([step('self', [{ type: 'A', action: 0, nextStepId: 'self' }])]))).toEqual(['loopWithoutInput']);
    // A cycle through a step that waits for an answer, or one whose actions run first, is not a loop.
    const waits = loop([
      step('a', [{ type: 'A', action: 0, nextStepId: 'b' }]),
      step('b', [{ type: 'US', condition: ['x'], action: 0, nextStepId: 'a' }]),
    ]);
    expect(codes(waits)).toEqual([]);
    const handsOver = loop([step('a', [{ type: 'A', action: 0, nextStepId: 'a' }], [{ id: 'h', action: 4 }])]);
    expect(codes(handsOver)).toEqual([]);
  });

  it('reports only codes of the published list', () => {
    const broken: ChatFlowGraph = { name: '', nodeList: [step('a', [{ type: 'R', action: 1 }])], lineList: [] };
    for (const code of codes(broken)) expect(CHAT_FLOW_ISSUE_CODES).toContain(code);
    expect(codes(broken).sort()).toEqual(['actionWithoutTarget', 'noConfigurations', 'noStart', 'unreachable']);
  });
});

describe('the flow format', () => {
  it('startTarget follows the first line from the start', () => {
    expect(startTarget(menu())).toBe('menu');
    expect(startTarget({ nodeList: [start], lineList: [] })).toBeNull();
  });

  it("reads the ancestor's '' as no destination, and a DTO holding null destinations encodes for a response", () => {
    const parsed = chatFlowGraphSchema.parse({
      nodeList: [
        {
          id: 'cfg',
          type: 'configurations',
          configurations: {
            outOpenHours: { type: 1, destiny: '' },
            maxRetryBotMessage: { number: 2, type: 2, destiny: '7' },
          },
        },
        step('s', [{ type: 'R', action: 1, queueId: '' as unknown as null }]),
      ],
    });
    const cfg = parsed.nodeList[0] as Extract<ChatFlowNode, { type: 'configurations' }>;
    expect(cfg.configurations.outOpenHours?.destiny).toBeNull();
    expect(cfg.configurations.maxRetryBotMessage?.destiny).toBe(7);
    expect((parsed.nodeList[1] as Step).conditions[0]!.queueId).toBeNull();
    // fastify-type-provider-zod encodes responses: a one-way transform reached by a null would throw.
    const dto = {
      id: 1,
      name: 'x',
      isActive: true,
      celularTeste: null,
      userId: null,
      flow: { ...parsed, lineList: [] },
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(() => z.encode(chatFlowDtoSchema, dto)).not.toThrow();
    expect(() => z.encode(chatFlowDtoSchema, { ...dto, flow: defaultChatFlow('Novo') })).not.toThrow();
  });

  it('normalizeAnswer ignores case, accents and surrounding or repeated spaces', () => {
    expect(normalizeAnswer('  Não  SEI ')).toBe('nao sei');
    expect(normalizeAnswer('Ação')).toBe(normalizeAnswer('acao'));
  });
});
