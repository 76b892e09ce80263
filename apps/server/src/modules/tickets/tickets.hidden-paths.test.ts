/**
 * Every path that finds or creates a contact's active ticket, met by an agent (`user`) who may not see that ticket
 * (it sits in a queue the agent is not in): the answer names no ticket, and nothing is stored, changed or queued.
 * The forward path is in messages.permissions.test.ts. Scheduled messages join: the create, the send (the author
 * checked again when it is due) and the edit or cancel of a row on that ticket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketDto } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeQueue, makeTicket, recordingPort } from '../../test/ticket-fixtures.js';
import { createMediaLinks } from '../messages/index.js';
import { createSchedulesJobs } from '../schedules/index.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let channel: number;
let otherChannel: number;
let hiddenQueue: number;

beforeAll(async () => {
  t = await createTestApp({}, { ticketMessaging: recordingPort().port });
  ({ admin, agent, supervisor } = await t.createStaff());
  channel = await makeChannel(t, 1, { isDefault: true });
  otherChannel = await makeChannel(t, 1);
  hiddenQueue = await makeQueue(t, 1, 'Financeiro');
});
afterAll(() => t.close());

/** A contact whose active ticket on `channel` is in a queue the agent is not in. */
async function hiddenConversation() {
  const contactId = await makeContact(t, 1, { name: 'Cliente do Financeiro' });
  const hidden = await makeTicket(t, 1, { contactId, channelId: channel, status: 'pending', queueId: hiddenQueue });
  expect((await t.call(agent, 'GET', `/tickets/${hidden}`)).statusCode).toBe(404);
  return { contactId, hidden };
}

/** Every row a path could write (tickets, logs, messages, jobs), to compare before and after. */
async function snapshot() {
  const read = async (text: string) => (await t.database.executeSql(text)).rows;
  return {
    tickets: await read('select * from tickets order by id'),
    logs: await read('select count(*)::int as n from ticket_logs'),
    messages: await read('select count(*)::int as n from messages'),
    jobs: await read('select count(*)::int as n from pgboss.job'),
    counters: await read('select * from tenant_counters order by tenant_id'),
    schedules: await read('select * from scheduled_messages order by id'),
  };
}

