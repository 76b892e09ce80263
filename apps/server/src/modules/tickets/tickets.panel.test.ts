/**
 * `GET /dash-tickets-queues` (client-contract §4.3): the ticket panel's bare array of list rows of a period (tenant
 * time zone), filtered by queues and statuses, newest first, admins only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeQueue, makeTicket, recordingPort } from '../../test/ticket-fixtures.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let channel: number;
let sales: number;
let support: number;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp({}, { ticketMessaging: recordingPort().port });
  ({ admin, agent, supervisor } = await t.createStaff());
  channel = await makeChannel(t, 1);
  sales = await makeQueue(t, 1, 'Vendas', [agent.id]);
  support = await makeQueue(t, 1, 'Suporte');
  await t.database.executeSql(`update tenants set timezone = 'America/Sao_Paulo' where id = 1`);
  const at = (iso: string) => new Date(iso);
  const make = async (name: string, state: Record<string, unknown>) => {
    ids[name] = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1, { name: `Painel ${name}` }),
      channelId: channel,
      ...state,
    });
  };
  // 2026-03-10 in São Paulo (UTC-3) runs from 03:00Z on the 10th to 03:00Z on the 11th.
  await make('early', { queueId: sales, updatedAt: at('2026-03-10T03:30:00Z') });
  await make('late', { queueId: support, status: 'open', userId: agent.id, updatedAt: at('2026-03-11T02:30:00Z') });
  await make('closed', { queueId: sales, status: 'closed', updatedAt: at('2026-03-10T12:00:00Z') });
  await make('before', { queueId: sales, updatedAt: at('2026-03-10T02:30:00Z') }); // the 9th in São Paulo
  await make('after', { queueId: sales, updatedAt: at('2026-03-11T03:30:00Z') }); // the 11th
});
afterAll(() => t.close());

const panel = async (user: TestUser, query: string) => t.call(user, 'GET', `/dash-tickets-queues?${query}`);
const idsOf = (rows: TicketDto[]) => rows.map((row) => row.id);

describe('GET /dash-tickets-queues', () => {
  it('answers the period’s tickets (tenant time zone) newest first, as list rows with contact, user and queue', async () => {
    const res = await panel(admin, 'showAll=true&dateStart=2026-03-10&dateEnd=2026-03-10');
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json<TicketDto[]>();
    expect(Array.isArray(rows)).toBe(true);
    expect(idsOf(rows)).toEqual([ids.late, ids.closed, ids.early]);
    expect(rows[0]).toMatchObject({
      status: 'open',
      userId: agent.id,
      queueId: support,
      queue: 'Suporte',
      contact: expect.objectContaining({ name: 'Painel late' }),
    });
    const wide = await panel(admin, 'dateStart=2026-03-09&dateEnd=2026-03-11T00:00:00.000Z');
    expect(idsOf(wide.json<TicketDto[]>())).toEqual([ids.after, ids.late, ids.closed, ids.early, ids.before]);
  });

  it('filters by queues and statuses', async () => {
    const bySales = await panel(admin, `dateStart=2026-03-10&dateEnd=2026-03-10&queuesIds[]=${sales}`);
    expect(idsOf(bySales.json<TicketDto[]>())).toEqual([ids.closed, ids.early]);
    const closed = await panel(admin, 'dateStart=2026-03-10&dateEnd=2026-03-10&status[]=closed');
    expect(idsOf(closed.json<TicketDto[]>())).toEqual([ids.closed]);
  });

  it('is the admin’s: agents and supervisors get ERR_NO_PERMISSION', async () => {
    for (const user of [agent, supervisor]) {
      const res = await panel(user, 'dateStart=2026-03-10&dateEnd=2026-03-10');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
  });

  it('refuses a missing or reversed period (ERR_VALIDATION)', async () => {
    for (const query of [
      '',
      'dateStart=2026-03-10',
      'dateStart=2026-03-11&dateEnd=2026-03-10',
      'dateStart=x&dateEnd=y',
    ]) {
      const res = await panel(admin, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
  });

  it('never shows another tenant’s tickets', async () => {
    const other = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin' });
    const res = await panel(other, 'dateStart=2026-03-01&dateEnd=2026-03-31');
    expect(res.json()).toEqual([]);
  });
});
