/**
 * Scheduled messages follow POST /tickets' rules with the author as the actor, at create and again at send
 * (schedules.rules.ts): allowed channels (`whatsappAllowed`), the contact's active ticket the author may not see, the
 * author's current profile; only the author, supervisors and admins edit or cancel. And `{T}:scheduleMessage` goes
 * only to who may see the row (every "receives nothing" waits for a later event to the same socket).
 */
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduledMessageDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { allowChannels, makeChannel, makeContact, makeQueue, makeTicket } from '../../test/ticket-fixtures.js';
import { createMediaLinks } from '../messages/index.js';
import { createSchedulesJobs } from './schedules.jobs.js';

let t: TestApp;
let url: string;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let channelId: number;
let allowedChannel: number;
let hiddenQueue: number;
const FUTURE = '2099-12-01 09:00';
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  ({ admin, agent, supervisor } = await t.createStaff());
  channelId = await makeChannel(t, 1, { name: 'Principal' });
  allowedChannel = await makeChannel(t, 1, { name: 'Permitido' });
  hiddenQueue = await makeQueue(t, 1, 'Financeiro');
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(() => t.close());

const schedule = (user: TestUser, body: object) => t.call(user, 'POST', '/messagesSchedule', body);

async function count(table: string): Promise<number> {
  return Number((await t.database.executeSql(`select count(*)::int as n from ${table}`)).rows[0]!.n);
}

async function row(id: number) {
  const { rows } = await t.database.executeSql(
    'select status, error, message_id, ticket_id from scheduled_messages where id = $1',
    [id],
  );
  return rows[0] as { status: string; error: string | null; message_id: number | null; ticket_id: number | null };
}

/** Makes the row due and runs its job as a node would. */
async function sendNow(id: number) {
  await t.database.executeSql(`update scheduled_messages set schedule_at = now() - interval '1 second' where id = $1`, [
    id,
  ]);
  const { db, events, secrets, config } = t.platform;
  const links = createMediaLinks(secrets.jwtSecret, config.publicUrl);
  await createSchedulesJobs({ db, events, queue: t.jobs, links }).send.handler({ tenantId: 1, scheduleId: id });
}

describe('allowed channels (whatsappAllowed)', () => {
  afterEach(() => allowChannels(t, 1, agent.id, []));

  it('an agent limited to other channels may not schedule a new conversation on this one: 403, nothing stored', async () => {
    await allowChannels(t, 1, agent.id, [allowedChannel]);
    const contactId = await makeContact(t, 1);
    const [rows, jobs] = [await count('scheduled_messages'), await count('pgboss.job')];
    const res = await schedule(agent, { contactId, channelId, body: 'x', scheduleDate: FUTURE });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect([await count('scheduled_messages'), await count('pgboss.job')]).toEqual([rows, jobs]);
    // The allowed channel is fine.
    const ok = await schedule(agent, { contactId, channelId: allowedChannel, body: 'x', scheduleDate: FUTURE });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a channel taken from the author before the send fails the row (ERR_NO_PERMISSION): no ticket, no message, no next repetition', async () => {
    const contactId = await makeContact(t, 1);
    const res = await schedule(agent, {
      contactId,
      channelId,
      body: 'x',
      scheduleDate: FUTURE,
      recurrenceDays: 5,
      repetitions: 3,
    });
    const dto = res.json<ScheduledMessageDto>();
    await allowChannels(t, 1, agent.id, [allowedChannel]);
    const [tickets, messages] = [await count('tickets'), await count('messages')];
    await sendNow(dto.id);
    expect(await row(dto.id)).toMatchObject({ status: 'failed', error: 'ERR_NO_PERMISSION', message_id: null });
    expect([await count('tickets'), await count('messages')]).toEqual([tickets, messages]);
    const { rows } = await t.database.executeSql('select id from scheduled_messages where contact_id = $1', [
      contactId,
    ]);
    expect(rows).toHaveLength(1);
    // The reason is in the row's DTO.
    const listed = (await t.call(agent, 'GET', '/scheduleMessages?status=failed&rowsPerPage=100')).json<{
      messages: ScheduledMessageDto[];
    }>();
    expect(listed.messages.find((m) => m.id === dto.id)?.error).toBe('ERR_NO_PERMISSION');
  });
});

