/** /api/queue: every profile lists the tenant's queues; admins create, rename and delete them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueueDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { contacts } from '../contacts/index.js';
import { tickets } from '../tickets/index.js';

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

  it('admins create and rename; every profile lists; others are refused', async () => {
    const created = await t.call(admin, 'POST', '/queue', { queue: ' Vendas ', isActive: true });
    expect(created.statusCode).toBe(201);
    const queue = created.json<QueueDto>();
    expect(queue).toEqual({ id: expect.any(Number), queue: 'Vendas', isActive: true });
    for (const user of [admin, agent, supervisor]) {
      expect((await t.call(user, 'GET', '/queue/')).json()).toEqual([queue]);
    }
    const renamed = await t.call(admin, 'PUT', `/queue/${queue.id}`, { queue: 'Comercial', isActive: 'false', id: 99 });
    expect(renamed.json()).toEqual({ id: queue.id, queue: 'Comercial', isActive: false });
    for (const [method, path, body] of [
      ['POST', '/queue', { queue: 'X' }],
      ['PUT', `/queue/${queue.id}`, { queue: 'Y' }],
      ['DELETE', `/queue/${queue.id}`, undefined],
    ] as const) {
      expect((await t.call(supervisor, method, path, body)).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
  });

  it('validates the name (required, unique per tenant) and answers ERR_NO_QUEUE_FOUND', async () => {
    await t.call(admin, 'POST', '/queue', { queue: 'Suporte' });
    for (const body of [{ queue: '' }, {}, { queue: 'suporte' }]) {
      const res = await t.call(admin, 'POST', '/queue', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'queue' });
    }
    expect((await t.call(admin, 'PUT', '/queue/999999', { queue: 'Z' })).json()).toEqual({
      error: 'ERR_NO_QUEUE_FOUND',
    });
    expect((await t.call(admin, 'DELETE', '/queue/999999')).json()).toEqual({ error: 'ERR_NO_QUEUE_FOUND' });
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
