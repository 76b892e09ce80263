/**
 * Chat flows (client-contract §13, product-spec §3 "Chatflow" and "Chatbot step/node"): the stored format the builder
 * edits and the engine runs, the list's DTO and inputs, the default flow, and the validation both sides apply before
 * a flow is saved. The format is the ancestor's: `{ name, nodeList[], lineList[] }` with node types `start`,
 * `configurations` and `node`; layout fields (`left`, `top`, `ico`, `style`, ...) ride along untouched.
 *
 * Decisions where the contract names a field but not its meaning (ARCHITECTURE §6k):
 * - a `node` sends its `interactions` in order (text, media, delays), then runs its `actions` (a handover: the flow
 *   ends), or follows an automatic (`A`) condition at once, or waits for the customer's answer when it has conditions;
 *   a node with neither ends the flow (the ticket stays pending in its queue);
 * - conditions are tried in order: `US` matches when the answer is one of its `condition` words (case, accents and
 *   surrounding spaces ignored), `R` matches any answer, `O` (out of options) matches an answer no other condition of
 *   the node matched; `A` is automatic and needs no answer;
 * - a condition's or an action's `action`: 0 go to `nextStepId`, 1 queue `queueId`, 2 user `userIdDestination`,
 *   3 another flow `chatFlowId`, 4 close the ticket.
 */
import { z } from 'zod';

export const CHAT_FLOW_ACTIONS = { step: 0, queue: 1, user: 2, flow: 3, close: 4 } as const;
export type ChatFlowAction = (typeof CHAT_FLOW_ACTIONS)[keyof typeof CHAT_FLOW_ACTIONS];
const actionCode = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);

/** 1 = a queue, 2 = a user: where a timeout, the retries limit, out-of-hours or a returning contact go. */
export const CHAT_FLOW_DESTINY_TYPES = { queue: 1, user: 2 } as const;
const destinyType = z.union([z.literal(1), z.literal(2)]);
/**
 * The destination's id; the ancestor's builder sends '' for none. `null` comes before the '' transform: a response
 * schema is encoded (fastify-type-provider-zod), and encoding reaches a one-way transform only if no earlier option
 * took the value.
 */
const destiny = z.union([z.coerce.number().int().positive(), z.null(), z.literal('').transform(() => null)]);
const optionalRef = z.union([z.coerce.number().int().positive(), z.null(), z.literal('').transform(() => null)]);

const id = z.string().trim().min(1).max(100);
const message = z.string().max(4096);

/** N none, R random, B balanced (product-spec §9 "Auto distribution"). */
export const DISTRIBUTION_MODES = ['N', 'R', 'B'] as const;
export type DistributionMode = (typeof DISTRIBUTION_MODES)[number];
export const distributionModeSchema = z.enum(DISTRIBUTION_MODES);

export const chatFlowInteractionSchema = z.discriminatedUnion('type', [
  z.looseObject({ id, type: z.literal('MessageField'), data: z.looseObject({ message }) }),
  z.looseObject({
    id,
    type: z.literal('MediaField'),
    data: z.looseObject({
      /** A public file of the tenant (`/api/public/...`) or an http(s) URL the send fetches. */
      mediaUrl: z.string().trim().min(1).max(2000),
      /** image, video, audio or document: how the channel sends it. */
      type: z.enum(['image', 'video', 'audio', 'document']),
      name: z.string().max(255).optional(),
      caption: message.optional(),
    }),
  }),
  z.looseObject({
    id,
    type: z.literal('DelayField'),
    data: z.looseObject({ seconds: z.coerce.number().int().min(1).max(3600) }),
  }),
]);
export type ChatFlowInteraction = z.infer<typeof chatFlowInteractionSchema>;

export const chatFlowConditionSchema = z.looseObject({
  id,
  type: z.enum(['US', 'R', 'O', 'A']),
  /** The words of a `US` condition. */
  condition: z.array(z.string().trim().max(200)).max(50).default([]),
  action: actionCode,
  nextStepId: z.string().max(100).nullish(),
  queueId: optionalRef.optional(),
  userIdDestination: optionalRef.optional(),
  chatFlowId: optionalRef.optional(),
});
export type ChatFlowCondition = z.infer<typeof chatFlowConditionSchema>;

