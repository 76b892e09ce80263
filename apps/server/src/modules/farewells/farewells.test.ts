/** /api/farewellPrivateMessage: every profile reads; supervisors and admins write; the tenant's own only. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FarewellDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let otherAdmin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent, supervisor } = await t.createStaff());
  ({ admin: otherAdmin } = await t.createStaff(await t.createTenant()));
});
afterAll(() => t.close());

const list = async (user: TestUser) =>
  (await t.call(user, 'GET', '/farewellPrivateMessage/')).json<{ farewellPrivateMessage: FarewellDto[] }>()
    .farewellPrivateMessage;

describe('closing messages', () => {
  it('supervisors create, edit and delete; every profile lists; agents are refused writes', async () => {
    const created = await t.call(supervisor, 'POST', '/farewellPrivateMessage/', { message: ' Até logo! ' });
    expect(created.statusCode).toBe(201);
    const farewell = created.json<FarewellDto>();
    expect(farewell).toEqual({
      id: expect.any(Number),
      message: 'Até logo!',
      userId: supervisor.id,
      createdAt: expect.any(String),
    });
    for (const user of [admin, agent, supervisor]) expect(await list(user)).toEqual([farewell]);
    const edited = await t.call(admin, 'PUT', `/farewellPrivateMessage/${farewell.id}`, { message: 'Tchau' });
    expect(edited.json()).toEqual({ ...farewell, message: 'Tchau' });
    for (const [method, path, body] of [
      ['POST', '/farewellPrivateMessage', { message: 'x' }],
      ['PUT', `/farewellPrivateMessage/${farewell.id}`, { message: 'y' }],
      ['DELETE', `/farewellPrivateMessage/${farewell.id}`, undefined],
      ['DELETE', '/farewellPrivateMessageAll', undefined],
    ] as const) {
      const res = await t.call(agent, method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect(await list(agent)).toEqual([{ ...farewell, message: 'Tchau' }]);
    expect((await t.call(supervisor, 'DELETE', `/farewellPrivateMessage/${farewell.id}`)).statusCode).toBe(204);
    expect(await list(admin)).toEqual([]);
  });

  it('validates the message (required, at most 1000) and answers ERR_NO_FAREWELL_FOUND', async () => {
    for (const body of [{}, { message: '' }, { message: '   ' }, { message: 'x'.repeat(1001) }]) {
      const res = await t.call(admin, 'POST', '/farewellPrivateMessage', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'message' });
    }
    expect((await t.call(admin, 'POST', '/farewellPrivateMessage', { message: 'x'.repeat(1000) })).statusCode).toBe(
      201,
    );
    for (const [method, body] of [
      ['PUT', { message: 'z' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.call(admin, method, '/farewellPrivateMessage/999999', body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_FAREWELL_FOUND' });
    }
  });

  it("deletes all of the caller's tenant only, and another tenant cannot reach one by id", async () => {
    const mine = (await t.call(admin, 'POST', '/farewellPrivateMessage', { message: 'Obrigado' })).json<FarewellDto>();
    const theirs = (
      await t.call(otherAdmin, 'POST', '/farewellPrivateMessage', { message: 'Deles' })
    ).json<FarewellDto>();
    expect((await t.call(otherAdmin, 'PUT', `/farewellPrivateMessage/${mine.id}`, { message: 'x' })).statusCode).toBe(
      404,
    );
    expect((await t.call(otherAdmin, 'DELETE', `/farewellPrivateMessage/${mine.id}`)).statusCode).toBe(404);
    const all = await t.call(supervisor, 'DELETE', '/farewellPrivateMessageAll/');
    expect(all.statusCode).toBe(200);
    expect(all.json().count).toBeGreaterThanOrEqual(1);
    expect(await list(admin)).toEqual([]);
    expect(await list(otherAdmin)).toEqual([theirs]);
  });
});
