/** /api/kanban: lanes for every profile; supervisors and admins create, rename, reorder and delete them. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ContactDto, LaneDto } from '@conversa/shared';
import { eq } from 'drizzle-orm';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { contacts } from '../contacts/contacts.tables.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent, supervisor } = await t.createStaff());
});
afterAll(() => t.close());

const lanesOf = async (user: TestUser) => (await t.call(user, 'GET', '/kanban/')).json<{ kanban: LaneDto[] }>().kanban;

async function clearLanes() {
  for (const lane of await lanesOf(admin)) await t.call(admin, 'DELETE', `/kanban/${lane.id}`);
}

describe('kanban lanes', () => {
  it('supervisors and admins create and edit; every profile lists by position; agents are refused', async () => {
    await clearLanes();
    const first = await t.call(supervisor, 'POST', '/kanban', { name: ' Novo ' });
    expect(first.statusCode).toBe(201);
    const novo = first.json<LaneDto>();
    expect(novo).toEqual({ id: expect.any(Number), name: 'Novo', position: 0 });
    // Left out, the position follows the last lane; given, it is kept (a string too: the reference client).
    const contato = (await t.call(admin, 'POST', '/kanban/', { name: 'Contato' })).json<LaneDto>();
    expect(contato.position).toBe(1);
    const ganho = (await t.call(admin, 'POST', '/kanban', { name: 'Ganho', position: '0' })).json<LaneDto>();
    expect(ganho.position).toBe(0);
    for (const user of [admin, agent, supervisor]) {
      expect(await lanesOf(user)).toEqual([novo, ganho, contato]);
    }
    const renamed = await t.call(supervisor, 'PUT', `/kanban/${ganho.id}`, { id: 999, name: 'Fechado', position: 5 });
    expect(renamed.json()).toEqual({ id: ganho.id, name: 'Fechado', position: 5 });
    // PUT without a position keeps the lane's place.
    expect((await t.call(admin, 'PUT', `/kanban/${ganho.id}`, { name: 'Fechado!' })).json()).toEqual({
      id: ganho.id,
      name: 'Fechado!',
      position: 5,
    });
    for (const [method, path, body] of [
      ['POST', '/kanban', { name: 'X' }],
      ['PUT', `/kanban/${novo.id}`, { name: 'Y' }],
      ['PUT', '/kanban/order', { ids: [novo.id] }],
      ['DELETE', `/kanban/${novo.id}`, undefined],
    ] as const) {
      const res = await t.call(agent, method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect((await lanesOf(agent)).map((l) => l.name)).toEqual(['Novo', 'Contato', 'Fechado!']);
  });

  it('validates the name (required) and answers ERR_NO_LANE_FOUND', async () => {
    for (const body of [{ name: '' }, {}, { name: '   ' }, { name: 'x'.repeat(121) }, { name: 'A', position: -1 }]) {
      const res = await t.call(admin, 'POST', '/kanban', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    expect((await t.call(admin, 'POST', '/kanban', {})).json()).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'name',
    });
    const put = await t.call(admin, 'PUT', '/kanban/999999', { name: 'Z' });
    expect(put.statusCode).toBe(404);
    expect(put.json()).toEqual({ error: 'ERR_NO_LANE_FOUND' });
    const del = await t.call(admin, 'DELETE', '/kanban/999999');
    expect(del.statusCode).toBe(404);
    expect(del.json()).toEqual({ error: 'ERR_NO_LANE_FOUND' });
  });

  it('reorders: listed ids take positions 0..n-1, the others follow; an unknown id changes nothing', async () => {
    await clearLanes();
    const lanes: LaneDto[] = [];
    for (const name of ['A', 'B', 'C', 'D']) {
      lanes.push((await t.call(admin, 'POST', '/kanban', { name })).json<LaneDto>());
    }
    const [la, lb, lc, ld] = lanes as [LaneDto, LaneDto, LaneDto, LaneDto];
    const res = await t.call(supervisor, 'PUT', '/kanban/order', { ids: [lc.id, la.id] });
    expect(res.statusCode).toBe(200);
    const expected = [
      { ...lc, position: 0 },
      { ...la, position: 1 },
      { ...lb, position: 2 },
      { ...ld, position: 3 },
    ];
    expect(res.json()).toEqual({ kanban: expected });
    expect(await lanesOf(agent)).toEqual(expected);
    const unknown = await t.call(admin, 'PUT', '/kanban/order', { ids: [lb.id, 999999] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'ERR_NO_LANE_FOUND' });
    expect(await lanesOf(agent)).toEqual(expected);
    for (const body of [{ ids: [] }, { ids: [la.id, la.id] }, { ids: ['x'] }, {}]) {
      expect((await t.call(admin, 'PUT', '/kanban/order', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
  });

  it('deleting a lane takes its contacts out of it in the same transaction, and only them', async () => {
    await clearLanes();
    const gone = (await t.call(admin, 'POST', '/kanban', { name: 'Sai' })).json<LaneDto>();
    const stays = (await t.call(admin, 'POST', '/kanban', { name: 'Fica' })).json<LaneDto>();
    const ids = await withTenant(t.platform.db, systemContext(1), async (tx) => {
      const rows = await tx
        .insert(contacts)
        .values([
          { tenantId: 1, name: 'Em Sai 1', kanban: gone.id },
          { tenantId: 1, name: 'Em Sai 2', kanban: gone.id },
          { tenantId: 1, name: 'Em Fica', kanban: stays.id },
        ])
        .returning({ id: contacts.id });
      return rows.map((r) => r.id);
    });
    expect((await t.call(supervisor, 'DELETE', `/kanban/${gone.id}`)).statusCode).toBe(204);
    const lanesAfter = await withTenant(t.platform.db, systemContext(1), (tx) =>
      Promise.all(ids.map(async (id) => (await tx.select().from(contacts).where(eq(contacts.id, id)))[0]!.kanban)),
    );
    expect(lanesAfter).toEqual([null, null, stays.id]);
    expect(await lanesOf(admin)).toEqual([stays]);
  });

  it('publishes {T}:kanban to the tenant after each change, and nothing for a refused one', async () => {
    await clearLanes();
    const publish = vi.spyOn(t.platform.realtime, 'publish');
    try {
      const lane = (await t.call(admin, 'POST', '/kanban', { name: 'Ao vivo' })).json<LaneDto>();
      await t.call(admin, 'PUT', `/kanban/${lane.id}`, { name: 'Ao vivo 2' });
      await t.call(agent, 'PUT', `/kanban/${lane.id}`, { name: 'Recusado' });
      await t.call(admin, 'PUT', '/kanban/order', { ids: [lane.id] });
      await t.call(admin, 'DELETE', `/kanban/${lane.id}`);
      await vi.waitFor(() => expect(publish.mock.calls.filter(([, e]) => e === '1:kanban')).toHaveLength(4));
      const renamed = { ...lane, name: 'Ao vivo 2' };
      expect(publish.mock.calls.filter(([, event]) => event === '1:kanban')).toEqual([
        ['tenant:1', '1:kanban', { action: 'create', lane }],
        ['tenant:1', '1:kanban', { action: 'update', lane: renamed }],
        ['tenant:1', '1:kanban', { action: 'order', kanban: [renamed] }],
        ['tenant:1', '1:kanban', { action: 'delete', lane: renamed }],
      ]);
    } finally {
      publish.mockRestore();
    }
  });

  it('a lane of another tenant is not found: 404 on every id route, nothing changed', async () => {
    const otherTenant = await t.createTenant();
    const { admin: otherAdmin } = await t.createStaff(otherTenant);
    const lane = (await t.call(admin, 'POST', '/kanban', { name: 'Minha' })).json<LaneDto>();
    for (const [method, path, body] of [
      ['PUT', `/kanban/${lane.id}`, { name: 'Roubada' }],
      ['DELETE', `/kanban/${lane.id}`, undefined],
      ['PUT', '/kanban/order', { ids: [lane.id] }],
      ['GET', `/kanban/${lane.id}/contacts`, undefined],
    ] as const) {
      const res = await t.call(otherAdmin, method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_LANE_FOUND' });
    }
    expect(await lanesOf(otherAdmin)).toEqual([]);
    expect((await lanesOf(admin)).find((l) => l.id === lane.id)).toEqual(lane);
    // Nor can the other tenant put its contact in our lane.
    const theirs = (await t.call(otherAdmin, 'POST', '/contacts', { name: 'Deles' })).json<ContactDto>();
    const move = await t.call(otherAdmin, 'PUT', `/contacts/${theirs.id}`, { kanban: lane.id });
    expect(move.statusCode).toBe(404);
    expect(move.json()).toEqual({ error: 'ERR_NO_LANE_FOUND' });
  });
});
