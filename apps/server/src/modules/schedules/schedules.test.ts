/**
 * Scheduled messages: /messagesSchedule and /scheduleMessages (every endpoint and error code), the tenant's timezone,
 * the send job (once, after a restart, by one of two runners, recurrence), the sweeper, and the ticket detail's
 * `scheduledMessages`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduledMessageDto, ScheduleListResponse } from '@conversa/shared';
import { queryRows } from '../../platform/db/client.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeTicket } from '../../test/ticket-fixtures.js';
import { createMediaLinks } from '../messages/index.js';
import { createSchedulesJobs, sweepDueSchedules, type SchedulesJobs } from './schedules.jobs.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let supervisor: TestUser;
let channelId: number;
let contactId: number;

const FUTURE = '2099-12-01 09:00';

/** The job handlers as a freshly started node has them (nothing in memory but the database). */
function freshNode(app: TestApp = t): SchedulesJobs {
  const { db, events, secrets, config } = app.platform;
  return createSchedulesJobs({
    db,
    events,
    queue: app.jobs,
    links: createMediaLinks(secrets.jwtSecret, config.publicUrl),
  });
}

const schedule = (body: object, user = agent) => t.call(user, 'POST', '/messagesSchedule/', body);
const base = () => ({ contactId, channelId, body: 'Lembrete', scheduleDate: FUTURE });

async function makeDue(id: number, app: TestApp = t) {
  await app.database.executeSql(
    `update scheduled_messages set schedule_at = now() - interval '1 second' where id = $1`,
    [id],
  );
}

async function row(id: number, app: TestApp = t) {
  const { rows } = await app.database.executeSql('select * from scheduled_messages where id = $1', [id]);
  return rows[0] as Record<string, unknown>;
}

async function outgoing(app: TestApp, scheduleId: number): Promise<number> {
  const { rows } = await app.database.executeSql(
    `select count(*)::int as n from messages where id_front = $1 and from_me`,
    [`schedule-${scheduleId}`],
  );
  return Number(rows[0]!.n);
}

async function sendJobs(app: TestApp): Promise<number> {
  const rows = await queryRows<{ n: number }>(
    app.platform.db,
    sql`select count(*)::int as n from pgboss.job where name = 'messages.send'`,
  );
  return Number(rows[0]!.n);
}

function multipart(fields: Record<string, string>, file: { name: string; mime: string; data: Buffer }) {
  const boundary = `----schedule${Date.now()}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${file.name}"\r\nContent-Type: ${file.mime}\r\n\r\n`,
    ),
    file.data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function storedFiles(): string[] {
  const root = path.join(t.dataDir, 'media');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent, supervisor } = await t.createStaff());
  channelId = await makeChannel(t, 1, { name: 'Principal' });
  contactId = await makeContact(t, 1, { name: 'Maria' });
});
afterAll(() => t.close());

