/**
 * "Tickets por página" (tenant flag `ticketLimit`, issue 23 item 5): `GET /tickets` pages by the tenant's setting
 * (default 40), for agents and admins, in the contact search too, and one tenant's setting never sizes another's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketListResponse } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeTicket } from '../../test/ticket-fixtures.js';

let t: TestApp;
let tenant: number;
let admin: TestUser;
let agent: TestUser;
let channelId: number;
const made: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  tenant = await t.createTenant();
  ({ admin, agent } = await t.createStaff(tenant));
  channelId = await makeChannel(t, tenant, { name: 'Loja' });
  for (let i = 0; i < 43; i += 1) {
    const contactId = await makeContact(t, tenant, { name: `Página ${String(i).padStart(2, '0')}` });
    // Queue-less pending tickets: every agent of the tenant sees them.
    made.push(await makeTicket(t, tenant, { contactId, channelId, updatedAt: new Date(2026, 0, 1, 0, i) }));
  }
});
afterAll(() => t.close());

const list = async (user: TestUser, query = '') => {
  const res = await t.call(user, 'GET', `/tickets?${query}`);
  expect(res.statusCode).toBe(200);
  return res.json<TicketListResponse>();
};
const setLimit = async (value: number) => {
  const res = await t.call(admin, 'PUT', `/tenantsTicketLimit/${tenant}`, { id: tenant, ticketLimit: value });
  expect(res.statusCode).toBe(200);
};

describe('ticketLimit sizes the ticket list page', () => {
  it('default: 40 a page', async () => {
    const first = await list(admin, 'showAll=true');
    expect(first.tickets).toHaveLength(40);
    expect(first.hasMore).toBe(true);
  });

  it('set to 10: a page holds 10 and hasMore is true, the last page the rest', async () => {
    await setLimit(10);
    for (const user of [admin, agent]) {
      const first = await list(user, 'showAll=true');
      expect(first.tickets).toHaveLength(10);
      expect(first.hasMore).toBe(true);
      expect(first.count).toBe(43);
      expect(first.tickets.map((ticket) => ticket.id)).toEqual([...made].reverse().slice(0, 10));
      const second = await list(user, 'showAll=true&pageNumber=2');
      expect(second.tickets.map((ticket) => ticket.id)).toEqual([...made].reverse().slice(10, 20));
      const last = await list(user, 'showAll=true&pageNumber=5');
      expect(last.tickets.map((ticket) => ticket.id)).toEqual([made[2], made[1], made[0]]);
      expect(last.hasMore).toBe(false);
    }
    // A contact search pages the same way.
    const search = await list(admin, 'showAll=true&searchParam=Página');
    expect(search.tickets).toHaveLength(10);
    expect(search.hasMore).toBe(true);
  });

  it("another tenant's setting does not size this tenant's list", async () => {
    await setLimit(40);
    const other = await t.createTenant();
    const { admin: otherAdmin } = await t.createStaff(other);
    const res = await t.call(otherAdmin, 'PUT', `/tenantsTicketLimit/${other}`, { id: other, ticketLimit: 5 });
    expect(res.statusCode).toBe(200);
    expect((await list(admin, 'showAll=true')).tickets).toHaveLength(40);
  });
});