describe('a hidden active ticket', () => {
  it('POST /tickets answers the bare 409, naming nothing of the ticket, and stores nothing', async () => {
    const { contactId } = await hiddenConversation();
    const before = await snapshot();
    const res = await t.call(agent, 'POST', '/tickets', { contactId, channelId: channel, status: 'open' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_OTHER_OPEN_TICKET' });
    expect(await snapshot()).toEqual(before);
  });

  it('POST /tickets answers a visible ticket as client-contract §4.3 (JSON in `error`, plus `code` and `ticket`)', async () => {
    const { contactId, hidden } = await hiddenConversation();
    // A supervisor sees every queue: the same ticket is theirs to open.
    const res = await t.call(supervisor, 'POST', '/tickets', { contactId, channelId: channel });
    expect(res.statusCode).toBe(409);
    const body = res.json<{ error: string; code: string; ticket: TicketDto }>();
    expect(body.code).toBe('ERR_OTHER_OPEN_TICKET');
    expect(body.ticket).toMatchObject({ id: hidden, queueId: hiddenQueue, contactId });
    expect(JSON.parse(body.error)).toEqual(body.ticket);
  });

  it('PUT /tickets/{id} reopen answers the bare 409; the hidden ticket is not taken, the closed one stays closed', async () => {
    const { contactId } = await hiddenConversation();
    const closed = await makeTicket(t, 1, { contactId, channelId: channel, status: 'closed', userId: agent.id });
    const before = await snapshot();
    const res = await t.call(agent, 'PUT', `/tickets/${closed}`, { status: 'open', userId: agent.id });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_OTHER_OPEN_TICKET' });
    expect(await snapshot()).toEqual(before);
  });

  it('PUT /ticketsChannelId/{id} onto the hidden ticket’s channel answers the bare 409 and moves nothing', async () => {
    const { contactId } = await hiddenConversation();
    const own = await makeTicket(t, 1, { contactId, channelId: otherChannel, status: 'open', userId: agent.id });
    const before = await snapshot();
    const res = await t.call(agent, 'PUT', `/ticketsChannelId/${own}`, { whatsappId: channel, channel: 'telegram' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_OTHER_OPEN_TICKET' });
    expect(await snapshot()).toEqual(before);
  });

  it('PUT /ticketsChannel is an admin’s (who sees every ticket): an agent is refused and nothing moves', async () => {
    await hiddenConversation();
    const before = await snapshot();
    const body = { whatsappId: channel, newWhatsappId: otherChannel, channel: 'telegram', newChannel: 'telegram' };
    const res = await t.call(agent, 'PUT', '/ticketsChannel', body);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect(await snapshot()).toEqual(before);
  });

  it('contact merge (which moves tickets) is a supervisor’s, who sees every ticket: an agent is refused', async () => {
    const { contactId } = await hiddenConversation();
    const other = await makeContact(t, 1);
    await makeTicket(t, 1, { contactId: other, channelId: channel, status: 'open', userId: agent.id });
    const before = await snapshot();
    const res = await t.call(agent, 'POST', '/contacts/merge', { targetId: other, sourceIds: [contactId] });
    expect(res.statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
    // The admin's own take of a hidden ticket stays as it was: admins see every ticket.
    expect((await t.call(admin, 'GET', `/tickets/${(await hiddenConversation()).hidden}`)).statusCode).toBe(200);
  });
});

describe('scheduled messages meeting a hidden active ticket', () => {
  const at = '2099-12-01 09:00';

  it('POST /messagesSchedule with contactId + channelId answers the bare 409 and stores nothing (no row, no job)', async () => {
    const { contactId } = await hiddenConversation();
    const before = await snapshot();
    const res = await t.call(agent, 'POST', '/messagesSchedule', {
      contactId,
      channelId: channel,
      body: 'x',
      scheduleDate: at,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_OTHER_OPEN_TICKET' });
    expect(await snapshot()).toEqual(before);
  });

  it('POST /messagesSchedule naming the hidden ticket answers ERR_NO_TICKET_FOUND and stores nothing', async () => {
    const { contactId, hidden } = await hiddenConversation();
    const before = await snapshot();
    const res = await t.call(agent, 'POST', '/messagesSchedule', {
      contactId,
      ticketId: hidden,
      body: 'x',
      scheduleDate: at,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_TICKET_FOUND' });
    expect(await snapshot()).toEqual(before);
  });

  it('the send of a row whose conversation became hidden fails (ERR_OTHER_OPEN_TICKET) and writes nothing in it', async () => {
    const contactId = await makeContact(t, 1, { name: 'Agendado e depois escondido' });
    const created = await t.call(agent, 'POST', '/messagesSchedule', {
      contactId,
      channelId: channel,
      body: 'x',
      scheduleDate: at,
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json<{ id: number }>().id;
    // Meanwhile the customer's conversation opened in a queue the agent is not in.
    const hidden = await makeTicket(t, 1, { contactId, channelId: channel, status: 'pending', queueId: hiddenQueue });
    await t.database.executeSql(
      `update scheduled_messages set schedule_at = now() - interval '1 second' where id = $1`,
      [id],
    );
    const before = await snapshot();
    const { db, events, secrets, config } = t.platform;
    const jobs = createSchedulesJobs({
      db,
      events,
      queue: t.jobs,
      links: createMediaLinks(secrets.jwtSecret, config.publicUrl),
    });
    await jobs.send.handler({ tenantId: 1, scheduleId: id });
    const after = await snapshot();
    // Only the schedule row changed: failed with the reason; the hidden ticket, messages and jobs are as they were.
    expect({ ...after, schedules: [] }).toEqual({ ...before, schedules: [] });
    const { rows } = await t.database.executeSql(
      'select status, error, message_id from scheduled_messages where id = $1',
      [id],
    );
    expect(rows[0]).toEqual({ status: 'failed', error: 'ERR_OTHER_OPEN_TICKET', message_id: null });
    expect(
      (await t.database.executeSql('select count(*)::int as n from messages where ticket_id = $1', [hidden])).rows[0],
    ).toEqual({ n: 0 });
  });

  it("PUT and DELETE /messagesSchedule/{id} of the admin's row on the hidden ticket answer 404 and change nothing", async () => {
    const { contactId, hidden } = await hiddenConversation();
    const res = await t.call(admin, 'POST', '/messagesSchedule', {
      contactId,
      ticketId: hidden,
      body: 'do admin',
      scheduleDate: at,
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json<{ id: number }>().id;
    const before = await snapshot();
    for (const [method, body] of [
      ['PUT', { body: 'trocado' }],
      ['DELETE', undefined],
    ] as const) {
      const answer = await t.call(agent, method, `/messagesSchedule/${id}`, body);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ error: 'ERR_NO_SCHEDULE_FOUND' });
    }
    expect(await snapshot()).toEqual(before);
  });
});