describe('POST /messagesSchedule', () => {
  it("reads 'yyyy-MM-dd HH:mm' in the tenant's timezone (09:00 in America/Sao_Paulo is 12:00Z) and enqueues its send", async () => {
    const res = await schedule({
      ...base(),
      read: 1,
      fromMe: true,
      mediaUrl: '',
      quotedMsg: null,
      channel: 'telegram',
    });
    expect(res.statusCode, res.body).toBe(200);
    const dto = res.json<ScheduledMessageDto>();
    expect(dto).toMatchObject({
      contactId,
      contactName: 'Maria',
      channelId,
      body: 'Lembrete',
      scheduleDate: '2099-12-01T12:00:00.000Z',
      scheduleLocal: FUTURE,
      status: 'pending',
      isDeleted: false,
      recurrenceDays: null,
      repetitionsLeft: 1,
      user: { id: agent.id },
    });
    const jobs = await queryRows<{ data: { scheduleId: number }; start_after: Date }>(
      t.platform.db,
      sql`select data, start_after from pgboss.job where name = 'schedules.send' and data->>'scheduleId' = ${String(dto.id)}`,
    );
    expect(jobs).toHaveLength(1);
    // pg-boss gets the delay in seconds from now: the start is the schedule's time within the test's run time.
    expect(Math.abs(new Date(jobs[0]!.start_after).getTime() - Date.parse('2099-12-01T12:00:00Z'))).toBeLessThan(5000);
  });

  it('takes another timezone when the tenant has one, and an ISO instant as it is', async () => {
    await t.database.executeSql(`update tenants set timezone = 'Europe/Lisbon' where id = 1`);
    try {
      expect((await schedule(base())).json().scheduleDate).toBe('2099-12-01T09:00:00.000Z');
      const iso = (
        await schedule({ ...base(), scheduleDate: '2099-06-01T10:30:00-03:00' })
      ).json<ScheduledMessageDto>();
      expect(iso.scheduleDate).toBe('2099-06-01T13:30:00.000Z');
      expect(iso.scheduleLocal).toBe('2099-06-01 14:30');
    } finally {
      await t.database.executeSql(`update tenants set timezone = 'America/Sao_Paulo' where id = 1`);
    }
  });

  it('refuses a past or unreadable date with ERR_SCHEDULE_DATE_NOT_VALID and stores nothing', async () => {
    const before = (await t.call(admin, 'GET', '/scheduleMessages')).json<ScheduleListResponse>().total;
    for (const scheduleDate of ['2020-01-01 09:00', '2099-02-30 09:00', 'amanhã', '2099-12-01 25:00']) {
      const res = await schedule({ ...base(), scheduleDate });
      expect(res.statusCode, scheduleDate).toBe(400);
      expect(res.json()).toEqual({ error: 'ERR_SCHEDULE_DATE_NOT_VALID' });
    }
    expect((await t.call(admin, 'GET', '/scheduleMessages')).json<ScheduleListResponse>().total).toBe(before);
  });

  it('refuses an unknown contact, channel or ticket, an empty text and a recurrence off the list', async () => {
    const other = await t.createTenant();
    const foreignContact = await makeContact(t, other, { name: 'Outro' });
    const foreignChannel = await makeChannel(t, other);
    const cases: [object, number, object][] = [
      [{ contactId: 999_999 }, 404, { error: 'ERR_NO_CONTACT_FOUND' }],
      [{ contactId: foreignContact }, 404, { error: 'ERR_NO_CONTACT_FOUND' }],
      [{ channelId: 999_999 }, 404, { error: 'ERR_NO_WAPP_FOUND' }],
      [{ channelId: foreignChannel }, 404, { error: 'ERR_NO_WAPP_FOUND' }],
      [{ ticketId: 999_999 }, 404, { error: 'ERR_NO_TICKET_FOUND' }],
      [{ body: '  ' }, 400, { error: 'ERR_VALIDATION', field: 'body' }],
      [{ recurrenceDays: 7 }, 400, { error: 'ERR_VALIDATION', field: 'recurrenceDays' }],
      [{ repetitions: 0, recurrenceDays: 5 }, 400, { error: 'ERR_VALIDATION', field: 'repetitions' }],
      [{ contactId: 'x' }, 400, { error: 'ERR_VALIDATION', field: 'contactId' }],
    ];
    for (const [patch, status, body] of cases) {
      const res = await schedule({ ...base(), ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(status);
      expect(res.json()).toMatchObject(body);
    }
  });

  it('is idempotent on idFront', async () => {
    const first = (await schedule({ ...base(), idFront: 'front-1' })).json<ScheduledMessageDto>();
    const again = (await schedule({ ...base(), body: 'outro', idFront: 'front-1' })).json<ScheduledMessageDto>();
    expect(again.id).toBe(first.id);
    expect(again.body).toBe('Lembrete');
  });
});

describe('GET /scheduleMessages', () => {
  it('pages; admins and supervisors see every row, agents their own and those of a ticket they may see', async () => {
    const mine = (await schedule(base(), supervisor)).json<ScheduledMessageDto>();
    const all = (await t.call(admin, 'GET', '/scheduleMessages/?page=1&rowsPerPage=2')).json<ScheduleListResponse>();
    expect(all.messages).toHaveLength(2);
    expect(all.totalPages).toBe(Math.ceil(all.total / 2));
    expect(all.timezone).toBe('America/Sao_Paulo');
    const supers = (await t.call(supervisor, 'GET', '/scheduleMessages?rowsPerPage=100')).json<ScheduleListResponse>();
    expect(supers.total).toBe(all.total);
    const agents = (await t.call(agent, 'GET', '/scheduleMessages?rowsPerPage=100')).json<ScheduleListResponse>();
    expect(agents.messages.map((m) => m.id)).not.toContain(mine.id);
    expect(agents.messages.every((m) => m.user?.id === agent.id)).toBe(true);
    expect(agents.total).toBeLessThan(all.total);

    const ticketId = await makeTicket(t, 1, { contactId, channelId, status: 'open', userId: agent.id });
    const onTicket = (await schedule({ ...base(), ticketId }, supervisor)).json<ScheduledMessageDto>();
    const ofTicket = (
      await t.call(agent, 'GET', `/scheduleMessages?ticketId=${ticketId}&status=pending`)
    ).json<ScheduleListResponse>();
    expect(ofTicket.messages.map((m) => m.id)).toEqual([onTicket.id]);
  });

  it('the ticket detail lists the pending rows of the ticket and of its contact on its channel', async () => {
    const contact = await makeContact(t, 1, { name: 'Detalhe' });
    const ticketId = await makeTicket(t, 1, { contactId: contact, channelId, status: 'open', userId: agent.id });
    const a = (await schedule({ ...base(), contactId: contact, ticketId })).json<ScheduledMessageDto>();
    const b = (
      await schedule({ ...base(), contactId: contact, scheduleDate: '2099-12-02 09:00' })
    ).json<ScheduledMessageDto>();
    const c = (await schedule({ ...base(), contactId: contact })).json<ScheduledMessageDto>();
    await t.call(agent, 'DELETE', `/messagesSchedule/${c.id}`);
    const detail = (await t.call(agent, 'GET', `/tickets/${ticketId}`)).json();
    expect(detail.scheduledMessages).toEqual([
      expect.objectContaining({
        id: a.id,
        status: 'pending',
        scheduleDate: '2099-12-01T12:00:00.000Z',
        body: 'Lembrete',
      }),
      expect.objectContaining({ id: b.id, status: 'pending', scheduleDate: '2099-12-02T12:00:00.000Z' }),
    ]);
    const list = (await t.call(agent, 'GET', '/tickets?status=open')).json();
    // The list (a hot path) never reads them.
    expect(list.tickets.find((x: { id: number }) => x.id === ticketId).scheduledMessages ?? []).toEqual([]);
  });
});

describe('PUT and DELETE /messagesSchedule/{id}', () => {
  it('edits text, date and recurrence while pending; the new date gets its own job', async () => {
    const dto = (await schedule(base())).json<ScheduledMessageDto>();
    const res = await t.call(agent, 'PUT', `/messagesSchedule/${dto.id}`, {
      body: 'Novo texto',
      scheduleDate: '2099-12-03 08:15',
      recurrenceDays: 10,
      repetitions: 3,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      body: 'Novo texto',
      scheduleDate: '2099-12-03T11:15:00.000Z',
      recurrenceDays: 10,
      repetitionsLeft: 3,
    });
    const jobs = await queryRows(
      t.platform.db,
      sql`select 1 from pgboss.job where name = 'schedules.send' and data->>'scheduleId' = ${String(dto.id)}`,
    );
    expect(jobs).toHaveLength(2);
    expect(
      (await t.call(agent, 'PUT', `/messagesSchedule/${dto.id}`, { scheduleDate: '2001-01-01 00:00' })).json(),
    ).toEqual({
      error: 'ERR_SCHEDULE_DATE_NOT_VALID',
    });
  });

  it('cancels (status canceled, isDeleted); a second cancel or an edit answers 409 ERR_SCHEDULE_NOT_PENDING', async () => {
    const dto = (await schedule(base())).json<ScheduledMessageDto>();
    const res = await t.call(agent, 'DELETE', `/messagesSchedule/${dto.id}`);
    expect(res.json()).toMatchObject({ id: dto.id, status: 'canceled', isDeleted: true });
    for (const [method, body] of [
      ['DELETE', undefined],
      ['PUT', { body: 'x' }],
    ] as const) {
      const again = await t.call(agent, method, `/messagesSchedule/${dto.id}`, body);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: 'ERR_SCHEDULE_NOT_PENDING' });
    }
    // A canceled row is never sent, even when its old job runs at its time.
    await makeDue(dto.id);
    await freshNode().send.handler({ tenantId: 1, scheduleId: dto.id });
    expect(await outgoing(t, dto.id)).toBe(0);
  });

  it("answers ERR_NO_SCHEDULE_FOUND for unknown rows and for an agent's attempt on another's row", async () => {
    const theirs = (await schedule(base(), supervisor)).json<ScheduledMessageDto>();
    for (const [user, id] of [
      [agent, 999_999],
      [agent, theirs.id],
    ] as const) {
      for (const [method, body] of [
        ['PUT', { body: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await t.call(user, method, `/messagesSchedule/${id}`, body);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: 'ERR_NO_SCHEDULE_FOUND' });
      }
    }
    expect((await row(theirs.id)).status).toBe('pending');
    // A supervisor manages every row of the tenant.
    expect((await t.call(supervisor, 'PUT', `/messagesSchedule/${theirs.id}`, { body: 'ok' })).statusCode).toBe(200);
  });
});

describe('POST /messagesSchedule with a file (multipart)', () => {
  it('stores the file with the schedule and sends it as the message media when due', async () => {
    const contact = await makeContact(t, 1, { name: 'Com arquivo' });
    const form = multipart(
      {
        contactId: String(contact),
        channelId: String(channelId),
        body: 'foto.png',
        scheduleDate: FUTURE,
        fromMe: 'true',
      },
      { name: 'foto.png', mime: 'image/png', data: PNG },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/messagesSchedule/',
      payload: form.payload,
      headers: { ...agent.auth, ...form.headers },
    });
    expect(res.statusCode, res.body).toBe(200);
    const dto = res.json<ScheduledMessageDto>();
    expect(dto).toMatchObject({
      mediaName: 'foto.png',
      mediaType: 'image/png',
      scheduleDate: '2099-12-01T12:00:00.000Z',
    });
    await makeDue(dto.id);
    await freshNode().send.handler({ tenantId: 1, scheduleId: dto.id });
    const { rows } = await t.database.executeSql(
      'select media_type, media_key, media_name from messages where id_front = $1',
      [`schedule-${dto.id}`],
    );
    expect(rows).toEqual([
      expect.objectContaining({ media_type: 'image', media_name: 'foto.png', media_key: expect.any(String) }),
    ]);
  });

  it('removes the stored file when the schedule is refused', async () => {
    const before = storedFiles().length;
    const form = multipart(
      { contactId: '999999', channelId: String(channelId), body: 'x.png', scheduleDate: FUTURE },
      { name: 'x.png', mime: 'image/png', data: PNG },
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/messagesSchedule',
      payload: form.payload,
      headers: { ...agent.auth, ...form.headers },
    });
    expect(res.json()).toEqual({ error: 'ERR_NO_CONTACT_FOUND' });
    const past = multipart(
      { contactId: String(contactId), channelId: String(channelId), body: 'x.png', scheduleDate: '2001-01-01 10:00' },
      { name: 'x.png', mime: 'image/png', data: PNG },
    );
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/messagesSchedule',
      payload: past.payload,
      headers: { ...agent.auth, ...past.headers },
    });
    expect(refused.json()).toEqual({ error: 'ERR_SCHEDULE_DATE_NOT_VALID' });
    expect(storedFiles().length).toBe(before);
  });
});

