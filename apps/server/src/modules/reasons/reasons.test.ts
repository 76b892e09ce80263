/** /api/reasons: every profile lists; supervisors and admins manage; deleting clears the tickets' reason. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReasonDto } from '@conversa/shared';
import { eq } from 'drizzle-orm';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeTicket } from '../../test/ticket-fixtures.js';
import { tickets } from '../tickets/tickets.tables.js';

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

describe('reasons', () => {
  it('supervisors create and rename; every profile lists; agents are refused', async () => {
    const created = await t.call(supervisor, 'POST', '/reasons/', { name: ' Dúvida ' });
    expect(created.statusCode).toBe(201);
    const reason = created.json<ReasonDto>();
    expect(reason).toEqual({ id: expect.any(Number), name: 'Dúvida' });
    for (const user of [admin, agent, supervisor]) {
      expect((await t.call(user, 'GET', '/reasons')).json()).toEqual({ reasons: [reason] });
    }
    expect((await t.call(admin, 'PUT', `/reasons/${reason.id}`, { name: 'Suporte' })).json()).toEqual({
      ...reason,
      name: 'Suporte',
    });
    for (const [method, path, body] of [
      ['POST', '/reasons', { name: 'x' }],
      ['PUT', `/reasons/${reason.id}`, { name: 'y' }],
      ['DELETE', `/reasons/${reason.id}`, undefined],
    ] as const) {
      const res = await t.call(agent, method, path, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
  });

  it('validates the name, answers ERR_REASON_EXISTS (any case) and ERR_NO_REASON_FOUND', async () => {
    for (const body of [{}, { name: '' }, { name: '  ' }, { name: 'x'.repeat(121) }]) {
      const res = await t.call(admin, 'POST', '/reasons', body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'name' });
    }
    const venda = (await t.call(admin, 'POST', '/reasons', { name: 'Venda' })).json<ReasonDto>();
    const duplicate = await t.call(admin, 'POST', '/reasons', { name: 'VENDA' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ error: 'ERR_REASON_EXISTS' });
    const other = (await t.call(admin, 'POST', '/reasons', { name: 'Troca' })).json<ReasonDto>();
    expect((await t.call(admin, 'PUT', `/reasons/${other.id}`, { name: 'venda' })).json()).toEqual({
      error: 'ERR_REASON_EXISTS',
    });
    expect((await t.call(admin, 'PUT', `/reasons/${venda.id}`, { name: 'VENDA' })).statusCode).toBe(200);
    // Another tenant may use the same name.
    expect((await t.call(otherAdmin, 'POST', '/reasons', { name: 'Venda' })).statusCode).toBe(201);
    for (const [method, body] of [
      ['PUT', { name: 'z' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.call(admin, method, '/reasons/999999', body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_REASON_FOUND' });
      expect((await t.call(otherAdmin, method, `/reasons/${venda.id}`, body)).statusCode).toBe(404);
    }
  });

  it("deleting a reason sets the tickets' reason to null in the same transaction", async () => {
    const reason = (await t.call(admin, 'POST', '/reasons', { name: 'Cancelamento' })).json<ReasonDto>();
    const channelId = await makeChannel(t, admin.tenantId);
    const contactId = await makeContact(t, admin.tenantId);
    const ticketId = await makeTicket(t, admin.tenantId, { contactId, channelId, status: 'open', userId: admin.id });
    expect((await t.call(admin, 'PUT', `/tickets/${ticketId}`, { reasons: reason.id })).json().reasons).toBe(reason.id);
    expect((await t.call(admin, 'DELETE', `/reasons/${reason.id}`)).statusCode).toBe(204);
    const [row] = await withTenant(t.platform.db, systemContext(admin.tenantId), (tx) =>
      tx.select({ reasonId: tickets.reasonId }).from(tickets).where(eq(tickets.id, ticketId)),
    );
    expect(row!.reasonId).toBeNull();
  });
});
