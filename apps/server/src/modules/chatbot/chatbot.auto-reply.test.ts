/**
 * /api/auto-reply* (decisions §B): the legacy auto-reply, its steps and their actions: round trips, one auto-reply
 * per trigger, the delete refusal, the references an action may name, permissions, tenant isolation, and the engine's
 * read `loadAutoReplyGraphSource`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutoReplyActionDto, AutoReplyDto, AutoReplyStepDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeQueue, makeTicket } from '../../test/ticket-fixtures.js';
import { loadAutoReplyGraphSource } from './chatbot.flows.js';

let t: TestApp;
let tenant: number;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let outsider: TestUser;
let reply: AutoReplyDto;
let first: AutoReplyStepDto;
let second: AutoReplyStepDto;
let queue: number;
let foreignQueue: number;
const changes: number[] = [];

const sql = async (text: string, params: unknown[] = []) => (await t.database.executeSql(text, params)).rows;
const list = async (user: TestUser) => (await t.call(user, 'GET', '/auto-reply')).json<{ autoReply: AutoReplyDto[] }>();

async function ok<T>(user: TestUser, method: 'POST' | 'PUT', path: string, body: object): Promise<T> {
  const res = await t.call(user, method, path, body);
  expect(res.statusCode, `${method} ${path}: ${res.body}`).toBe(200);
  return res.json<T>();
}

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant();
  ({ admin, agent, supervisor } = await t.createStaff(tenant));
  const other = await t.createTenant();
  outsider = (await t.createStaff(other)).admin;
  queue = await makeQueue(t, tenant, 'Vendas');
  foreignQueue = await makeQueue(t, other, 'Alheia');
  t.platform.events.subscribe('chatbot.changed', ({ tenantId }) => void changes.push(tenantId));
});
afterAll(() => t.close());

describe('auto-reply', () => {
  it('creates one per trigger, lists it for every profile, changes it; the caller is the author', async () => {
    changes.length = 0;
    reply = await ok<AutoReplyDto>(supervisor, 'POST', '/auto-reply', {
      name: ' Boas-vindas ',
      action: 0,
      isActive: true,
      celularTeste: '+55 11 97777-6666',
      userId: admin.id,
    });
    expect(reply).toMatchObject({
      name: 'Boas-vindas',
      action: 0,
      isActive: true,
      celularTeste: '5511977776666',
      userId: supervisor.id,
      stepsReply: [],
    });
    expect(changes).toEqual([tenant]);

    const again = await t.call(admin, 'POST', '/auto-reply', { name: 'Outra', action: 0 });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'ERR_AUTO_REPLY_EXISTS' });
    // Only trigger 0 exists.
    const otherTrigger = await t.call(admin, 'POST', '/auto-reply', { name: 'Outra', action: 1 });
    expect(otherTrigger.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'action' });

    const updated = await ok<AutoReplyDto>(admin, 'PUT', `/auto-reply/${reply.id}/`, {
      name: 'Recepção',
      action: 0,
      isActive: 'false',
      celularTeste: null,
    });
    expect(updated).toMatchObject({ id: reply.id, name: 'Recepção', isActive: false, celularTeste: null });
    expect(updated.userId).toBe(supervisor.id);
    expect((await list(agent)).autoReply).toEqual([updated]);
    const missing = await t.call(admin, 'PUT', '/auto-reply/999999', { name: 'X', action: 0 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'ERR_NO_AUTO_REPLY_FOUND' });
  });

  it('adds steps with one initial step at most, and changes them', async () => {
    first = await ok<AutoReplyStepDto>(supervisor, 'POST', `/auto-reply/${reply.id}/steps`, {
      reply: 'Olá! 1 vendas, 2 suporte',
      initialStep: true,
      idAutoReply: 999,
    });
    expect(first).toMatchObject({
      idAutoReply: reply.id,
      reply: 'Olá! 1 vendas, 2 suporte',
      initialStep: true,
      userId: supervisor.id,
      stepsReplyAction: [],
    });
    second = await ok<AutoReplyStepDto>(admin, 'POST', `/auto-reply/${reply.id}/steps/`, {
      reply: 'Suporte',
      initialStep: true,
    });
    expect(second.initialStep).toBe(true);
    const steps = (await list(agent)).autoReply[0]!.stepsReply;
    expect(steps.map((s) => [s.id, s.initialStep])).toEqual([
      [first.id, false],
      [second.id, true],
    ]);
    first = await ok<AutoReplyStepDto>(admin, 'PUT', `/auto-reply/${reply.id}/steps/${first.id}`, {
      reply: 'Olá de novo',
      initialStep: true,
    });
    expect(first).toMatchObject({ reply: 'Olá de novo', initialStep: true });
    second = (await list(agent)).autoReply[0]!.stepsReply.find((s) => s.id === second.id)!;
    expect(second.initialStep).toBe(false);
  });

  it('refuses steps of a missing auto-reply and steps that are not of the named auto-reply', async () => {
    const noReply = await t.call(admin, 'POST', '/auto-reply/999999/steps', { reply: 'x' });
    expect(noReply.statusCode).toBe(404);
    expect(noReply.json()).toEqual({ error: 'ERR_NO_AUTO_REPLY_FOUND' });
    // Another auto-reply of the tenant (another trigger, made directly: the API only knows trigger 0).
    const [otherReply] = await sql(
      "insert into auto_replies (tenant_id, name, action) values ($1, 'Legado', 1) returning id",
      [tenant],
    );
    for (const [method, path, body] of [
      ['PUT', `/auto-reply/${otherReply!.id}/steps/${first.id}`, { reply: 'x' }],
      ['DELETE', `/auto-reply/${otherReply!.id}/steps/${first.id}`],
      ['PUT', `/auto-reply/${reply.id}/steps/999999`, { reply: 'x' }],
      ['DELETE', `/auto-reply/${reply.id}/steps/999999`],
    ] as const) {
      const res = await t.call(admin, method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_STEP_AUTO_REPLY_FOUND' });
    }
    await sql('delete from auto_replies where id = $1', [otherReply!.id]);
  });
});

describe('auto-reply actions', () => {
  let toStep: AutoReplyActionDto;
  let toQueue: AutoReplyActionDto;

  it('adds actions to a step, nested in the list, keeping only the target of their code', async () => {
    toStep = await ok<AutoReplyActionDto>(supervisor, 'POST', '/auto-reply-action', {
      stepReplyId: first.id,
      words: '2, suporte',
      action: 0,
      nextStepId: second.id,
      queueId: queue,
      replyDefinition: 'Indo para o suporte',
    });
    expect(toStep).toEqual({
      id: expect.any(Number),
      stepReplyId: first.id,
      words: '2, suporte',
      action: 0,
      queueId: null,
      userIdDestination: null,
      nextStepId: second.id,
      replyDefinition: 'Indo para o suporte',
    });
    toQueue = await ok<AutoReplyActionDto>(admin, 'POST', '/auto-reply-action/', {
      stepReplyId: first.id,
      words: '1',
      action: 1,
      queueId: String(queue),
      userIdDestination: '',
      nextStepId: '',
      replyDefinition: '',
    });
    expect(toQueue).toMatchObject({ action: 1, queueId: queue, nextStepId: null, replyDefinition: null });
    const toUser = await ok<AutoReplyActionDto>(admin, 'POST', '/auto-reply-action', {
      stepReplyId: second.id,
      words: 'humano',
      action: 2,
      userIdDestination: agent.id,
    });
    expect(toUser).toMatchObject({ action: 2, userIdDestination: agent.id });

    const [listed] = (await list(agent)).autoReply;
    const byStep = Object.fromEntries(listed!.stepsReply.map((s) => [s.id, s.stepsReplyAction.map((a) => a.id)]));
    expect(byStep).toEqual({ [first.id]: [toStep.id, toQueue.id], [second.id]: [toUser.id] });
  });

  it('refuses an action without its target or naming rows that are not the tenant’s', async () => {
    const base = { stepReplyId: first.id, words: 'x' };
    const cases: [object, number, object][] = [
      [{ ...base, action: 0 }, 400, { error: 'ERR_VALIDATION', field: 'nextStepId' }],
      [{ ...base, action: 1 }, 400, { error: 'ERR_VALIDATION', field: 'queueId' }],
      [{ ...base, action: 2 }, 400, { error: 'ERR_VALIDATION', field: 'userIdDestination' }],
      [{ ...base, action: 3, queueId: queue }, 400, { error: 'ERR_VALIDATION', field: 'action' }],
      [{ ...base, words: ' ', action: 1, queueId: queue }, 400, { error: 'ERR_VALIDATION', field: 'words' }],
      [{ ...base, stepReplyId: 999999, action: 1, queueId: queue }, 404, { error: 'ERR_NO_STEP_AUTO_REPLY_FOUND' }],
      [{ ...base, action: 0, nextStepId: 999999 }, 404, { error: 'ERR_NO_STEP_AUTO_REPLY_FOUND' }],
      [{ ...base, action: 1, queueId: foreignQueue }, 404, { error: 'ERR_NO_QUEUE_FOUND' }],
      [{ ...base, action: 2, userIdDestination: outsider.id }, 404, { error: 'ERR_NO_USER_FOUND' }],
    ];
    for (const [body, status, error] of cases) {
      const res = await t.call(admin, 'POST', '/auto-reply-action', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json()).toMatchObject(error);
    }
  });

  it('changes and deletes actions; a missing action is 404 ERR_NO_STEP_AUTO_REPLY_FOUND', async () => {
    const changed = await ok<AutoReplyActionDto>(admin, 'PUT', `/auto-reply-action/${toQueue.id}`, {
      stepReplyId: second.id,
      words: 'vendas',
      action: 0,
      nextStepId: first.id,
    });
    expect(changed).toMatchObject({ id: toQueue.id, stepReplyId: second.id, action: 0, nextStepId: first.id });
    expect(changed.queueId).toBeNull();
    const del = await t.call(admin, 'DELETE', `/auto-reply-action/${toQueue.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({});
    for (const [method, body] of [
      ['PUT', { stepReplyId: first.id, words: 'x', action: 1, queueId: queue }],
      ['DELETE'],
    ] as const) {
      const res = await t.call(admin, method, `/auto-reply-action/${toQueue.id}`, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_STEP_AUTO_REPLY_FOUND' });
    }
  });

  it('deleting a step removes its actions, and actions leading to it lose their next step', async () => {
    const third = await ok<AutoReplyStepDto>(admin, 'POST', `/auto-reply/${reply.id}/steps`, { reply: 'Terceira' });
    const own = await ok<AutoReplyActionDto>(admin, 'POST', '/auto-reply-action', {
      stepReplyId: third.id,
      words: 'a',
      action: 1,
      queueId: queue,
    });
    const leading = await ok<AutoReplyActionDto>(admin, 'POST', '/auto-reply-action', {
      stepReplyId: first.id,
      words: '3',
      action: 0,
      nextStepId: third.id,
    });
    const res = await t.call(admin, 'DELETE', `/auto-reply/${reply.id}/steps/${third.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(await sql('select id from auto_reply_actions where id = $1', [own.id])).toEqual([]);
    expect(await sql('select next_step_id from auto_reply_actions where id = $1', [leading.id])).toEqual([
      { next_step_id: null },
    ]);
    await t.call(admin, 'DELETE', `/auto-reply-action/${leading.id}`);
  });

  it('loadAutoReplyGraphSource reads the auto-reply with its steps and actions, in its tenant only', async () => {
    const read = (tenantId: number, id: number) =>
      withTenant(t.platform.db, systemContext(tenantId), (tx) => loadAutoReplyGraphSource(tx, id));
    const source = await read(tenant, reply.id);
    const [listed] = (await list(agent)).autoReply;
    expect(source).toEqual({
      id: reply.id,
      name: listed!.name,
      action: 0,
      isActive: listed!.isActive,
      celularTeste: listed!.celularTeste,
      steps: listed!.stepsReply.map((s) => ({
        id: s.id,
        reply: s.reply,
        initialStep: s.initialStep,
        actions: s.stepsReplyAction,
      })),
    });
    expect(source!.steps.flatMap((s) => s.actions)).not.toHaveLength(0);
    expect(await read(outsider.tenantId, reply.id)).toBeNull();
    expect(await read(tenant, 999_999)).toBeNull();
  });
});

describe('permissions, isolation and delete', () => {
  it('lets agents read and refuses their writes (403), changing nothing', async () => {
    const before = await list(agent);
    changes.length = 0;
    const step = before.autoReply[0]!.stepsReply[0]!;
    const action = before.autoReply[0]!.stepsReply.flatMap((s) => s.stepsReplyAction)[0]!;
    for (const [method, path, body] of [
      ['POST', '/auto-reply', { name: 'x', action: 0 }],
      ['PUT', `/auto-reply/${reply.id}`, { name: 'x', action: 0 }],
      ['DELETE', `/auto-reply/${reply.id}`],
      ['POST', `/auto-reply/${reply.id}/steps`, { reply: 'x' }],
      ['PUT', `/auto-reply/${reply.id}/steps/${step.id}`, { reply: 'x' }],
      ['DELETE', `/auto-reply/${reply.id}/steps/${step.id}`],
      ['POST', '/auto-reply-action', { stepReplyId: step.id, words: 'x', action: 1, queueId: queue }],
      ['PUT', `/auto-reply-action/${action.id}`, { stepReplyId: step.id, words: 'x', action: 1, queueId: queue }],
      ['DELETE', `/auto-reply-action/${action.id}`],
    ] as const) {
      const res = await t.call(agent, method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect(await list(agent)).toEqual(before);
    expect(changes).toEqual([]);
  });

  it("answers 404 for another tenant's ids and lists nothing of ours", async () => {
    const before = await list(agent);
    const step = before.autoReply[0]!.stepsReply[0]!;
    const action = before.autoReply[0]!.stepsReply.flatMap((s) => s.stepsReplyAction)[0]!;
    const expected: [string, string, object | undefined, string][] = [
      ['PUT', `/auto-reply/${reply.id}`, { name: 'x', action: 0 }, 'ERR_NO_AUTO_REPLY_FOUND'],
      ['DELETE', `/auto-reply/${reply.id}`, undefined, 'ERR_NO_AUTO_REPLY_FOUND'],
      ['POST', `/auto-reply/${reply.id}/steps`, { reply: 'x' }, 'ERR_NO_AUTO_REPLY_FOUND'],
      ['PUT', `/auto-reply/${reply.id}/steps/${step.id}`, { reply: 'x' }, 'ERR_NO_AUTO_REPLY_FOUND'],
      ['DELETE', `/auto-reply/${reply.id}/steps/${step.id}`, undefined, 'ERR_NO_AUTO_REPLY_FOUND'],
      [
        'POST',
        '/auto-reply-action',
        { stepReplyId: step.id, words: 'x', action: 1, queueId: queue },
        'ERR_NO_STEP_AUTO_REPLY_FOUND',
      ],
      [
        'PUT',
        `/auto-reply-action/${action.id}`,
        { stepReplyId: step.id, words: 'x', action: 1, queueId: queue },
        'ERR_NO_STEP_AUTO_REPLY_FOUND',
      ],
      ['DELETE', `/auto-reply-action/${action.id}`, undefined, 'ERR_NO_STEP_AUTO_REPLY_FOUND'],
    ];
    for (const [method, path, body, error] of expected) {
      const res = await t.call(outsider, method as 'PUT', path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toEqual({ error });
    }
    expect(await list(outsider)).toEqual({ autoReply: [] });
    // The other tenant has its own trigger 0: ours does not count against it.
    expect((await t.call(outsider, 'POST', '/auto-reply', { name: 'Deles', action: 0 })).statusCode).toBe(200);
    expect(await list(agent)).toEqual(before);
  });

  it('refuses to delete an auto-reply an open or pending ticket runs; deletes it with its steps otherwise', async () => {
    const contact = await makeContact(t, tenant);
    const channel = await makeChannel(t, tenant);
    const ticket = await makeTicket(t, tenant, { contactId: contact, channelId: channel });
    await sql('update tickets set auto_reply_id = $1 where id = $2', [reply.id, ticket]);
    for (const status of ['pending', 'open']) {
      await sql('update tickets set status = $1 where id = $2', [status, ticket]);
      const res = await t.call(admin, 'DELETE', `/auto-reply/${reply.id}`);
      expect(res.statusCode, status).toBe(409);
      expect(res.json()).toEqual({ error: 'ERR_AUTO_REPLY_RELATIONED_TICKET' });
    }
    await sql("update tickets set status = 'closed' where id = $1", [ticket]);
    changes.length = 0;
    const res = await t.call(supervisor, 'DELETE', `/auto-reply/${reply.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({});
    expect(changes).toEqual([tenant]);
    expect(await list(agent)).toEqual({ autoReply: [] });
    expect(await sql('select count(*)::int as n from auto_reply_steps where auto_reply_id = $1', [reply.id])).toEqual([
      { n: 0 },
    ]);
    const again = await t.call(admin, 'DELETE', `/auto-reply/${reply.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'ERR_NO_AUTO_REPLY_FOUND' });
    // The trigger is free again.
    expect((await t.call(admin, 'POST', '/auto-reply', { name: 'Nova', action: 0 })).statusCode).toBe(200);
  });
});
