/** /api/queue: every profile lists the tenant's queues; supervisors and admins create, rename and delete them. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { QueueDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { contacts } from '../contacts/contacts.tables.js';
import { tickets } from '../tickets/tickets.tables.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent, supervisor } = await t.createStaff());
});
afterAll(() => t.close());

describe('queues', () => {
  it('refuses text PostgreSQL cannot store (a NUL character) with 400, not 500, and stores nothing', async () => {
    const before = (await t.call(admin, 'GET', '/queue')).json();
    const res = await t.call(admin, 'POST', '/queue', { queue: 'Fila\u0000' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'ERR_VALIDATION' });
    expect((await t.call(admin, 'GET', '/queue')).json()).toEqual(before);
  });

  it('supervisors and admins create and rename; every profile lists; agents are refused', async () => {
    const created = await t.call(supervisor, 'POST', '/queue', { queue: ' Vendas ', isActive: true });
    expect(created.statusCode).toBe(201);
    const queue = created.json<QueueDto>();
    expect(queue).toEqual({ id: expect.any(Number), queue: 'Vendas', isActive: true, distribution: 'N' });
    for (const user of [admin, agent, supervisor]) {
      expect((await t.call(user, 'GET', '/queue/')).json()).toEqual([queue]);
    }
    const renamed = await t.call(admin, 'PUT', `/queue/${queue.id}`, { queue: 'Comercial', isActive: 'false', id: 99 });
    expect(renamed.json()).toEqual({ id: queue.id, queue: 'Comercial', isActive: false, distribution: 'N' });
    const bySupervisor = await t.call(supervisor, 'PUT', `/queue/${queue.id}`, { queue: 'Comercial 2' });
    expect(bySupervisor.json()).toEqual({ id: queue.id, queue: 'Comercial 2', isActive: false, distribution: 'N' });
    for (const [method, path, body] of [
      ['POST', '/queue', { queue: 'X' }],
      ['PUT', `/queue/${queue.id}`, { queue: 'Y' }],
      ['DELETE', `/queue/${queue.id}`, undefined],
    ] as const) {
      const res = await t.call(agent, method, path, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect((await t.call(admin, 'GET', '/queue')).json()).toEqual([
      { ...queue, queue: 'Comercial 2', isActive: false },
    ]);
  });

  it('validates the name (required) and answers ERR_QUEUE_EXISTS (any case) and ERR_NO_QUEUE_FOUND', async () => {
    const suporte = (await t.call(admin, 'POST', '/queue', { queue: 'Suporte' })).json<QueueDto>();
    for (const body of [{ queue: '' }, {}, { queue: '   ' }]) {
      const res = await t.call(admin, 'POST', '/queue', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'queue' });
    }
    const duplicate = await t.call(supervisor, 'POST', '/queue', { queue: ' SUPORTE ' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ error: 'ERR_QUEUE_EXISTS' });
    const other = (await t.call(admin, 'POST', '/queue', { queue: 'Outra' })).json<QueueDto>();
    const renamedOnto = await t.call(admin, 'PUT', `/queue/${other.id}`, { queue: 'suporte' });
    expect(renamedOnto.statusCode).toBe(409);
    expect(renamedOnto.json()).toEqual({ error: 'ERR_QUEUE_EXISTS' });
    // Renaming a queue onto its own name in another case is no conflict.
    expect((await t.call(admin, 'PUT', `/queue/${suporte.id}`, { queue: 'SUPORTE' })).statusCode).toBe(200);
    expect((await t.call(admin, 'PUT', '/queue/999999', { queue: 'Z' })).json()).toEqual({
      error: 'ERR_NO_QUEUE_FOUND',
    });
    const missing = await t.call(admin, 'DELETE', '/queue/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'ERR_NO_QUEUE_FOUND' });
  });

  it('publishes {T}:queue to the tenant after each change, and nothing for a refused one', async () => {
    const publish = vi.spyOn(t.platform.realtime, 'publish');
    try {
      const queue = (await t.call(supervisor, 'POST', '/queue', { queue: 'Ao vivo' })).json<QueueDto>();
      await t.call(supervisor, 'PUT', `/queue/${queue.id}`, { queue: 'Ao vivo 2', isActive: false });
      await t.call(supervisor, 'POST', '/queue', { queue: 'ao vivo 2' });
      await t.call(supervisor, 'DELETE', `/queue/${queue.id}`);
      const queueEvents = publish.mock.calls.filter(([, event]) => event === '1:queue');
      expect(queueEvents).toEqual([
        ['tenant:1', '1:queue', { action: 'create', queue }],
        ['tenant:1', '1:queue', { action: 'update', queue: { ...queue, queue: 'Ao vivo 2', isActive: false } }],
        ['tenant:1', '1:queue', { action: 'delete', queue: { ...queue, queue: 'Ao vivo 2', isActive: false } }],
      ]);
    } finally {
      publish.mockRestore();
    }
  });

  it('carries the distribution mode (N by default; R and B kept; absent on update = unchanged); validates it', async () => {
    const created = await t.call(supervisor, 'POST', '/queue', { queue: 'Distribuída', distribution: 'B' });
    expect(created.statusCode).toBe(201);
    const queue = created.json<QueueDto>();
    expect(queue).toEqual({ id: expect.any(Number), queue: 'Distribuída', isActive: true, distribution: 'B' });
    const renamed = await t.call(admin, 'PUT', `/queue/${queue.id}`, { queue: 'Distribuída 2' });
    expect(renamed.json()).toMatchObject({ distribution: 'B' });
    const random = await t.call(admin, 'PUT', `/queue/${queue.id}`, { queue: 'Distribuída 2', distribution: 'R' });
    expect(random.json()).toMatchObject({ distribution: 'R' });
    expect((await t.call(agent, 'GET', '/queue')).json<QueueDto[]>().find((q) => q.id === queue.id)).toEqual({
      ...queue,
      queue: 'Distribuída 2',
      distribution: 'R',
    });
    const plain = (await t.call(admin, 'POST', '/queue', { queue: 'Sem distribuição' })).json<QueueDto>();
    expect(plain.distribution).toBe('N');
    for (const distribution of ['X', 'b', '', null, 1]) {
      for (const [method, path] of [
        ['POST', '/queue'],
        ['PUT', `/queue/${queue.id}`],
      ] as const) {
        const res = await t.call(admin, method, path, { queue: 'Outro nome', distribution });
        expect(res.statusCode, `${method} ${JSON.stringify(distribution)}`).toBe(400);
        expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'distribution' });
      }
    }
    expect((await t.call(admin, 'GET', '/queue')).json<QueueDto[]>().find((q) => q.id === queue.id)).toMatchObject({
      queue: 'Distribuída 2',
      distribution: 'R',
    });
  });

  it('deletes a queue without tickets; refuses one with tickets (ERR_QUEUE_TICKET_EXISTS)', async () => {
    const empty = (await t.call(admin, 'POST', '/queue', { queue: 'Vazia' })).json<QueueDto>();
    expect((await t.call(admin, 'DELETE', `/queue/${empty.id}`)).statusCode).toBe(204);
    const used = (await t.call(admin, 'POST', '/queue', { queue: 'Usada' })).json<QueueDto>();
    await withTenant(t.platform.db, systemContext(1), async (tx) => {
      const [contact] = await tx.insert(contacts).values({ tenantId: 1, name: 'C' }).returning();
      await tx
        .insert(tickets)
        .values({ tenantId: 1, contactId: contact!.id, channel: 'telegram', protocol: 'q-1', queueId: used.id });
    });
    const res = await t.call(admin, 'DELETE', `/queue/${used.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_QUEUE_TICKET_EXISTS' });
  });
});
