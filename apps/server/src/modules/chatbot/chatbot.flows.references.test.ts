/**
 * A flow names only its tenant's queues, users and flows (chatbot.flows.references.ts): with two tenants, every save
 * path (POST, PUT, import, duplicate) refuses another tenant's id wherever a graph holds one (conditions, actions,
 * the configurations' destinations) with 400 ERR_VALIDATION and stores nothing; the tenant's own ids save.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatFlowDto, ChatFlowGraph } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeQueue } from '../../test/ticket-fixtures.js';

let t: TestApp;
let tenantA: number;
let tenantB: number;
let supervisor: TestUser;
const own = { queue: 0, user: 0, flow: 0 };
const foreign = { queue: 0, user: 0, flow: 0 };

/** start -> ask, whose one condition and optional action and configurations are the test's. */
function flowWith(parts: { condition?: object; action?: object; configurations?: object }): ChatFlowGraph {
  return {
    name: 'Refs',
    nodeList: [
      { id: 'start', type: 'start', name: 'Início' },
      { id: 'cfg', type: 'configurations', name: 'Configurações', configurations: parts.configurations ?? {} },
      {
        id: 'ask',
        type: 'node',
        name: 'Pergunta',
        interactions: [{ id: 'i1', type: 'MessageField', data: { message: 'Oi' } }],
        conditions: [{ id: 'c1', type: 'R', condition: [], action: 4, ...parts.condition }],
        actions: parts.action ? [{ id: 'a1', ...parts.action }] : [],
      },
    ],
    lineList: [{ from: 'start', to: 'ask' }],
  } as ChatFlowGraph;
}

/** Every place a graph names an id, as a function of the ids to name. */
const placements = (ids: typeof own): [string, ChatFlowGraph][] => [
  ['condition queueId', flowWith({ condition: { action: 1, queueId: ids.queue } })],
  ['condition userIdDestination', flowWith({ condition: { action: 2, userIdDestination: ids.user } })],
  ['condition chatFlowId', flowWith({ condition: { action: 3, chatFlowId: ids.flow } })],
  ['condition queueId on a close', flowWith({ condition: { action: 4, queueId: ids.queue } })],
  ['action queueId', flowWith({ condition: { type: 'R', action: 4 }, action: { action: 1, queueId: ids.queue } })],
  ['action user', flowWith({ action: { action: 2, userIdDestination: ids.user } })],
  ['action flow', flowWith({ action: { action: 3, chatFlowId: ids.flow } })],
  ['outOpenHours queue', flowWith({ configurations: { outOpenHours: { type: 1, destiny: ids.queue } } })],
  ['firstInteraction user', flowWith({ configurations: { firstInteraction: { type: 2, destiny: ids.user } } })],
  [
    'notResponseMessage queue',
    flowWith({ configurations: { notResponseMessage: { time: 5, type: 1, destiny: ids.queue, message: 'x' } } }),
  ],
  [
    'maxRetryBotMessage user',
    flowWith({ configurations: { maxRetryBotMessage: { number: 3, type: 2, destiny: ids.user } } }),
  ],
];

async function flowCount(tenantId: number): Promise<number> {
  const { rows } = await t.database.executeSql('select count(*)::int as n from chat_flows where tenant_id = $1', [
    tenantId,
  ]);
  return Number(rows[0]!.n);
}

beforeAll(async () => {
  t = await createTestApp();
  tenantA = await t.createTenant();
  tenantB = await t.createTenant();
  ({ supervisor } = await t.createStaff(tenantA));
  const ownerB = (await t.createStaff(tenantB)).admin;
  own.queue = await makeQueue(t, tenantA, 'Nossa fila');
  own.user = supervisor.id;
  foreign.queue = await makeQueue(t, tenantB, 'Fila do outro');
  foreign.user = ownerB.id;
  const make = async (user: TestUser) =>
    (await t.call(user, 'POST', '/chat-flow', { name: 'Base', flow: flowWith({}) })).json<ChatFlowDto>().id;
  own.flow = await make(supervisor);
  foreign.flow = await make(ownerB);
});
afterAll(() => t.close());

describe("a flow naming another tenant's ids", () => {
  it('POST /chat-flow refuses each placement with 400 ERR_VALIDATION and stores nothing; own ids save', async () => {
    for (const [where, flow] of placements(foreign)) {
      const before = await flowCount(tenantA);
      const res = await t.call(supervisor, 'POST', '/chat-flow', { name: 'Roubo', flow });
      expect(res.statusCode, where).toBe(400);
      expect(res.json(), where).toEqual({ error: 'ERR_VALIDATION', field: 'flow' });
      expect(await flowCount(tenantA), where).toBe(before);
    }
    for (const [where, flow] of placements(own)) {
      const res = await t.call(supervisor, 'POST', '/chat-flow', { name: 'Nosso', flow });
      expect(res.statusCode, `${where}: ${res.body}`).toBe(200);
    }
  });

  it('an id that exists nowhere is refused alike (no oracle of what exists in other tenants)', async () => {
    const res = await t.call(supervisor, 'POST', '/chat-flow', {
      name: 'Inexistente',
      flow: flowWith({ condition: { action: 1, queueId: 999_999_999 } }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_VALIDATION', field: 'flow' });
  });

  it('PUT /chat-flow/{id} and PUT /chat-flow-import/{id} refuse them and keep the stored graph', async () => {
    const id = (
      await t.call(supervisor, 'POST', '/chat-flow', { name: 'Editar', flow: flowWith({}) })
    ).json<ChatFlowDto>().id;
    const stored = async () =>
      (await t.database.executeSql('select flow, name from chat_flows where id = $1', [id])).rows[0];
    const before = await stored();
    for (const [where, flow] of placements(foreign)) {
      const put = await t.call(supervisor, 'PUT', `/chat-flow/${id}`, { name: 'Mudou', isActive: true, flow });
      expect(put.statusCode, where).toBe(400);
      expect(put.json(), where).toEqual({ error: 'ERR_VALIDATION', field: 'flow' });
      const imported = await t.call(supervisor, 'PUT', `/chat-flow-import/${id}`, { flow, id });
      expect(imported.statusCode, where).toBe(400);
      const bare = await t.call(supervisor, 'PUT', `/chat-flow-import/${id}`, { ...flow, id });
      expect(bare.statusCode, where).toBe(400);
    }
    expect(await stored()).toEqual(before);
    const ok = await t.call(supervisor, 'PUT', `/chat-flow-import/${id}`, { flow: placements(own)[0]![1], id });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('POST /chat-flow-duplicate refuses to copy a stored graph naming another tenant (stored before the check)', async () => {
    const id = (
      await t.call(supervisor, 'POST', '/chat-flow', { name: 'Antigo', flow: flowWith({}) })
    ).json<ChatFlowDto>().id;
    const old = flowWith({ condition: { action: 1, queueId: foreign.queue } });
    await t.database.executeSql('update chat_flows set flow = $2::jsonb where id = $1', [id, JSON.stringify(old)]);
    const before = await flowCount(tenantA);
    const res = await t.call(supervisor, 'POST', '/chat-flow-duplicate', { id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_VALIDATION', field: 'flow' });
    expect(await flowCount(tenantA)).toBe(before);
  });
});
