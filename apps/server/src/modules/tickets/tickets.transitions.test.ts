/**
 * The ticket state machine through its routes (product-spec §4, client-contract §4.3): every transition, its log
 * row, its refusals, the farewell close job, and two accepts racing for one ticket.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatFlowGraph, TicketDto } from '@conversa/shared';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { chatFlows } from '../chatbot/chatbot.tables.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import {
  logTypes,
  makeChannel,
  makeContact,
  makeQueue,
  makeTicket,
  recordingPort,
  setTenantFlags,
  setVisibility,
  ticketRow,
  type TicketState,
} from '../../test/ticket-fixtures.js';
import { CLOSE_AFTER_FAREWELL_JOB, closeTicketAfterFarewell, type CloseAfterFarewellPayload } from './tickets.jobs.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let colleague: TestUser;
let channel: number;
let farewellChannel: number;
let queue: number;
const recorder = recordingPort();
/** A flow whose first step waits for an answer (the ticket stays with the bot). */
const waitingFlow = {
  name: 'Menu',
  nodeList: [
    { id: 'start', type: 'start', name: '' },
    { id: 'configurations', type: 'configurations', name: '', configurations: {} },
    {
      id: 'menu',
      type: 'node',
      name: '',
      interactions: [],
      conditions: [{ id: 'c1', type: 'R', condition: [], action: 4 }],
      actions: [],
    },
  ],
  lineList: [{ from: 'start', to: 'menu' }],
} as ChatFlowGraph;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'error' }, { ticketMessaging: recorder.port });
  ({ admin, agent } = await t.createStaff());
  colleague = await t.createUser({ tenantId: 1, profile: 'user', name: 'Colega' });
  channel = await makeChannel(t, 1);
  farewellChannel = await makeChannel(t, 1, { farewellMessage: 'Obrigado pelo contato!' });
  queue = await makeQueue(t, 1, 'Atendimento', [agent.id, colleague.id]);
});
beforeEach(() => {
  recorder.calls.length = 0;
});
afterAll(() => t.close());

async function ticket(state: Partial<TicketState> = {}): Promise<number> {
  return makeTicket(t, 1, { contactId: await makeContact(t, 1), channelId: channel, queueId: queue, ...state });
}

const put = (user: TestUser, path: string, body: object = {}) => t.call(user, 'PUT', path, body);

describe('accept and return to queue', () => {
  it('pending -> open assigns the caller and logs open', async () => {
    const id = await ticket();
    const res = await put(agent, `/tickets/${id}`, { status: 'open', userId: agent.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TicketDto>()).toMatchObject({ status: 'open', userId: agent.id, username: 'Zé Agente' });
    expect(await logTypes(t, id)).toEqual(['open']);
    const logs = (await t.call(agent, 'GET', `/tickets/${id}/logs`)).json<
      { type: string; user: { name: string }; details: object }[]
    >();
    expect(logs).toEqual([
      expect.objectContaining({
        type: 'open',
        user: { id: agent.id, name: 'Zé Agente' },
        details: {
          from: { status: 'pending', userId: null, queueId: queue },
          to: { status: 'open', userId: agent.id, queueId: queue },
        },
      }),
    ]);
  });

  it('an agent naming someone else still gets the ticket itself; an admin may assign another user', async () => {
    const id = await ticket();
    expect(
      (await put(agent, `/tickets/${id}`, { status: 'open', userId: colleague.id })).json<TicketDto>().userId,
    ).toBe(agent.id);
    const other = await ticket();
    expect(
      (await put(admin, `/tickets/${other}`, { status: 'open', userId: colleague.id })).json<TicketDto>().userId,
    ).toBe(colleague.id);
    expect((await put(admin, `/tickets/${other}`, { status: 'open', userId: 999_999 })).json()).toEqual({
      error: 'ERR_NO_USER_FOUND',
    });
  });

  it('only an admin takes a ticket assigned to someone else (ERR_NO_PERMISSION)', async () => {
    const id = await ticket({ status: 'open', userId: colleague.id });
    const refused = await put(agent, `/tickets/${id}`, { status: 'open', userId: agent.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await ticketRow(t, id))?.user_id).toBe(colleague.id);
    const taken = await put(admin, `/tickets/${id}`, { status: 'open', userId: admin.id });
    expect(taken.json<TicketDto>()).toMatchObject({ userId: admin.id });
    expect(await logTypes(t, id)).toEqual(['userDefine']);
  });

  it('open -> pending returns it to the queue without user; spying a pending ticket changes nothing', async () => {
    const id = await ticket({ status: 'open', userId: agent.id });
    const res = await put(agent, `/tickets/${id}`, { status: 'pending' });
    expect(res.json<TicketDto>()).toMatchObject({ status: 'pending', userId: null });
    await setVisibility(t, 1, { spyticket: 'enabled' });
    const spy = await put(colleague, `/tickets/${id}`, { status: 'pending' });
    await setVisibility(t, 1, { spyticket: 'disabled' });
    expect(spy.statusCode).toBe(200);
    expect(await logTypes(t, id)).toEqual(['pending']);
    const foreign = await ticket({ status: 'open', userId: colleague.id });
    expect((await put(agent, `/tickets/${foreign}`, { status: 'pending' })).json()).toEqual({
      error: 'ERR_NO_PERMISSION',
    });
  });

  it('two simultaneous accepts of one pending ticket: one wins, the other is refused, one log', async () => {
    const id = await ticket();
    const results = await Promise.all([
      put(agent, `/tickets/${id}`, { status: 'open', userId: agent.id }),
      put(colleague, `/tickets/${id}`, { status: 'open', userId: colleague.id }),
    ]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 403]);
    const winner = results.find((r) => r.statusCode === 200)!.json<TicketDto>().userId;
    expect((await ticketRow(t, id))?.user_id).toBe(winner);
    expect(await logTypes(t, id)).toEqual(['open']);
  });
});

