/** Queue membership on users: set on create and update (ids or objects), read in the DTO, changed only by admins. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueDto, UserDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let sales: QueueDto;
let support: QueueDto;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent } = await t.createStaff());
  sales = (await t.call(admin, 'POST', '/queue', { queue: 'Vendas' })).json<QueueDto>();
  support = (await t.call(admin, 'POST', '/queue', { queue: 'Suporte' })).json<QueueDto>();
});
afterAll(() => t.close());

const ref = (q: QueueDto) => ({ id: q.id, queue: q.queue, name: q.queue });

describe('user queues', () => {
  it('creates with queue ids and updates with queue objects; the DTO lists them by name', async () => {
    const created = await t.call(admin, 'POST', '/users', {
      name: 'Nova',
      email: 'nova-queues@test.local',
      password: 'Segredo#1',
      queues: [sales.id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json<UserDto>();
    expect(user.queues).toEqual([ref(sales)]);
    const updated = await t.call(admin, 'PUT', `/users/${user.id}`, {
      queues: [{ id: support.id, queue: 'Suporte' }, sales.id],
    });
    expect(updated.json<UserDto>().queues).toEqual([ref(support), ref(sales)]);
    expect((await t.call(admin, 'GET', `/users/${user.id}`)).json<UserDto>().queues).toHaveLength(2);
    const listed = (await t.call(admin, 'GET', '/users?searchParam=nova-queues')).json<{ users: UserDto[] }>();
    expect(listed.users[0]?.queues).toHaveLength(2);
    expect((await t.call(admin, 'PUT', `/users/${user.id}`, { queues: [] })).json<UserDto>().queues).toEqual([]);
  });

  it('refuses queues of no queue of the tenant, and an agent changing its own queues', async () => {
    const bad = await t.call(admin, 'PUT', `/users/${agent.id}`, { queues: [999_999] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'queues' });
    await t.call(admin, 'PUT', `/users/${agent.id}`, { queues: [sales.id] });
    const echo = await t.call(agent, 'PUT', `/users/${agent.id}`, { name: 'Zé', queues: [ref(sales)] });
    expect(echo.statusCode, echo.body).toBe(200); // the unchanged list echoed back is fine
    const grab = await t.call(agent, 'PUT', `/users/${agent.id}`, { queues: [sales.id, support.id] });
    expect(grab.statusCode).toBe(403);
    expect(grab.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
  });
});