describe('the send job', () => {
  it('sends a due row once: one outgoing message on a new ticket of the author, status sent, then edits answer 409', async () => {
    const contact = await makeContact(t, 1, { name: 'Envio' });
    const dto = (await schedule({ ...base(), contactId: contact })).json<ScheduledMessageDto>();
    const jobs = freshNode();
    // Not yet due: the job does nothing.
    await jobs.send.handler({ tenantId: 1, scheduleId: dto.id });
    expect(await outgoing(t, dto.id)).toBe(0);
    const sendsBefore = await sendJobs(t);
    await makeDue(dto.id);
    await jobs.send.handler({ tenantId: 1, scheduleId: dto.id });
    await jobs.send.handler({ tenantId: 1, scheduleId: dto.id });
    expect(await outgoing(t, dto.id)).toBe(1);
    expect(await sendJobs(t)).toBe(sendsBefore + 1);
    const sent = await row(dto.id);
    expect(sent).toMatchObject({ status: 'sent' });
    expect(sent.message_id).not.toBeNull();
    const { rows } = await t.database.executeSql('select status, user_id from tickets where id = $1', [sent.ticket_id]);
    expect(rows[0]).toEqual({ status: 'open', user_id: agent.id });
    for (const [method, body] of [
      ['PUT', { body: 'tarde' }],
      ['DELETE', undefined],
    ] as const) {
      expect((await t.call(agent, method, `/messagesSchedule/${dto.id}`, body)).json()).toEqual({
        error: 'ERR_SCHEDULE_NOT_PENDING',
      });
    }
  });

  it("uses the contact's active ticket on the channel", async () => {
    const contact = await makeContact(t, 1, { name: 'Ativo' });
    const ticketId = await makeTicket(t, 1, { contactId: contact, channelId, status: 'pending' });
    const dto = (await schedule({ ...base(), contactId: contact })).json<ScheduledMessageDto>();
    await makeDue(dto.id);
    await freshNode().send.handler({ tenantId: 1, scheduleId: dto.id });
    expect((await row(dto.id)).ticket_id).toBe(ticketId);
  });

  it('a recurrence makes the next row N days later at the same wall-clock time, until the repetitions end', async () => {
    const contact = await makeContact(t, 1, { name: 'Recorrente' });
    const dto = (
      await schedule({
        ...base(),
        contactId: contact,
        recurrenceDays: 5,
        repetitions: 2,
        scheduleDate: '2099-01-10 09:00',
      })
    ).json<ScheduledMessageDto>();
    await makeDue(dto.id);
    await t.database.executeSql(`update scheduled_messages set schedule_at = '2020-01-10T12:00:00Z' where id = $1`, [
      dto.id,
    ]);
    const jobs = freshNode();
    await jobs.send.handler({ tenantId: 1, scheduleId: dto.id });
    // A repeated run (a retried job, the sweeper) finds the row sent: no second next row.
    await jobs.send.handler({ tenantId: 1, scheduleId: dto.id });
    const { rows } = await t.database.executeSql(
      `select id, schedule_at, repetitions_left, status from scheduled_messages where contact_id = $1 order by id`,
      [contact],
    );
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ repetitions_left: 1, status: 'pending' });
    expect(new Date(rows[1]!.schedule_at as string).toISOString()).toBe('2020-01-15T12:00:00.000Z');
    // The last repetition sends and makes no further row.
    await jobs.send.handler({ tenantId: 1, scheduleId: Number(rows[1]!.id) });
    const after = await t.database.executeSql(
      `select status from scheduled_messages where contact_id = $1 order by id`,
      [contact],
    );
    expect(after.rows.map((r) => r.status)).toEqual(['sent', 'sent']);
  });

  it('the sweeper sends due rows whose job was lost', async () => {
    const contact = await makeContact(t, 1, { name: 'Varredura' });
    const dto = (await schedule({ ...base(), contactId: contact })).json<ScheduledMessageDto>();
    await t.database.executeSql(`delete from pgboss.job where name = 'schedules.send' and data->>'scheduleId' = $1`, [
      String(dto.id),
    ]);
    await makeDue(dto.id);
    const { db, events, secrets, config } = t.platform;
    const links = createMediaLinks(secrets.jwtSecret, config.publicUrl);
    const jobs = freshNode();
    expect(await sweepDueSchedules({ db, events, queue: t.jobs, links, jobs })).toBeGreaterThanOrEqual(1);
    expect(await outgoing(t, dto.id)).toBe(1);
    expect(await sweepDueSchedules({ db, events, queue: t.jobs, links, jobs })).toBe(0);
  });

  it('two runners of the same due row send one message', async () => {
    const contact = await makeContact(t, 1, { name: 'Corrida' });
    const dto = (await schedule({ ...base(), contactId: contact })).json<ScheduledMessageDto>();
    await makeDue(dto.id);
    const [a, b] = [freshNode(), freshNode()];
    await Promise.all([
      a.send.handler({ tenantId: 1, scheduleId: dto.id }),
      b.send.handler({ tenantId: 1, scheduleId: dto.id }),
    ]);
    expect(await outgoing(t, dto.id)).toBe(1);
  });
});

