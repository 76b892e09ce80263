/**
 * JSON bodies app-wide (json-body.ts): a body nested past MAX_JSON_DEPTH answers 400 ERR_VALIDATION before any
 * route sees it (a 4,500-level chat flow answered 500: drizzle's JSON.stringify overflowed the stack), on every JSON
 * route, and the server keeps serving; malformed JSON and prototype poisoning stay 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultChatFlow } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from './json-body.js';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('jsonNestsDeeperThan', () => {
  it('counts arrays and objects, not brackets inside strings (escaped quotes included)', () => {
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestsDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonNestsDeeperThan(`${'{"a":'.repeat(3)}1${'}'.repeat(3)}`, 3)).toBe(false);
    expect(jsonNestsDeeperThan(`${'{"a":'.repeat(4)}1${'}'.repeat(4)}`, 3)).toBe(true);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: '[[[[[[', b: 'x\\"[[[[[' }), 2)).toBe(false);
    // Siblings do not add up: depth is nesting, not count.
    expect(jsonNestsDeeperThan(JSON.stringify([[1], [2], [3], [4]]), 2)).toBe(false);
  });
});

describe('JSON bodies through the app', () => {
  let t: TestApp;
  let supervisor: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    ({ supervisor } = await t.createStaff());
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api${url}`,
      headers: { ...supervisor.auth, 'content-type': 'application/json' },
      payload,
    });

  /** A valid flow whose start node carries `value` in a layout field (which the schema lets through). */
  const flowBody = (value: string) => {
    const graph = defaultChatFlow('Fundo') as unknown as { nodeList: Record<string, unknown>[] };
    graph.nodeList[0]!.left = '__VALUE__';
    return JSON.stringify({ name: 'Fundo', flow: graph }).replace('"__VALUE__"', value);
  };

  it('a 4,500-level body answers 400 ERR_VALIDATION on POST /chat-flow and on another JSON route; the server keeps serving', async () => {
    const before = await t.database.executeSql('select count(*)::int as n from chat_flows');
    const flow = await post('/chat-flow', flowBody(nested(4500)));
    expect(flow.statusCode).toBe(400);
    expect(flow.json()).toEqual({ error: 'ERR_VALIDATION', field: 'body' });
    const objects = await post('/chat-flow', `{"name":${'{"a":'.repeat(4500)}1${'}'.repeat(4500)}}`);
    expect(objects.statusCode).toBe(400);
    expect(objects.json()).toEqual({ error: 'ERR_VALIDATION', field: 'body' });
    const tags = await post('/tags', `{"tag":"x","color":${nested(4500)}}`);
    expect(tags.statusCode).toBe(400);
    expect(tags.json()).toEqual({ error: 'ERR_VALIDATION', field: 'body' });
    expect((await t.database.executeSql('select count(*)::int as n from chat_flows')).rows).toEqual(before.rows);
    // Still serving, and a flow at the limit saves.
    expect((await t.call(supervisor, 'GET', '/chat-flow')).statusCode).toBe(200);
    const atLimit = await post('/chat-flow', flowBody(nested(MAX_JSON_DEPTH - 5)));
    expect(atLimit.statusCode, atLimit.body).toBe(200);
  });

  it('malformed JSON, an empty JSON body and prototype poisoning stay 400', async () => {
    for (const payload of ['{"tag":', '', '{"__proto__":{"x":1},"tag":"a"}']) {
      const res = await post('/tags', payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error, payload).toBe('ERR_VALIDATION');
    }
  });
});