describe('the author as stored at send time', () => {
  it('a supervisor demoted to agent no longer sees a queue ticket: the row fails and the ticket gets nothing', async () => {
    const author = await t.createUser({ tenantId: 1, profile: 'super', name: 'Supervisora' });
    const contactId = await makeContact(t, 1);
    const ticketId = await makeTicket(t, 1, { contactId, channelId, status: 'pending', queueId: hiddenQueue });
    const res = await schedule(author, { contactId, ticketId, body: 'x', scheduleDate: FUTURE });
    expect(res.statusCode, res.body).toBe(200);
    await t.database.executeSql(`update users set profile = 'user' where id = $1`, [author.id]);
    await sendNow(res.json<ScheduledMessageDto>().id);
    expect(await row(res.json<ScheduledMessageDto>().id)).toMatchObject({
      status: 'failed',
      error: 'ERR_OTHER_OPEN_TICKET',
    });
    const { rows } = await t.database.executeSql('select count(*)::int as n from messages where ticket_id = $1', [
      ticketId,
    ]);
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('the same row is sent into the ticket while the author may still see it', async () => {
    const author = await t.createUser({ tenantId: 1, profile: 'super', name: 'Supervisora 2' });
    const contactId = await makeContact(t, 1);
    const ticketId = await makeTicket(t, 1, { contactId, channelId, status: 'pending', queueId: hiddenQueue });
    const dto = (
      await schedule(author, { contactId, ticketId, body: 'x', scheduleDate: FUTURE })
    ).json<ScheduledMessageDto>();
    await sendNow(dto.id);
    expect(await row(dto.id)).toMatchObject({ status: 'sent', error: null, ticket_id: ticketId });
  });

  it('a deleted author: the row fails with ERR_NO_USER_FOUND and nothing is sent', async () => {
    const author = await t.createUser({ tenantId: 1, profile: 'user', name: 'Sai da empresa' });
    const contactId = await makeContact(t, 1);
    const dto = (
      await schedule(author, { contactId, channelId, body: 'x', scheduleDate: FUTURE })
    ).json<ScheduledMessageDto>();
    const res = await t.call(admin, 'DELETE', `/users/${author.id}`);
    expect(res.statusCode, res.body).toBe(204);
    const messages = await count('messages');
    await sendNow(dto.id);
    expect(await row(dto.id)).toMatchObject({ status: 'failed', error: 'ERR_NO_USER_FOUND', message_id: null });
    expect(await count('messages')).toBe(messages);
  });
});

describe('who edits and cancels', () => {
  it("an agent who sees the ticket may not edit or cancel the admin's row (403); the author, supervisors and admins may", async () => {
    const contactId = await makeContact(t, 1);
    const ticketId = await makeTicket(t, 1, { contactId, channelId, status: 'open', userId: agent.id });
    const dto = (
      await schedule(admin, { contactId, ticketId, body: 'do admin', scheduleDate: FUTURE })
    ).json<ScheduledMessageDto>();
    // The agent sees the row when listing its ticket's...
    const listed = (await t.call(agent, 'GET', `/scheduleMessages?ticketId=${ticketId}`)).json<{
      messages: ScheduledMessageDto[];
    }>();
    expect(listed.messages.map((m) => m.id)).toContain(dto.id);
    // ...but it goes out under the admin's name: not the agent's to change.
    for (const [method, body] of [
      ['PUT', { body: 'trocado' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await t.call(agent, method, `/messagesSchedule/${dto.id}`, body);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
    expect(await row(dto.id)).toMatchObject({ status: 'pending' });
    const { rows } = await t.database.executeSql('select body from scheduled_messages where id = $1', [dto.id]);
    expect(rows[0]).toEqual({ body: 'do admin' });
    expect((await t.call(supervisor, 'PUT', `/messagesSchedule/${dto.id}`, { body: 'sup' })).statusCode).toBe(200);
    expect((await t.call(admin, 'PUT', `/messagesSchedule/${dto.id}`, { body: 'adm' })).statusCode).toBe(200);
    const own = (
      await schedule(agent, { contactId, ticketId, body: 'meu', scheduleDate: FUTURE })
    ).json<ScheduledMessageDto>();
    expect((await t.call(agent, 'PUT', `/messagesSchedule/${own.id}`, { body: 'meu 2' })).statusCode).toBe(200);
    expect((await t.call(agent, 'DELETE', `/messagesSchedule/${own.id}`)).statusCode).toBe(200);
    expect((await t.call(admin, 'DELETE', `/messagesSchedule/${dto.id}`)).statusCode).toBe(200);
  });
});

interface Seen {
  event: string;
  args: unknown[];
}

async function connect(user: TestUser): Promise<Seen[]> {
  const socket = io(url, {
    auth: { token: user.token },
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  const seen: Seen[] = [];
  socket.onAny((event: string, ...args: unknown[]) => seen.push({ event, args }));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return seen;
}

const scheduleEvents = (seen: Seen[]) =>
  seen.filter((e) => e.event === '1:scheduleMessage').map((e) => e.args[0] as { id: number; ticketId: number | null });

describe('{T}:scheduleMessage', () => {
  it('a row on a ticket reaches who may see the ticket and the author; a row on no ticket the author and the managers', async () => {
    const outsider = await t.createUser({ tenantId: 1, profile: 'user', name: 'Fora da fila' });
    const member = await t.createUser({ tenantId: 1, profile: 'user', name: 'Na fila' });
    const queue = await makeQueue(t, 1, 'Vendas', [member.id]);
    const [toAdmin, toSupervisor, toMember, toOutsider, toAgent] = await Promise.all([
      connect(admin),
      connect(supervisor),
      connect(member),
      connect(outsider),
      connect(agent),
    ]);
    const contactId = await makeContact(t, 1);
    const hidden = await makeTicket(t, 1, { contactId, channelId, status: 'pending', queueId: queue });
    const onTicket = (
      await schedule(admin, { contactId, ticketId: hidden, body: 'x', scheduleDate: FUTURE })
    ).json<ScheduledMessageDto>();
    // A later row on no ticket, by the outsider: every socket that should get it receives it after the first.
    const other = await makeContact(t, 1);
    const loose = (
      await schedule(outsider, { contactId: other, channelId, body: 'y', scheduleDate: FUTURE })
    ).json<ScheduledMessageDto>();
    for (const seen of [toAdmin, toSupervisor, toOutsider]) {
      await expect.poll(() => scheduleEvents(seen).map((e) => e.id), { timeout: 5000 }).toContain(loose.id);
    }
    // The one on the queue's ticket: admins, supervisors and the queue's member, not the agent outside the queue.
    expect(scheduleEvents(toAdmin).map((e) => e.id)).toContain(onTicket.id);
    expect(scheduleEvents(toSupervisor).map((e) => e.id)).toContain(onTicket.id);
    await expect.poll(() => scheduleEvents(toMember).map((e) => e.id), { timeout: 5000 }).toContain(onTicket.id);
    expect(scheduleEvents(toOutsider).map((e) => e.ticketId)).not.toContain(hidden);
    // A row on no ticket is not the other agents': the queue member and the plain agent get nothing of it.
    const mine = (
      await schedule(agent, { contactId: other, channelId: allowedChannel, body: 'z', scheduleDate: FUTURE })
    ).json<ScheduledMessageDto>();
    await expect.poll(() => scheduleEvents(toAgent).map((e) => e.id), { timeout: 5000 }).toContain(mine.id);
    expect(scheduleEvents(toAgent).map((e) => e.id)).not.toContain(onTicket.id);
    expect(scheduleEvents(toAgent).map((e) => e.id)).not.toContain(loose.id);
    const last = (
      await schedule(admin, { contactId, ticketId: hidden, body: 'w', scheduleDate: FUTURE })
    ).json<ScheduledMessageDto>();
    await expect.poll(() => scheduleEvents(toMember).map((e) => e.id), { timeout: 5000 }).toContain(last.id);
    expect(scheduleEvents(toMember).map((e) => e.id)).not.toContain(loose.id);
    expect(scheduleEvents(toMember).map((e) => e.id)).not.toContain(mine.id);
  });
});