/** A node's unconditional actions (run after its interactions): the same codes as conditions, without step 0. */
export const chatFlowNodeActionSchema = z.looseObject({
  id,
  action: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]),
  queueId: optionalRef.optional(),
  userIdDestination: optionalRef.optional(),
  chatFlowId: optionalRef.optional(),
});
export type ChatFlowNodeAction = z.infer<typeof chatFlowNodeActionSchema>;

const destinationSchema = z.looseObject({ type: destinyType, destiny });

export const chatFlowConfigurationsSchema = z.looseObject({
  /** Sent when the flow starts. */
  welcomeMessage: z.looseObject({ message }).optional(),
  /** Sent when the flow closes the ticket. */
  farewellMessage: z.looseObject({ message }).optional(),
  /** An answer no condition took: this message, then the step again (`A`) or the start (`S`). */
  notOptionsSelectMessage: z.looseObject({ message, stepReturn: z.enum(['A', 'S']).default('A') }).optional(),
  /** No answer within `time` minutes (0 = never): this message, then the destination. */
  notResponseMessage: z
    .looseObject({ time: z.coerce.number().int().min(0).max(10_080), type: destinyType, destiny, message })
    .optional(),
  /** After `number` invalid answers in a row (0 = unlimited): the destination (logs retriesLimitQueue/UserDefine). */
  maxRetryBotMessage: z
    .looseObject({ number: z.coerce.number().int().min(0).max(100), type: destinyType, destiny })
    .optional(),
  /** A conversation that starts outside business hours goes straight to the destination (then the absence message). */
  outOpenHours: destinationSchema.optional(),
  /** A contact who had a conversation before goes straight to the destination; only first contacts run the flow. */
  firstInteraction: destinationSchema.optional(),
  /** Comma-separated words: when set, only a first message containing one of them starts the flow. */
  keyword: z.looseObject({ message: z.string().max(1000) }).optional(),
  /** How tickets the flow hands to a queue are distributed (overrides the queue's and the channel's mode). */
  autoDistributeTickets: distributionModeSchema.optional(),
});
export type ChatFlowConfigurations = z.infer<typeof chatFlowConfigurationsSchema>;

const layout = { name: z.string().max(200).default(''), left: z.unknown().optional(), top: z.unknown().optional() };

export const chatFlowNodeSchema = z.discriminatedUnion('type', [
  z.looseObject({ id, type: z.literal('start'), ...layout }),
  z.looseObject({
    id,
    type: z.literal('configurations'),
    ...layout,
    configurations: chatFlowConfigurationsSchema.default({}),
  }),
  z.looseObject({
    id,
    type: z.literal('node'),
    ...layout,
    interactions: z.array(chatFlowInteractionSchema).max(50).default([]),
    conditions: z.array(chatFlowConditionSchema).max(50).default([]),
    actions: z.array(chatFlowNodeActionSchema).max(5).default([]),
  }),
]);
export type ChatFlowNode = z.infer<typeof chatFlowNodeSchema>;
export type ChatFlowStepNode = Extract<ChatFlowNode, { type: 'node' }>;

/** A line: from the start to the first step, or from a step (its condition `fromCondition`) to the next step. */
export const chatFlowLineSchema = z.looseObject({
  from: id,
  to: id,
  fromCondition: z.string().max(100).nullish(),
});
export type ChatFlowLine = z.infer<typeof chatFlowLineSchema>;

export const chatFlowGraphSchema = z.looseObject({
  name: z.string().max(200).default(''),
  nodeList: z.array(chatFlowNodeSchema).min(1).max(500),
  lineList: z.array(chatFlowLineSchema).max(2000).default([]),
});
export type ChatFlowGraph = z.infer<typeof chatFlowGraphSchema>;

/** The test number: digits (a leading + and separators are dropped); '' or null for none. */
const testNumber = z
  .union([z.string().max(40), z.null()])
  .optional()
  .transform((value) => (value ? value.replace(/\D/g, '') : null))
  .refine((value) => value === null || (value.length >= 8 && value.length <= 15), { message: 'ERR_VALIDATION' });

export const chatFlowDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  isActive: z.boolean(),
  celularTeste: z.string().nullable(),
  userId: z.number().nullable(),
  flow: chatFlowGraphSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ChatFlowDto = z.infer<typeof chatFlowDtoSchema>;

