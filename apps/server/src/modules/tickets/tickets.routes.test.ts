/**
 * Ticket reads, creation and the tenant-wide calls (client-contract §4): list filters, search, paging and the bounded
 * count; the detail (also behind a 32 KiB query string); POST /tickets and its 409; ticketsClear,
 * ticketsMarkAllUnread, ticketsUpdateAllUnreadMessages and resolvePending.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TICKETS_PAGE_SIZE, type TicketDto, type TicketListResponse } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { TICKET_COUNT_CAP } from './tickets.repository.js';
import {
  logTypes,
  makeChannel,
  makeContact,
  makeQueue,
  makeTelegramContact,
  makeTicket,
  recordingPort,
  ticketRow,
} from '../../test/ticket-fixtures.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let channel: number;
let queue: number;
const recorder = recordingPort(4);

beforeAll(async () => {
  t = await createTestApp({}, { ticketMessaging: recorder.port });
  ({ admin, agent } = await t.createStaff());
  channel = await makeChannel(t, 1, { isDefault: true });
  queue = await makeQueue(t, 1, 'Geral', [agent.id]);
});
afterAll(() => t.close());

const list = async (user: TestUser, query: string) => {
  const res = await t.call(user, 'GET', `/tickets?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TicketListResponse>();
};

describe('GET /tickets', () => {
  it('filters by status, queue, channel, user and unread; searches name (accents folded), number and protocol', async () => {
    const own = await makeChannel(t, 1);
    const joao = await makeContact(t, 1, { name: 'João Conceição', number: '5511988887777' });
    const a = await makeTicket(t, 1, {
      contactId: joao,
      channelId: own,
      status: 'open',
      userId: agent.id,
      unreadMessages: 2,
    });
    const b = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1, { name: 'Maria' }),
      channelId: own,
      queueId: queue,
    });
    const c = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1, { name: 'Pedro' }),
      channelId: own,
      status: 'closed',
    });
    const ids = async (q: string) =>
      (await list(admin, `showAll=true&whatsappIds[]=${own}&${q}`)).tickets.map((r) => r.id);
    expect(await ids('')).toEqual([c, b, a].filter((id) => id !== c)); // default: open and pending, newest first
    expect(await ids('status[]=closed')).toEqual([c]);
    expect(await ids('status=open,pending,closed')).toHaveLength(3);
    expect(await ids(`queuesIds[]=${queue}`)).toEqual([b]);
    expect(await ids(`selectedUser[]=${agent.id}`)).toEqual([a]);
    expect(await ids('withUnreadMessages=true')).toEqual([a]);
    expect(await ids('searchParam=joao conceicao')).toEqual([a]);
    expect(await ids('searchParam=JOÃO')).toEqual([a]);
    expect(await ids('searchParam=(11) 98888')).toEqual([a]);
    const protocol = (await ticketRow(t, b))!.protocol as string;
    expect(await ids(`searchParam=${protocol}`)).toEqual([b]);
    expect(protocol).toMatch(/^\d{8}-\d{5}$/);
  });

  it('pages by TICKETS_PAGE_SIZE (updatedAt desc, id desc) with hasMore and the count', async () => {
    const own = await makeChannel(t, 1);
    const made: number[] = [];
    for (let i = 0; i < TICKETS_PAGE_SIZE + 3; i += 1) {
      made.push(
        await makeTicket(t, 1, { contactId: await makeContact(t, 1), channelId: own, updatedAt: new Date(2026, 0, 1) }),
      );
    }
    const first = await list(admin, `showAll=true&whatsappIds[]=${own}`);
    expect(first).toMatchObject({ count: TICKETS_PAGE_SIZE + 3, countCapped: false, hasMore: true });
    expect(first.tickets.map((r) => r.id)).toEqual([...made].reverse().slice(0, TICKETS_PAGE_SIZE));
    const second = await list(admin, `showAll=true&whatsappIds[]=${own}&pageNumber=2`);
    expect(second.tickets.map((r) => r.id)).toEqual([made[2], made[1], made[0]]);
    expect(second.hasMore).toBe(false);
  });

  it('counts at most TICKET_COUNT_CAP visible tickets, also for a page past the end', async () => {
    const big = await t.createTenant();
    const bigAdmin = await t.createUser({ tenantId: big, profile: 'admin' });
    await t.database.executeSql(
      `with made as (
         insert into contacts (tenant_id, name, number)
         select $1, 'Massa ' || g, '55219' || lpad(g::text, 8, '0') from generate_series(1, ${TICKET_COUNT_CAP + 3}) g
         returning id)
       insert into tickets (tenant_id, contact_id, status, channel, protocol)
       select $1, id, 'open', 'telegram', 'P' || id from made`,
      [big],
    );
    const first = await list(bigAdmin, 'showAll=true');
    expect(first).toMatchObject({ count: TICKET_COUNT_CAP, countCapped: true, hasMore: true });
    expect(first.tickets).toHaveLength(TICKETS_PAGE_SIZE);
    // Past the last page no row carries the count: it is counted on its own.
    const beyond = await list(bigAdmin, 'showAll=true&pageNumber=500');
    expect(beyond).toMatchObject({ tickets: [], count: TICKET_COUNT_CAP, countCapped: true, hasMore: false });
    // A search past its last page counts its matches on their own too (the count reads the search's contacts).
    const searched = await list(bigAdmin, 'showAll=true&searchParam=massa%20100');
    expect(searched).toMatchObject({ count: 5, countCapped: false, hasMore: false });
    expect(searched.tickets).toHaveLength(5);
    const searchedBeyond = await list(bigAdmin, 'showAll=true&searchParam=massa%20100&pageNumber=3');
    expect(searchedBeyond).toMatchObject({ tickets: [], count: 5, countCapped: false, hasMore: false });
    // "massa" matches all 1,003 contacts, more than a search probes one by one: the page then reads the active
    // tickets in list order and keeps the matched ones. Every ticket here matches, so it equals the plain list.
    const ids = (page: { tickets: { id: number }[] }) => page.tickets.map((ticket) => ticket.id);
    for (const pageNumber of [1, 2]) {
      const broad = await list(bigAdmin, `showAll=true&searchParam=massa&pageNumber=${pageNumber}`);
      const plain = await list(bigAdmin, `showAll=true&pageNumber=${pageNumber}`);
      expect(broad).toMatchObject({ count: TICKET_COUNT_CAP, countCapped: true, hasMore: true });
      expect(ids(broad)).toHaveLength(TICKETS_PAGE_SIZE);
      expect(ids(broad)).toEqual(ids(plain));
    }
  });

  it('answers the list row shape and refuses bad filters', async () => {
    const { tickets } = await list(admin, 'showAll=true');
    expect(tickets[0]).toEqual(
      expect.objectContaining({
        lastMessageAt: null,
        whatsapp: expect.objectContaining({ id: expect.any(Number) }),
        tags: [],
      }),
    );
    expect(tickets[0]).not.toHaveProperty('tenantId');
    for (const q of ['status[]=schedule', 'pageNumber=0', 'queuesIds[]=x', 'showAll=maybe']) {
      const res = await t.call(admin, 'GET', `/tickets?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
  });
});

describe('GET /tickets/{id} and logs', () => {
  it('answers the §20.2 ticket; the assignee opening it resets unreadMessages', async () => {
    const contactId = await makeContact(t, 1, { name: 'Leitora' });
    const id = await makeTicket(t, 1, {
      contactId,
      channelId: channel,
      status: 'open',
      userId: agent.id,
      unreadMessages: 3,
    });
    const byAdmin = (await t.call(admin, 'GET', `/tickets/${id}`)).json<TicketDto>();
    expect(byAdmin).toMatchObject({
      id,
      tenantId: 1,
      unreadMessages: 3,
      user: { id: agent.id, name: 'Zé Agente' },
      contact: { id: contactId, name: 'Leitora', tags: [], wallets: [] },
      whatsapp: { id: channel, type: 'telegram', status: 'CONNECTED', sendEvaluation: 'disabled' },
      scheduledMessages: [],
    });
    expect((await t.call(agent, 'GET', `/tickets/${id}`)).json<TicketDto>().unreadMessages).toBe(0);
    expect((await ticketRow(t, id))?.unread_messages).toBe(0);
  });

  it('accepts the whole ticket as a 32 KiB query string over real HTTP', async () => {
    const id = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1),
      channelId: channel,
      status: 'open',
      userId: agent.id,
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const query = `id=${id}&contact[name]=${'x'.repeat(32 * 1024)}&status=open`;
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: `/api/tickets/${id}?${query}`, headers: agent.auth }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(200);
  });

  it('lists logs oldest first with the user name', async () => {
    const id = await makeTicket(t, 1, { contactId: await makeContact(t, 1), channelId: channel, queueId: queue });
    await t.call(agent, 'PUT', `/tickets/${id}`, { status: 'open' });
    await t.call(agent, 'PUT', `/tickets/${id}`, { status: 'pending' });
    const logs = (await t.call(agent, 'GET', `/tickets/${id}/logs`)).json<{ type: string; user: { name: string } }[]>();
    expect(logs.map((l) => [l.type, l.user.name])).toEqual([
      ['open', 'Zé Agente'],
      ['pending', 'Zé Agente'],
    ]);
  });
});

describe('POST /tickets', () => {
  it('creates an open ticket for the caller with a protocol and create/open logs', async () => {
    const contactId = await makeTelegramContact(t, 1);
    const res = await t.call(agent, 'POST', '/tickets', {
      contactId,
      isActiveDemand: true,
      userId: agent.id,
      channel: 'telegram',
      channelId: channel,
      status: 'open',
    });
    expect(res.statusCode, res.body).toBe(201);
    const dto = res.json<TicketDto>();
    expect(dto).toMatchObject({
      status: 'open',
      userId: agent.id,
      contactId,
      whatsappId: channel,
      channel: 'telegram',
    });
    expect(dto.protocol).toMatch(/^\d{8}-\d{5}$/);
    expect(await logTypes(t, dto.id)).toEqual(['create', 'open']);
  });

  it('409 ERR_OTHER_OPEN_TICKET carries the contact’s active ticket; an admin takes it instead', async () => {
    const contactId = await makeTelegramContact(t, 1);
    const existing = await makeTicket(t, 1, { contactId, channelId: channel, status: 'open', userId: agent.id });
    const conflict = await t.call(agent, 'POST', '/tickets', { contactId, channelId: channel });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json()).toMatchObject({
      code: 'ERR_OTHER_OPEN_TICKET',
      ticket: { id: existing, userId: agent.id },
    });
    expect(JSON.parse(conflict.json<{ error: string }>().error)).toMatchObject({ id: existing });
    const taken = await t.call(admin, 'POST', '/tickets', { contactId, whatsappId: channel });
    expect(taken.statusCode).toBe(200);
    expect(taken.json<TicketDto>()).toMatchObject({ id: existing, userId: admin.id, status: 'open' });
    expect(await logTypes(t, existing)).toEqual(['userDefine']);
    const again = await t.call(admin, 'POST', '/tickets', { contactId, whatsappId: channel });
    expect(again.statusCode).toBe(409); // already theirs
  });

  it('uses the default channel when none is named; refuses unknown contact, channel or queue', async () => {
    const contactId = await makeTelegramContact(t, 1);
    expect((await t.call(agent, 'POST', '/tickets', { contactId })).json<TicketDto>().whatsappId).toBe(channel);
    const cases: [object, number, string][] = [
      [{ contactId: 999_999, channelId: channel }, 404, 'ERR_NO_CONTACT_FOUND'],
      [{ contactId, channelId: 999_999 }, 404, 'ERR_NO_WAPP_FOUND'],
      [{ contactId: await makeTelegramContact(t, 1), channelId: channel, queueId: 999_999 }, 404, 'ERR_NO_QUEUE_FOUND'],
      [{ channelId: channel }, 400, 'ERR_VALIDATION'],
    ];
    for (const [body, status, error] of cases) {
      const res = await t.call(agent, 'POST', '/tickets', body);
      expect(res.statusCode, error).toBe(status);
      expect(res.json()).toMatchObject({ error });
    }
  });

  it('refuses a channel where the contact has no id (a phone-only contact on Telegram): 400 ERR_CONTACT_NO_CHANNEL_ID', async () => {
    const phoneOnly = await makeContact(t, 1, { name: 'Só telefone', number: '5511955554444' });
    const refused = await t.call(agent, 'POST', '/tickets', { contactId: phoneOnly, channelId: channel });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json()).toEqual({ error: 'ERR_CONTACT_NO_CHANNEL_ID', field: 'channelId' });
    const rows = await t.database.executeSql('select count(*)::int as n from tickets where contact_id = $1', [
      phoneOnly,
    ]);
    expect(rows.rows).toEqual([{ n: 0 }]);
    // The default channel (Telegram here) is refused the same way; a contact with a Telegram chat id opens.
    expect((await t.call(agent, 'POST', '/tickets', { contactId: phoneOnly })).json()).toMatchObject({
      error: 'ERR_CONTACT_NO_CHANNEL_ID',
    });
    const reachable = await makeTelegramContact(t, 1, { number: '5511955553333' });
    expect((await t.call(agent, 'POST', '/tickets', { contactId: reachable, channelId: channel })).statusCode).toBe(
      201,
    );
  });
});

describe('tenant-wide calls', () => {
  it('GET /ticketsClear (admin) disables the integration statuses of open tickets and clears the chatbot state', async () => {
    const id = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1),
      channelId: channel,
      status: 'open',
      userId: agent.id,
    });
    await t.call(agent, 'PUT', `/tickets/${id}`, { chatgptStatus: 'enabled', typebotStatus: 'enabled' });
    await t.database.executeSql(`update tickets set chatbot_state = '{"step":3}' where id = $1`, [id]);
    expect((await t.call(agent, 'GET', '/ticketsClear')).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    const res = await t.call(admin, 'GET', '/ticketsClear');
    expect(res.json<{ count: number }>().count).toBeGreaterThanOrEqual(1);
    const row = (await ticketRow(t, id))!;
    expect([row.chatgpt_status, row.typebot_status, row.chatbot_state]).toEqual(['disabled', 'disabled', {}]);
  });

  it('GET /ticketsMarkAllUnread marks the caller’s visible active tickets read; PUT /ticketsUpdateAllUnreadMessages its own', async () => {
    const hidden = await makeQueue(t, 1, 'Oculta');
    const mine = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1),
      channelId: channel,
      status: 'open',
      userId: agent.id,
      unreadMessages: 2,
    });
    const queued = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1),
      channelId: channel,
      queueId: queue,
      unreadMessages: 1,
    });
    const foreign = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1),
      channelId: channel,
      queueId: hidden,
      unreadMessages: 5,
    });
    const own = await t.call(agent, 'PUT', '/ticketsUpdateAllUnreadMessages');
    expect(own.json<{ count: number }>().count).toBeGreaterThanOrEqual(1);
    expect((await ticketRow(t, mine))?.unread_messages).toBe(0);
    expect((await ticketRow(t, queued))?.unread_messages).toBe(1);
    await t.call(agent, 'GET', '/ticketsMarkAllUnread');
    expect((await ticketRow(t, queued))?.unread_messages).toBe(0);
    expect((await ticketRow(t, foreign))?.unread_messages).toBe(5); // not visible to the agent
  });

  it('POST /pending/resolvePending (admin) asks the messaging port to re-send stuck messages', async () => {
    expect((await t.call(agent, 'POST', '/pending/resolvePending')).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    recorder.calls.length = 0;
    const res = await t.call(admin, 'POST', '/pending/resolvePending');
    expect(res.json()).toEqual({ count: 4 });
    expect(recorder.calls).toEqual([{ method: 'requeueStuckSends', tenantId: 1 }]);
  });

  it('POST /forceMessage (admin) re-sends stuck messages like resolvePending', async () => {
    expect((await t.call(agent, 'POST', '/forceMessage')).json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    recorder.calls.length = 0;
    expect((await t.call(admin, 'POST', '/forceMessage')).json()).toEqual({ count: 4 });
    expect(recorder.calls).toEqual([{ method: 'requeueStuckSends', tenantId: 1 }]);
  });

  it('POST /closeAllOpen and /closeAllPending (admin) close one status of one channel, each with a log', async () => {
    const own = await makeChannel(t, 1);
    const other = await makeChannel(t, 1);
    const make = async (channelId: number, status: 'open' | 'pending') =>
      makeTicket(t, 1, { contactId: await makeContact(t, 1), channelId, status, unreadMessages: 2 });
    const [open1, open2, pending1, elsewhere] = [
      await make(own, 'open'),
      await make(own, 'open'),
      await make(own, 'pending'),
      await make(other, 'open'),
    ];
    expect((await t.call(agent, 'POST', '/closeAllOpen', { whatsappId: own })).statusCode).toBe(403);
    expect((await t.call(admin, 'POST', '/closeAllOpen', { whatsappId: 'x' })).statusCode).toBe(400);
    expect((await t.call(admin, 'POST', '/closeAllOpen', { whatsappId: own + 1000 })).json()).toEqual({
      error: 'ERR_NO_WAPP_FOUND',
    });
    expect((await t.call(admin, 'POST', '/closeAllOpen', { whatsappId: own })).json()).toEqual({ count: 2 });
    for (const id of [open1, open2]) {
      expect(await ticketRow(t, id)).toMatchObject({ status: 'closed', unread_messages: 0 });
      expect(await logTypes(t, id)).toContain('closed');
    }
    expect((await ticketRow(t, pending1))?.status).toBe('pending');
    expect((await ticketRow(t, elsewhere))?.status).toBe('open');
    expect((await t.call(admin, 'POST', '/closeAllPending', { whatsappId: own })).json()).toEqual({ count: 1 });
    expect((await ticketRow(t, pending1))?.status).toBe('closed');
    expect((await ticketRow(t, elsewhere))?.status).toBe('open');
  });
});