describe('resolve', () => {
  it('without a farewell closes at once and logs closed', async () => {
    const id = await ticket({ status: 'open', userId: agent.id, unreadMessages: 2 });
    const res = await put(agent, `/tickets/${id}`, { status: 'closed', userId: agent.id });
    expect(res.json<TicketDto>()).toMatchObject({ status: 'closed', unreadMessages: 0 });
    expect(res.json<TicketDto>().closedAt).not.toBeNull();
    expect(await logTypes(t, id)).toEqual(['closed']);
    expect(recorder.calls).toEqual([]);
  });

  it('with the channel farewell: queues it, sets closingAt, and the job closes it 30 s later (once)', async () => {
    const id = await ticket({ status: 'open', userId: agent.id, channelId: farewellChannel });
    const before = Date.now();
    const res = await put(agent, `/tickets/${id}`, { status: 'closed', userId: agent.id });
    const dto = res.json<TicketDto>();
    expect(dto).toMatchObject({ status: 'open', isFarewellMessage: true });
    expect(Date.parse(dto.closingAt!) - before).toBeGreaterThanOrEqual(29_000);
    expect(recorder.calls).toEqual([
      { method: 'queueSystemMessage', tenantId: 1, ticketId: id, body: 'Obrigado pelo contato!', sendType: 'farewell' },
    ]);
    const { rows } = await t.database.executeSql(
      `select data, extract(epoch from (start_after - created_on)) as delay from pgboss.job where name = $1 and data->>'ticketId' = $2`,
      [CLOSE_AFTER_FAREWELL_JOB, String(id)],
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.delay)).toBeGreaterThanOrEqual(29);
    const payload = rows[0]!.data as CloseAfterFarewellPayload;
    expect(payload).toMatchObject({ tenantId: 1, ticketId: id, userId: agent.id });
    const deps = { db: t.platform.db, events: t.platform.events };
    expect(await closeTicketAfterFarewell(deps, payload)).toBe(true);
    expect((await ticketRow(t, id))?.status).toBe('closed');
    expect(await closeTicketAfterFarewell(deps, payload)).toBe(false); // a retried job does nothing
    expect(await logTypes(t, id)).toEqual(['closed']);
  });

  it('the close job leaves a ticket that moved on (reopened or returned) alone', async () => {
    const id = await ticket({ status: 'open', userId: agent.id, channelId: farewellChannel });
    const dto = (await put(agent, `/tickets/${id}`, { status: 'closed' })).json<TicketDto>();
    await put(agent, `/tickets/${id}`, { status: 'pending' });
    const payload = { tenantId: 1, ticketId: id, userId: agent.id, closingAt: dto.closingAt! };
    expect(await closeTicketAfterFarewell({ db: t.platform.db, events: t.platform.events }, payload)).toBe(false);
    expect((await ticketRow(t, id))?.status).toBe('pending');
  });

  it('sendFarewell:false, or a farewell the client already sent, closes at once', async () => {
    const a = await ticket({ status: 'open', userId: agent.id, channelId: farewellChannel });
    expect(
      (await put(agent, `/tickets/${a}`, { status: 'closed', sendFarewell: false })).json<TicketDto>().status,
    ).toBe('closed');
    const b = await ticket({ status: 'open', userId: agent.id, channelId: farewellChannel });
    await put(agent, `/tickets/${b}`, { isFarewellMessage: true });
    expect((await put(agent, `/tickets/${b}`, { status: 'closed' })).json<TicketDto>().status).toBe('closed');
    expect(recorder.calls).toEqual([]);
  });

  it('an agent cannot resolve a colleague’s ticket', async () => {
    const id = await ticket({ status: 'open', userId: colleague.id });
    expect((await put(agent, `/tickets/${id}`, { status: 'closed' })).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
  });
});