/** POST /chat-flow and PUT /chat-flow/{id}: the whole record (client-contract §13); unknown keys are dropped. */
export const chatFlowInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  isActive: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(true),
  celularTeste: testNumber,
  flow: chatFlowGraphSchema,
});
export type ChatFlowInput = z.input<typeof chatFlowInputSchema>;

/** GET /chat-flow answers `{ chatFlow: [...] }`. */
export const chatFlowListResponseSchema = z.object({ chatFlow: z.array(chatFlowDtoSchema) });

/** What the server answers for a flow that does not validate (400 ERR_CHAT_FLOW_INVALID). */
export const CHAT_FLOW_ISSUE_CODES = [
  'noStart',
  'manyStarts',
  'noConfigurations',
  'startNotConnected',
  'unreachable',
  'conditionWithoutTarget',
  'actionWithoutTarget',
  'loopWithoutInput',
  'unknownNode',
  'duplicateId',
] as const;
export type ChatFlowIssueCode = (typeof CHAT_FLOW_ISSUE_CODES)[number];
export interface ChatFlowIssue {
  code: ChatFlowIssueCode;
  nodeId?: string;
  conditionId?: string;
}

const isStep = (node: ChatFlowNode): node is ChatFlowStepNode => node.type === 'node';

/** Where the start leads: the first line from a start node. */
export function startTarget(flow: Pick<ChatFlowGraph, 'nodeList' | 'lineList'>): string | null {
  const start = flow.nodeList.find((n) => n.type === 'start');
  return (start && flow.lineList.find((line) => line.from === start.id)?.to) || null;
}

/** The steps a step can lead to without the customer typing (automatic conditions). */
function automaticNext(node: ChatFlowStepNode): string[] {
  if (node.actions.length > 0) return [];
  return node.conditions
    .filter((c) => c.type === 'A' && c.action === CHAT_FLOW_ACTIONS.step && c.nextStepId)
    .map((c) => c.nextStepId!);
}

/** Every problem that stops a flow from being saved (the builder shows them; the server refuses them). */
export function validateChatFlow(flow: Pick<ChatFlowGraph, 'nodeList' | 'lineList'>): ChatFlowIssue[] {
  const issues: ChatFlowIssue[] = [];
  const byId = new Map<string, ChatFlowNode>();
  for (const node of flow.nodeList) {
    if (byId.has(node.id)) issues.push({ code: 'duplicateId', nodeId: node.id });
    byId.set(node.id, node);
  }
  const starts = flow.nodeList.filter((n) => n.type === 'start');
  if (starts.length === 0) issues.push({ code: 'noStart' });
  if (starts.length > 1) issues.push({ code: 'manyStarts' });
  if (!flow.nodeList.some((n) => n.type === 'configurations')) issues.push({ code: 'noConfigurations' });
  const first = startTarget(flow);
  if (starts.length > 0 && (!first || byId.get(first)?.type !== 'node')) issues.push({ code: 'startNotConnected' });

  const steps = flow.nodeList.filter(isStep);
  for (const node of steps) {
    for (const c of node.conditions) {
      if (c.action === CHAT_FLOW_ACTIONS.step) {
        const target = c.nextStepId ? byId.get(c.nextStepId) : undefined;
        if (!target || target.type !== 'node') {
          issues.push({ code: 'conditionWithoutTarget', nodeId: node.id, conditionId: c.id });
        }
      } else if (!hasTarget(c)) {
        issues.push({ code: 'actionWithoutTarget', nodeId: node.id, conditionId: c.id });
      }
    }
    for (const a of node.actions) {
      if (!hasTarget(a)) issues.push({ code: 'actionWithoutTarget', nodeId: node.id, conditionId: a.id });
    }
  }

  // Reachable from the start through lines and conditions.
  const reached = new Set<string>();
  const queue = first ? [first] : [];
  while (queue.length > 0) {
    const current = queue.pop()!;
    if (reached.has(current)) continue;
    reached.add(current);
    const node = byId.get(current);
    if (!node || !isStep(node)) continue;
    for (const c of node.conditions) if (c.action === CHAT_FLOW_ACTIONS.step && c.nextStepId) queue.push(c.nextStepId);
  }
  for (const node of steps) if (!reached.has(node.id)) issues.push({ code: 'unreachable', nodeId: node.id });

  // A cycle of automatic steps would send messages forever without the customer typing.
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (nodeId: string): boolean => {
    const mark = state.get(nodeId);
    if (mark === 'visiting') return true;
    if (mark === 'done') return false;
    state.set(nodeId, 'visiting');
    const node = byId.get(nodeId);
    const looped = node && isStep(node) ? automaticNext(node).some(visit) : false;
    state.set(nodeId, 'done');
    return looped;
  };
  for (const node of steps) {
    if (!state.has(node.id) && visit(node.id)) issues.push({ code: 'loopWithoutInput', nodeId: node.id });
  }
  return issues;
}