describe.runIf(!!process.env.TEST_DATABASE_URL)('the send job across nodes (PostgreSQL)', () => {
  it('scheduled on a node that stops, sent once by a node started later on the same database', async () => {
    const nodeB = await createTestApp({}, { peerOf: t });
    const user = await nodeB.createUser({ tenantId: 1, profile: 'user' });
    const contact = await makeContact(t, 1, { name: 'Reinício' });
    const res = await nodeB.call(user, 'POST', '/messagesSchedule', { ...base(), contactId: contact });
    const id = res.json<ScheduledMessageDto>().id;
    await nodeB.close();
    await makeDue(id);
    const nodeC = await createTestApp({}, { peerOf: t });
    try {
      await freshNode(nodeC).send.handler({ tenantId: 1, scheduleId: id });
      await freshNode(t).send.handler({ tenantId: 1, scheduleId: id });
      expect(await outgoing(t, id)).toBe(1);
    } finally {
      await nodeC.close();
    }
  });

  it('two nodes running the same row at once send one message', async () => {
    const nodeB = await createTestApp({}, { peerOf: t });
    try {
      for (let i = 0; i < 5; i += 1) {
        const contact = await makeContact(t, 1, { name: `Nós ${i}` });
        const id = (await schedule({ ...base(), contactId: contact })).json<ScheduledMessageDto>().id;
        await makeDue(id);
        await Promise.all([
          freshNode(t).send.handler({ tenantId: 1, scheduleId: id }),
          freshNode(nodeB).send.handler({ tenantId: 1, scheduleId: id }),
        ]);
        expect(await outgoing(t, id)).toBe(1);
      }
    } finally {
      await nodeB.close();
    }
  });
});