describe('force close, silent close, chatbot, channel', () => {
  it('PUT /ticketsForce closes without farewell and logs closed (force)', async () => {
    const id = await ticket({ status: 'open', userId: agent.id, channelId: farewellChannel });
    const res = await put(agent, `/ticketsForce/${id}`, { status: 'closed', userId: agent.id });
    expect(res.json<TicketDto>().status).toBe('closed');
    expect(recorder.calls).toEqual([]);
    expect(await logTypes(t, id)).toEqual(['closed']);
  });

  it('PUT /ticketsNull closes silently and is idempotent', async () => {
    const id = await ticket({ status: 'open', userId: agent.id, channelId: farewellChannel });
    for (let i = 0; i < 3; i += 1) {
      const res = await put(agent, `/ticketsNull/${id}`, { status: 'closed', userId: agent.id });
      expect(res.statusCode).toBe(200);
      expect(res.json<TicketDto>().status).toBe('closed');
    }
    expect(await logTypes(t, id)).toEqual(['closed']);
    expect(recorder.calls).toEqual([]);
  });

  it('PUT /ticketsChatBot hands it to a flow: pending, no user, log chatBot; an unknown flow is 404', async () => {
    const id = await ticket({ status: 'open', userId: agent.id });
    const missing = await put(agent, `/ticketsChatBot/${id}`, { chatFlowId: 999999 });
    expect(missing.json()).toEqual({ error: 'ERR_NO_AUTO_REPLY_FOUND' });
    expect(await logTypes(t, id)).toEqual([]);
    const [flow] = await withTenant(t.platform.db, systemContext(1), (tx) =>
      tx.insert(chatFlows).values({ tenantId: 1, name: 'Menu', flow: waitingFlow }).returning({ id: chatFlows.id }),
    );
    const res = await put(agent, `/ticketsChatBot/${id}`, { chatFlowId: flow!.id });
    expect(res.json<TicketDto>()).toMatchObject({ status: 'pending', userId: null, chatFlowId: flow!.id });
    expect(await logTypes(t, id)).toEqual(['chatBot']);
    expect((await put(agent, `/ticketsChatBot/${id}`, { chatFlowId: 'x' })).json()).toMatchObject({
      error: 'ERR_VALIDATION',
    });
  });

  it('PUT /ticketsChannelId moves one ticket; 409 when the contact is active there; 404 for an unknown channel', async () => {
    const other = await makeChannel(t, 1);
    const contactId = await makeContact(t, 1);
    const id = await makeTicket(t, 1, { contactId, channelId: channel, status: 'open', userId: agent.id });
    const res = await put(agent, `/ticketsChannelId/${id}`, { whatsappId: other, channel: 'telegram' });
    expect(res.json<TicketDto>()).toMatchObject({ whatsappId: other, whatsapp: { id: other } });
    expect(await logTypes(t, id)).toEqual(['transfered']);
    const second = await makeTicket(t, 1, { contactId, channelId: channel, status: 'open', userId: agent.id });
    const clash = await put(agent, `/ticketsChannelId/${second}`, { whatsappId: other });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({ error: 'ERR_OTHER_OPEN_TICKET' });
    expect((await put(agent, `/ticketsChannelId/${second}`, { whatsappId: 999_999 })).json()).toEqual({
      error: 'ERR_NO_WAPP_FOUND',
    });
  });

  it('PUT /ticketsChannel (admin) moves every ticket; collisions are closed with a log', async () => {
    const from = await makeChannel(t, 1);
    const to = await makeChannel(t, 1);
    const clashContact = await makeContact(t, 1);
    const moving = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1),
      channelId: from,
      status: 'open',
      userId: agent.id,
    });
    const old = await makeTicket(t, 1, { contactId: clashContact, channelId: from, status: 'closed' });
    const clashing = await makeTicket(t, 1, { contactId: clashContact, channelId: from, status: 'pending' });
    const staying = await makeTicket(t, 1, {
      contactId: clashContact,
      channelId: to,
      status: 'open',
      userId: admin.id,
    });
    const body = { whatsappId: from, newWhatsappId: to, channel: 'telegram', newChannel: 'telegram', tenantId: 1 };
    expect((await put(agent, '/ticketsChannel', body)).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const res = await put(admin, '/ticketsChannel', body);
    expect(res.json()).toEqual({ moved: 3, closed: 1 });
    for (const id of [moving, old, clashing]) expect((await ticketRow(t, id))?.channel_id).toBe(to);
    expect((await ticketRow(t, clashing))?.status).toBe('closed');
    expect((await ticketRow(t, staying))?.status).toBe('open');
    expect(await logTypes(t, clashing)).toEqual(['closed', 'transfered']);
    expect((await put(admin, '/ticketsChannel', { ...body, newWhatsappId: 999_999 })).json()).toEqual({
      error: 'ERR_NO_WAPP_FOUND',
    });
    expect((await put(admin, '/ticketsChannel', { ...body, newWhatsappId: from })).json()).toMatchObject({
      error: 'ERR_VALIDATION',
    });
  });
});

