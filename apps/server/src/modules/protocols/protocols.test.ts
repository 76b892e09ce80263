/**
 * /api/ticketProtocols: the list with its count (search by protocol prefix or contact name, one day in the tenant's
 * time zone, only tickets the caller may see), a ticket's logs, the contract's record (userId/tenantId of the body
 * ignored), the one-step send (message with sendType 'protocol' + row, one transaction), author-or-admin changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageListResponse, TicketProtocolDto, TicketProtocolPage } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import {
  makeChannel,
  makeContact,
  makeQueue,
  makeTicket,
  recordingPort,
  ticketRow,
} from '../../test/ticket-fixtures.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let other: TestUser;
let stranger: TestUser;
let ticketQ1: number;
let ticketQ2: number;
let closedTicket: number;

beforeAll(async () => {
  t = await createTestApp({}, { ticketMessaging: recordingPort().port });
  admin = await t.createUser({ tenantId: 1, profile: 'admin', name: 'Chefe' });
  agent = await t.createUser({ tenantId: 1, profile: 'user', name: 'Agente Um' });
  other = await t.createUser({ tenantId: 1, profile: 'user', name: 'Agente Dois' });
  stranger = await t.createUser({ tenantId: await t.createTenant(), profile: 'admin' });
  // These tests read pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
  const channel = await makeChannel(t, 1);
  const q1 = await makeQueue(t, 1, 'Q1', [agent.id, other.id]);
  const q2 = await makeQueue(t, 1, 'Q2', [other.id]);
  const maria = await makeContact(t, 1, { name: 'Maria Souza', number: '5511988887777' });
  const joao = await makeContact(t, 1, { name: 'João Lima', number: '5511977776666' });
  const carla = await makeContact(t, 1, { name: 'Carla', number: '5511966665555' });
  ticketQ1 = await makeTicket(t, 1, { contactId: maria, channelId: channel, queueId: q1, status: 'open' });
  ticketQ2 = await makeTicket(t, 1, { contactId: joao, channelId: channel, queueId: q2, status: 'open' });
  closedTicket = await makeTicket(t, 1, { contactId: carla, channelId: channel, queueId: q1, status: 'closed' });
});
afterAll(() => t.close());

const record = async (user: TestUser, ticketId: number, protocol: string) => {
  const res = await t.call(user, 'POST', '/ticketProtocols/', { protocol, ticketId, userId: 999, tenantId: 2 });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<TicketProtocolDto>();
};
const list = async (user: TestUser, query = '') =>
  (await t.call(user, 'GET', `/ticketProtocols/${query}`)).json<TicketProtocolPage>();

describe('ticket protocols', () => {
  it('records the contract POST as the caller (body userId/tenantId ignored) and lists it', async () => {
    const created = await record(agent, ticketQ1, '1732550000000');
    expect(created).toMatchObject({
      protocol: '1732550000000',
      ticketId: ticketQ1,
      userId: agent.id,
      user: { name: 'Agente Um' },
      ticket: { id: ticketQ1, contact: { name: 'Maria Souza', number: '5511988887777' } },
    });
    const page = await list(admin, '?pageNumber=1');
    expect(page.ticketProtocols.map((p) => p.id)).toContain(created.id);
    expect(page.count).toBe(page.ticketProtocols.length);
    const logs = (await t.call(agent, 'GET', `/ticketProtocols/${ticketQ1}/logs`)).json<TicketProtocolDto[]>();
    expect(logs.map((p) => p.protocol)).toEqual(['1732550000000']);
    expect((await list(stranger)).count).toBe(0);
  });

  it('lists only protocols of tickets the caller may see; logs and writes refuse hidden tickets', async () => {
    const hidden = await record(other, ticketQ2, 'Q2-0001');
    expect((await list(agent)).ticketProtocols.map((p) => p.id)).not.toContain(hidden.id);
    expect((await list(other)).ticketProtocols.map((p) => p.id)).toContain(hidden.id);
    expect((await t.call(agent, 'GET', `/ticketProtocols/${ticketQ2}/logs`)).json()).toEqual({
      error: 'ERR_NO_TICKET_FOUND',
    });
    for (const [method, path, body] of [
      ['POST', '/ticketProtocols/', { protocol: 'x', ticketId: ticketQ2 }],
      ['POST', '/ticketProtocols/send', { ticketId: ticketQ2 }],
    ] as const) {
      const res = await t.call(agent, method, path, body);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    }
    expect((await t.call(agent, 'PUT', `/ticketProtocols/${hidden.id}`, { protocol: 'y' })).json()).toEqual({
      error: 'ERR_NO_PROTOCOL_FOUND',
    });
    expect((await t.call(agent, 'DELETE', `/ticketProtocols/${hidden.id}`)).json()).toEqual({
      error: 'ERR_NO_PROTOCOL_FOUND',
    });
  });

  it('searches by protocol prefix (not substring) or contact name, and by day in the tenant time zone', async () => {
    await record(admin, ticketQ1, '20991231-777');
    expect((await list(admin, '?searchParam=20991231')).ticketProtocols.map((p) => p.protocol)).toEqual([
      '20991231-777',
    ]);
    expect((await list(admin, '?searchParam=1231-777')).count).toBe(0);
    expect((await list(admin, '?searchParam=joão')).ticketProtocols.map((p) => p.ticketId)).toEqual([ticketQ2]);
    expect((await list(admin, '?searchParam=%25')).count).toBe(0);
    // A protocol written at 01:30 UTC is on the previous day in São Paulo (UTC-3).
    const late = await record(admin, ticketQ1, 'FUSO-1');
    await t.database.executeSql(`update ticket_protocols set created_at = '2030-03-10T01:30:00Z' where id = $1`, [
      late.id,
    ]);
    expect((await list(admin, '?date=2030-03-09')).ticketProtocols.map((p) => p.id)).toEqual([late.id]);
    expect((await list(admin, '?date=2030-03-10')).count).toBe(0);
    await t.database.executeSql(`update tenants set timezone = 'UTC' where id = 1`);
    expect((await list(admin, '?date=2030-03-10')).ticketProtocols.map((p) => p.id)).toEqual([late.id]);
    await t.database.executeSql(`update tenants set timezone = 'America/Sao_Paulo' where id = 1`);
    // A malformed day is "any day", never a 500.
    expect((await t.call(admin, 'GET', '/ticketProtocols/?date=2030-13-45')).statusCode).toBe(200);
    const paged = await list(admin, '?rowsPerPage=1&pageNumber=1');
    expect(paged.ticketProtocols).toHaveLength(1);
    expect(paged.hasMore).toBe(true);
  });

  it('sends the ticket protocol to the customer and records it in one step', async () => {
    const res = await t.call(agent, 'POST', '/ticketProtocols/send', { ticketId: ticketQ1 });
    expect(res.statusCode, res.body).toBe(201);
    const ticket = await ticketRow(t, ticketQ1);
    const sent = res.json<TicketProtocolDto>();
    expect(sent).toMatchObject({ protocol: ticket!.protocol, ticketId: ticketQ1, userId: agent.id });
    const history = (await t.call(agent, 'GET', `/messages/${ticketQ1}`)).json<MessageListResponse>();
    const text = `Protocolo de atendimento: ${String(ticket!.protocol)}`;
    // Pending until the send job runs: the history lists it among the messages not sent yet.
    expect(history.messagesOffLine.find((m) => m.body === text)).toMatchObject({
      fromMe: true,
      sendType: 'protocol',
      user: { name: 'Agente Um' },
    });
    const { rows } = await t.database.executeSql('select send_type, status from messages where ticket_id = $1', [
      ticketQ1,
    ]);
    expect(rows).toEqual([{ send_type: 'protocol', status: 'pending' }]);
    expect((await ticketRow(t, ticketQ1))!.last_message).toBe(text);
  });

  it('refuses to send on a resolved ticket, and stores neither the message nor the row', async () => {
    const before = (await t.call(admin, 'GET', `/ticketProtocols/${closedTicket}/logs`)).json<TicketProtocolDto[]>();
    const res = await t.call(admin, 'POST', '/ticketProtocols/send', { ticketId: closedTicket });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_TICKET_CLOSED' });
    expect((await t.call(admin, 'GET', `/ticketProtocols/${closedTicket}/logs`)).json()).toEqual(before);
    const { rows } = await t.database.executeSql('select count(*)::int as n from messages where ticket_id = $1', [
      closedTicket,
    ]);
    expect(rows[0]!.n).toBe(0);
  });

  it('only the author or an admin changes or deletes a protocol; validation and unknown ids', async () => {
    const own = await record(agent, ticketQ1, 'P-OWN');
    const res = await t.call(other, 'PUT', `/ticketProtocols/${own.id}`, { protocol: 'P-X' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await t.call(other, 'DELETE', `/ticketProtocols/${own.id}`)).json()).toEqual({
      error: 'ERR_NO_PERMISSION',
    });
    const renamed = await t.call(agent, 'PUT', `/ticketProtocols/${own.id}`, { protocol: 'P-NEW', ticketId: ticketQ2 });
    expect(renamed.json()).toMatchObject({ id: own.id, protocol: 'P-NEW', ticketId: ticketQ1 });
    expect((await t.call(admin, 'DELETE', `/ticketProtocols/${own.id}`)).statusCode).toBe(204);
    expect((await t.call(admin, 'DELETE', `/ticketProtocols/${own.id}`)).json()).toEqual({
      error: 'ERR_NO_PROTOCOL_FOUND',
    });
    for (const body of [{ protocol: '', ticketId: ticketQ1 }, { ticketId: ticketQ1 }]) {
      expect((await t.call(admin, 'POST', '/ticketProtocols/', body)).json()).toMatchObject({
        error: 'ERR_VALIDATION',
        field: 'protocol',
      });
    }
    expect((await t.call(admin, 'POST', '/ticketProtocols/send', {})).json()).toMatchObject({
      error: 'ERR_VALIDATION',
      field: 'ticketId',
    });
    expect((await t.call(admin, 'POST', '/ticketProtocols/', { protocol: 'x', ticketId: 999999 })).json()).toEqual({
      error: 'ERR_NO_TICKET_FOUND',
    });
    expect((await t.call(stranger, 'PUT', `/ticketProtocols/${own.id}`, { protocol: 'x' })).json()).toEqual({
      error: 'ERR_NO_PROTOCOL_FOUND',
    });
  });
});