function hasTarget(c: {
  action: number;
  queueId?: number | null;
  userIdDestination?: number | null;
  chatFlowId?: number | null;
}) {
  switch (c.action) {
    case CHAT_FLOW_ACTIONS.queue:
      return Boolean(c.queueId);
    case CHAT_FLOW_ACTIONS.user:
      return Boolean(c.userIdDestination);
    case CHAT_FLOW_ACTIONS.flow:
      return Boolean(c.chatFlowId);
    default:
      return true;
  }
}

/** The flow a new record starts with (client-contract §13): a start, the configurations and one message step. */
export function defaultChatFlow(name: string, welcome = 'Olá! Como podemos ajudar?'): ChatFlowGraph {
  return {
    name,
    nodeList: [
      { id: 'start', type: 'start', name: 'Início', left: 40, top: 120 },
      {
        id: 'configurations',
        type: 'configurations',
        name: 'Configurações',
        left: 40,
        top: 20,
        configurations: {
          notOptionsSelectMessage: { message: 'Opção inválida. Escolha uma das opções.', stepReturn: 'A' },
          notResponseMessage: { time: 10, type: 1, destiny: null, message: '' },
          maxRetryBotMessage: { number: 3, type: 1, destiny: null },
        },
      },
      {
        id: 'welcome',
        type: 'node',
        name: 'Boas-vindas',
        left: 300,
        top: 120,
        interactions: [{ id: 'welcome-text', type: 'MessageField', data: { message: welcome } }],
        conditions: [],
        actions: [],
      },
    ],
    lineList: [{ from: 'start', to: 'welcome' }],
  };
}

/** How an answer is compared with a condition's words: case, accents and surrounding spaces ignored. */
export function normalizeAnswer(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').trim().toLowerCase().replace(/\s+/g, ' ');
}

// ---------- the legacy auto-reply (client-contract §13 `/auto-reply`) ----------

/** When an auto-reply runs: 0 = on a new ticket (the only trigger this product runs). */
export const autoReplyInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  action: z.coerce.number().int().min(0).max(0).default(0),
  isActive: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(true),
  celularTeste: testNumber,
});
export const autoReplyStepInputSchema = z.object({
  reply: z.string().trim().min(1).max(4096),
  initialStep: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]).default(false),
});
/** A step's action: the customer's `words` (comma-separated) lead to the next step (0), a queue (1) or a user (2). */
export const autoReplyActionInputSchema = z.object({
  stepReplyId: z.coerce.number().int().positive(),
  words: z.string().trim().min(1).max(500),
  action: z.coerce.number().int().min(0).max(2),
  queueId: optionalRef.optional(),
  userIdDestination: optionalRef.optional(),
  nextStepId: optionalRef.optional(),
  replyDefinition: z.string().max(4096).nullish(),
});

export const autoReplyActionDtoSchema = z.object({
  id: z.number(),
  stepReplyId: z.number(),
  words: z.string(),
  action: z.number(),
  queueId: z.number().nullable(),
  userIdDestination: z.number().nullable(),
  nextStepId: z.number().nullable(),
  replyDefinition: z.string().nullable(),
});
export const autoReplyStepDtoSchema = z.object({
  id: z.number(),
  idAutoReply: z.number(),
  reply: z.string(),
  initialStep: z.boolean(),
  userId: z.number().nullable(),
  stepsReplyAction: z.array(autoReplyActionDtoSchema),
});
export const autoReplyDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  action: z.number(),
  isActive: z.boolean(),
  celularTeste: z.string().nullable(),
  userId: z.number().nullable(),
  stepsReply: z.array(autoReplyStepDtoSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AutoReplyDto = z.infer<typeof autoReplyDtoSchema>;
export type AutoReplyStepDto = z.infer<typeof autoReplyStepDtoSchema>;
export type AutoReplyActionDto = z.infer<typeof autoReplyActionDtoSchema>;