describe('reopen, transfer and closed tickets', () => {
  it('closed -> open reopens for the caller; refused for an agent when the contact is active there again', async () => {
    const contactId = await makeContact(t, 1);
    const id = await makeTicket(t, 1, { contactId, channelId: channel, status: 'closed', userId: colleague.id });
    await setVisibility(t, 1, { userReopenTicket: 'enabled' });
    const res = await put(agent, `/tickets/${id}`, { status: 'open', userId: agent.id });
    await setVisibility(t, 1, { userReopenTicket: 'disabled' });
    expect(res.json<TicketDto>()).toMatchObject({ status: 'open', userId: agent.id, closedAt: null });
    expect(await logTypes(t, id)).toEqual(['open']);
    await put(agent, `/tickets/${id}`, { status: 'closed' });
    const active = await makeTicket(t, 1, { contactId, channelId: channel, status: 'pending' });
    const refused = await put(agent, `/tickets/${id}`, { status: 'open', userId: agent.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ error: 'ERR_OTHER_OPEN_TICKET' });
    // An admin takes the contact's ongoing ticket instead; the closed one stays closed.
    const taken = await put(admin, `/tickets/${id}`, { status: 'open', userId: admin.id });
    expect(taken.json<TicketDto>()).toMatchObject({ id: active, status: 'open', userId: admin.id });
    expect((await ticketRow(t, id))?.status).toBe('closed');
  });

  it('a closed ticket refuses transfer and edits (ERR_TICKET_CLOSED) but may be marked read', async () => {
    const id = await ticket({ status: 'closed', userId: agent.id });
    for (const body of [
      { userId: colleague.id, queueId: queue, status: 'open', isTransference: 1 },
      { status: 'pending' },
      { value: 10 },
      { chatgptStatus: 'enabled' },
    ]) {
      const res = await put(agent, `/tickets/${id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(409);
      expect(res.json()).toEqual({ error: 'ERR_TICKET_CLOSED' });
    }
    expect((await put(agent, `/ticketsChatBot/${id}`, { chatFlowId: 1 })).json()).toEqual({
      error: 'ERR_TICKET_CLOSED',
    });
    expect((await put(agent, `/tickets/${id}`, { unreadMessages: 0 })).statusCode).toBe(200);
    expect((await put(agent, `/tickets/${id}`, { status: 'closed' })).statusCode).toBe(200);
  });

  it('transfers to a user and/or a queue with isTransference, refusing the same assignee', async () => {
    const other = await makeQueue(t, 1, 'Financeiro', [colleague.id]);
    const id = await ticket({ status: 'open', userId: agent.id });
    const toUser = await put(agent, `/tickets/${id}`, {
      userId: colleague.id,
      queueId: queue,
      status: 'open',
      isTransference: 1,
    });
    expect(toUser.json<TicketDto>()).toMatchObject({
      userId: colleague.id,
      queueId: queue,
      isTransference: true,
      status: 'open',
    });
    const same = await put(admin, `/tickets/${id}`, {
      userId: colleague.id,
      queueId: queue,
      status: 'open',
      isTransference: 1,
    });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toEqual({ error: 'ERR_TICKET_SAME_ASSIGNEE' });
    const sameQueue = await put(admin, `/tickets/${id}`, { queueId: queue, isTransference: 1 });
    expect(sameQueue.json()).toEqual({ error: 'ERR_TICKET_SAME_ASSIGNEE' });
    const toQueue = await put(colleague, `/tickets/${id}`, {
      userId: null,
      queueId: other,
      status: 'pending',
      isTransference: 1,
    });
    expect(toQueue.json<TicketDto>()).toMatchObject({
      userId: null,
      queueId: other,
      status: 'pending',
      queue: 'Financeiro',
    });
    expect(await logTypes(t, id)).toEqual(['transfered', 'transfered']);
    expect((await put(admin, `/tickets/${id}`, { queueId: 999_999, isTransference: 1 })).json()).toEqual({
      error: 'ERR_NO_QUEUE_FOUND',
    });
    expect((await put(admin, `/tickets/${id}`, { userId: 999_999, isTransference: 1 })).json()).toEqual({
      error: 'ERR_NO_USER_FOUND',
    });
  });

  it('an agent cannot transfer a colleague’s ticket', async () => {
    const id = await ticket({ status: 'open', userId: colleague.id });
    expect((await put(agent, `/tickets/${id}`, { userId: agent.id, isTransference: 1 })).json()).toEqual({
      error: 'ERR_NO_PERMISSION',
    });
  });
});

describe('single fields of PUT /tickets/{id}', () => {
  it('sets integration statuses, unread, value, reason and the channel of a channel-less ticket; ignores the rest', async () => {
    const id = await ticket({ status: 'open', userId: agent.id, channelId: null });
    // A reason must be one of the tenant's (ERR_NO_REASON_FOUND otherwise).
    const reason = (await t.call(admin, 'POST', '/reasons', { name: 'Motivo dos campos' })).json<{ id: number }>().id;
    const res = await put(agent, `/tickets/${id}`, {
      chatgptStatus: 'enabled',
      difyStatus: true,
      unreadMessages: 1,
      value: '150.5',
      reasons: reason,
      whatsapp: channel,
      protocol: 'hijack',
      tenantId: 2,
      contact: { id: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TicketDto>()).toMatchObject({
      chatgptStatus: 'enabled',
      difyStatus: 'enabled',
      unreadMessages: 1,
      value: 150.5,
      reasons: reason,
      whatsappId: channel,
      tenantId: 1,
    });
    expect(res.json<TicketDto>().protocol).not.toBe('hijack');
    expect(await logTypes(t, id)).toEqual([]);
    for (const body of [{ unreadMessages: 5 }, { chatgptStatus: 'maybe' }, { value: -1 }, { status: 'schedule' }]) {
      const bad = await put(agent, `/tickets/${id}`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
    const fix = await ticket({ status: 'open', userId: agent.id, channelId: null });
    expect((await put(agent, `/tickets/${fix}`, { whatsapp: 999_999 })).json()).toEqual({ error: 'ERR_NO_WAPP_FOUND' });
  });

  it('answers 404 ERR_NO_TICKET_FOUND for a missing ticket on every ticket route', async () => {
    for (const [method, path, body] of [
      ['PUT', '/tickets/999999', { status: 'open' }],
      ['PUT', '/ticketsForce/999999', {}],
      ['PUT', '/ticketsNull/999999', {}],
      ['PUT', '/ticketsChatBot/999999', { chatFlowId: 1 }],
      ['PUT', '/ticketsChannelId/999999', { whatsappId: channel }],
      ['GET', '/tickets/999999/logs', undefined],
    ] as const) {
      const res = await t.call(agent, method, path, body);
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    }
  });
});

describe('tenant flags and settings in the transitions', () => {
  afterEach(async () => {
    await setTenantFlags(t, 1, {});
    await setVisibility(t, 1, { spyticket: 'disabled', userReopenTicket: 'disabled' });
  });

  it('spyticket: an agent looks at a pending ticket without taking it only while the setting is on', async () => {
    const id = await ticket();
    const refused = await put(agent, `/tickets/${id}`, { status: 'pending' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    // Supervisors and admins always may; the agent still accepts it.
    expect((await put(admin, `/tickets/${id}`, { status: 'pending' })).json<TicketDto>()).toMatchObject({
      status: 'pending',
      userId: null,
    });
    await setVisibility(t, 1, { spyticket: 'enabled' });
    expect((await put(agent, `/tickets/${id}`, { status: 'pending' })).json<TicketDto>()).toMatchObject({
      status: 'pending',
      userId: null,
    });
    expect(await logTypes(t, id)).toEqual([]);
  });

  it('forceAdmin: an admin who opens a pending ticket takes it (log open); without it the look changes nothing', async () => {
    const id = await ticket();
    await put(admin, `/tickets/${id}`, { status: 'pending' });
    expect((await ticketRow(t, id))?.status).toBe('pending');
    await setTenantFlags(t, 1, { forceAdmin: 'enabled' });
    const res = await put(admin, `/tickets/${id}`, { status: 'pending' });
    expect(res.json<TicketDto>()).toMatchObject({ status: 'open', userId: admin.id });
    expect(await logTypes(t, id)).toEqual(['open']);
    // Agents are not forced: with spyticket off their look is still refused, and nothing changes.
    const other = await ticket();
    expect((await put(agent, `/tickets/${other}`, { status: 'pending' })).statusCode).toBe(403);
    expect((await ticketRow(t, other))?.status).toBe('pending');
  });

  it('forcePendingUser: return to queue keeps the current user', async () => {
    await setTenantFlags(t, 1, { forcePendingUser: 'enabled' });
    const id = await ticket({ status: 'open', userId: agent.id });
    const res = await put(agent, `/tickets/${id}`, { status: 'pending', userId: null });
    expect(res.json<TicketDto>()).toMatchObject({ status: 'pending', userId: agent.id });
    expect(await logTypes(t, id)).toEqual(['pending']);
    await setTenantFlags(t, 1, {});
    const plain = await ticket({ status: 'open', userId: agent.id });
    expect((await put(agent, `/tickets/${plain}`, { status: 'pending' })).json<TicketDto>()).toMatchObject({
      status: 'pending',
      userId: null,
    });
  });

  it('userReopenTicket: an agent reopens someone else’s closed ticket only while the setting is on', async () => {
    const foreign = await ticket({ status: 'closed', userId: colleague.id });
    const refused = await put(agent, `/tickets/${foreign}`, { status: 'open', userId: agent.id });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await ticketRow(t, foreign))?.status).toBe('closed');
    // Its own closed ticket, or one nobody held, always.
    const own = await ticket({ status: 'closed', userId: agent.id });
    expect((await put(agent, `/tickets/${own}`, { status: 'open' })).json<TicketDto>()).toMatchObject({
      status: 'open',
      userId: agent.id,
    });
    // Admins and supervisors always.
    expect((await put(admin, `/tickets/${foreign}`, { status: 'open' })).json<TicketDto>()).toMatchObject({
      status: 'open',
      userId: admin.id,
    });
    const again = await ticket({ status: 'closed', userId: colleague.id });
    await setVisibility(t, 1, { userReopenTicket: 'enabled' });
    expect((await put(agent, `/tickets/${again}`, { status: 'open' })).json<TicketDto>()).toMatchObject({
      status: 'open',
      userId: agent.id,
    });
  });
});
