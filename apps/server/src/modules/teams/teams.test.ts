/** /api/group-message (client-contract §16): teams and their members. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TeamDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent, supervisor } = await t.createStaff());
  stranger = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin', name: 'Outro' });
});
afterAll(() => t.close());

const createTeam = async (body: object, user: TestUser = admin) => {
  const res = await t.call(user, 'POST', '/group-message', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TeamDto>();
};

describe('teams', () => {
  it('creates, renames and lists (bare array by name with members); every profile reads', async () => {
    const vendas = await createTeam({ group: ' Vendas ', isActive: true }, supervisor);
    expect(vendas).toEqual({ id: expect.any(Number), group: 'Vendas', isActive: true, users: [] });
    const apoio = await createTeam({ group: 'Apoio', isActive: 'false' });
    for (const user of [admin, supervisor, agent]) {
      expect((await t.call(user, 'GET', '/group-message/')).json()).toEqual([apoio, vendas]);
    }
    const renamed = await t.call(supervisor, 'PUT', `/group-message/${apoio.id}`, {
      ...apoio,
      group: 'Apoio 2',
      isActive: true,
    });
    expect(renamed.json()).toEqual({ ...apoio, group: 'Apoio 2', isActive: true });
    const kept = await t.call(admin, 'PUT', `/group-message/${apoio.id}`, { group: 'Apoio 2' });
    expect(kept.json()).toEqual({ ...apoio, group: 'Apoio 2', isActive: true });
    for (const id of [vendas.id, apoio.id])
      expect((await t.call(admin, 'DELETE', `/group-message/${id}`)).statusCode).toBe(204);
    expect((await t.call(agent, 'GET', '/group-message')).json()).toEqual([]);
  });

  it('validates the name, refuses duplicates in any case (ERR_TEAM_EXISTS), answers ERR_NO_TEAM_FOUND', async () => {
    const team = await createTeam({ group: 'Suporte' });
    for (const body of [{ group: '' }, {}, { group: '  ' }, { group: 'x'.repeat(121) }]) {
      const res = await t.call(admin, 'POST', '/group-message', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'group' });
    }
    const duplicate = await t.call(admin, 'POST', '/group-message', { group: 'SUPORTE' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ error: 'ERR_TEAM_EXISTS' });
    const other = await createTeam({ group: 'Outro' });
    const onto = await t.call(admin, 'PUT', `/group-message/${other.id}`, { group: 'suporte' });
    expect(onto.statusCode).toBe(409);
    expect(onto.json()).toEqual({ error: 'ERR_TEAM_EXISTS' });
    for (const [method, path, body] of [
      ['PUT', '/group-message/999999', { group: 'Z' }],
      ['DELETE', '/group-message/999999', undefined],
      ['GET', '/group-message/999999', undefined],
      ['POST', '/group-message/user', { userId: agent.id, groupId: 999999 }],
      ['DELETE', `/group-message/user/${agent.id}/999999`, undefined],
    ] as const) {
      const res = await t.call(admin, method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_TEAM_FOUND' });
    }
    await t.call(admin, 'DELETE', `/group-message/${team.id}`);
    await t.call(admin, 'DELETE', `/group-message/${other.id}`);
  });

  it('adds members (idempotent, ids as strings), lists them, removes them; users of another tenant are refused', async () => {
    const team = await createTeam({ group: 'Plantão' });
    const add = await t.call(supervisor, 'POST', '/group-message/user', { userId: String(agent.id), groupId: team.id });
    expect(add.statusCode).toBe(200);
    await t.call(admin, 'POST', '/group-message/user', { userId: agent.id, groupId: team.id });
    await t.call(admin, 'POST', '/group-message/user', { userId: admin.id, groupId: team.id });
    const members = [
      { id: admin.id, name: 'Ana Admin', email: admin.email, profile: 'admin' },
      { id: agent.id, name: 'Zé Agente', email: agent.email, profile: 'user' },
    ];
    expect((await t.call(agent, 'GET', `/group-message/${team.id}`)).json()).toEqual(members);
    expect((await t.call(agent, 'GET', '/group-message')).json()).toEqual([
      {
        ...team,
        users: [
          { id: admin.id, name: 'Ana Admin' },
          { id: agent.id, name: 'Zé Agente' },
        ],
      },
    ]);
    for (const [method, path, body] of [
      ['POST', '/group-message/user', { userId: stranger.id, groupId: team.id }],
      ['POST', '/group-message/user', { userId: 999999, groupId: team.id }],
      ['DELETE', `/group-message/user/${stranger.id}/${team.id}`, undefined],
    ] as const) {
      const res = await t.call(admin, method, path, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_USER_FOUND' });
    }
    const bad = await t.call(admin, 'POST', '/group-message/user', { userId: 'abc', groupId: team.id });
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'userId' });
    expect((await t.call(admin, 'DELETE', `/group-message/user/${agent.id}/${team.id}`)).statusCode).toBe(204);
    expect((await t.call(admin, 'DELETE', `/group-message/user/${agent.id}/${team.id}`)).statusCode).toBe(204);
    expect((await t.call(agent, 'GET', `/group-message/${team.id}/`)).json()).toEqual([members[0]]);
    // Deleting the team takes its memberships along.
    expect((await t.call(admin, 'DELETE', `/group-message/${team.id}`)).statusCode).toBe(204);
    expect((await t.call(admin, 'GET', `/group-message/${team.id}`)).json()).toEqual({ error: 'ERR_NO_TEAM_FOUND' });
  });

  it('refuses every write to agents (ERR_NO_PERMISSION) and changes nothing', async () => {
    const team = await createTeam({ group: 'Fechada' });
    for (const [method, path, body] of [
      ['POST', '/group-message', { group: 'Agente' }],
      ['PUT', `/group-message/${team.id}`, { group: 'Agente' }],
      ['DELETE', `/group-message/${team.id}`, undefined],
      ['POST', '/group-message/user', { userId: agent.id, groupId: team.id }],
      ['DELETE', `/group-message/user/${agent.id}/${team.id}`, undefined],
    ] as const) {
      const res = await t.call(agent, method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect((await t.call(agent, 'GET', '/group-message')).json()).toEqual([team]);
  });
});
