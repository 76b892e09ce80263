/**
 * Auto-close on inactivity: only tickets where the customer went quiet after our last answer (the newest message is
 * ours), counted from that message and never from before the switch-on; a ticket waiting for us is never closed; the
 * threshold's boundary (a second either side), groups left open, the closing text (autoCloseMessage, else the
 * channel's farewell), idempotence, the batch size, the settings' allowed times, and the settings screen's preview
 * counting what the job closes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeTicket, logTypes, ticketRow } from '../../test/ticket-fixtures.js';
import { createTicketMessaging } from '../messages/index.js';
import { autoCloseTenant, runAutoClose, type AutoCloseDeps } from './tickets.autoclose.js';

let t: TestApp;
let admin: TestUser;
let agent: TestUser;
let deps: AutoCloseDeps;
let channelId: number;

async function setting(key: string, value: string, tenantId = 1) {
  await t.database.executeSql('update settings set value = $3 where tenant_id = $1 and key = $2', [
    tenantId,
    key,
    value,
  ]);
}

/** Auto-close on (the row, as a client's PUT leaves it) and switched on `seconds` ago. */
async function switchedOnAgo(seconds: number, tenantId = 1) {
  await setting('autoClose', 'enabled', tenantId);
  await t.database.executeSql(
    `insert into settings (tenant_id, key, value)
       values ($1, 'doc:autoCloseSince', (floor(extract(epoch from now() - make_interval(secs => $2)) * 1000))::bigint::text)
     on conflict (tenant_id, key) do update set value = excluded.value`,
    [tenantId, seconds],
  );
}

/** A message on the ticket written `seconds` ago; the ticket's last activity follows it. */
async function message(ticketId: number, seconds: number, values: { fromMe: boolean; mediaType?: string }) {
  await t.database.executeSql(
    `insert into messages (tenant_id, ticket_id, contact_id, channel_id, from_me, body, media_type, status, created_at)
       select tenant_id, id, contact_id, channel_id, $2, 'texto', $3, $4, now() - make_interval(secs => $5)
       from tickets where id = $1`,
    [ticketId, values.fromMe, values.mediaType ?? 'chat', values.fromMe ? 'sended' : 'received', seconds],
  );
  await t.database.executeSql(
    `update tickets set last_message_at = greatest(coalesce(last_message_at, '-infinity'), now() - make_interval(secs => $2))
     where id = $1`,
    [ticketId, seconds],
  );
}

/**
 * A ticket whose newest message is `seconds` old: ours (the customer went quiet after our answer) unless
 * `waitingForUs`, where the customer wrote last.
 */
async function idleTicket(
  seconds: number,
  values: {
    isGroup?: boolean;
    channel?: number;
    waitingForUs?: boolean;
    status?: 'open' | 'pending';
    tenantId?: number;
  } = {},
) {
  const tenantId = values.tenantId ?? 1;
  const contactId = await makeContact(t, tenantId, { name: `Ocioso ${seconds}` });
  const id = await makeTicket(t, tenantId, {
    contactId,
    channelId: values.channel ?? channelId,
    status: values.status ?? 'open',
    userId: values.status === 'pending' || tenantId !== 1 ? null : agent.id,
    isGroup: values.isGroup ?? false,
    updatedAt: new Date(Date.now() - seconds * 1000),
  });
  await message(id, seconds + 60, { fromMe: !values.waitingForUs });
  await message(id, seconds, { fromMe: !values.waitingForUs });
  return id;
}

/** What the close sent (the fixture's own messages say 'texto'). */
async function outgoingBodies(ticketId: number): Promise<string[]> {
  const { rows } = await t.database.executeSql(
    `select body from messages where ticket_id = $1 and from_me and body <> 'texto' order by id`,
    [ticketId],
  );
  return rows.map((r) => r.body as string);
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, agent } = await t.createStaff());
  channelId = await makeChannel(t, 1, { name: 'Principal', farewellMessage: 'Até logo!' });
  deps = { db: t.platform.db, events: t.platform.events, port: createTicketMessaging({ jobs: t.jobs }) };
});
afterAll(() => t.close());

describe('auto-close on inactivity', () => {
  it('does nothing while the setting is off', async () => {
    await setting('autoClose', 'disabled');
    const id = await idleTicket(3 * 3600);
    await runAutoClose(deps);
    expect((await ticketRow(t, id))!.status).toBe('open');
  });

  it('closes a ticket idle the threshold plus 1 s after our answer, keeps one idle the threshold minus 1 s (60 min)', async () => {
    await switchedOnAgo(30 * 86400);
    await setting('autoCloseTime', '60');
    await setting('autoCloseMessage', '');
    const young = await idleTicket(3600 - 1);
    const old = await idleTicket(3600 + 1);
    const group = await idleTicket(10 * 3600, { isGroup: true });
    await runAutoClose(deps);
    expect((await ticketRow(t, young))!.status).toBe('open');
    expect((await ticketRow(t, old))!.status).toBe('closed');
    expect((await ticketRow(t, group))!.status).toBe('open');
    expect(await logTypes(t, old)).toContain('autoClose');
    const { rows } = await t.database.executeSql(
      `select user_id, details from ticket_logs where ticket_id = $1 and type = 'autoClose'`,
      [old],
    );
    expect(rows).toEqual([expect.objectContaining({ user_id: null })]);
    // The channel's farewell is sent when the tenant has no closing message of its own.
    expect(await outgoingBodies(old)).toEqual(['Até logo!']);
    // Idempotent: a second run closes nothing and sends nothing more.
    expect(await runAutoClose(deps)).toBe(0);
    expect(await outgoingBodies(old)).toEqual(['Até logo!']);
  });

  it('never closes a ticket waiting for us: the customer wrote last, nobody answered yet, or no message at all', async () => {
    await switchedOnAgo(30 * 86400);
    await setting('autoCloseTime', '10');
    const customerLast = await idleTicket(10 * 3600, { waitingForUs: true });
    const unansweredPending = await idleTicket(10 * 3600, { waitingForUs: true, status: 'pending' });
    // Our answer, then the customer again: waiting for us.
    const answeredThenAsked = await idleTicket(10 * 3600);
    await message(answeredThenAsked, 5 * 3600, { fromMe: false });
    // The customer last, then an internal note of ours and a scheduled message not sent yet: still waiting for us.
    const noted = await idleTicket(10 * 3600, { waitingForUs: true });
    await message(noted, 5 * 3600, { fromMe: true, mediaType: 'notes' });
    await t.database.executeSql(
      `insert into messages (tenant_id, ticket_id, contact_id, channel_id, from_me, body, status, schedule_date, created_at)
         select tenant_id, id, contact_id, channel_id, true, 'lembrete', 'pending', now() + interval '1 day',
                now() - interval '5 hours'
         from tickets where id = $1`,
      [noted],
    );
    const silent = await makeTicket(t, 1, {
      contactId: await makeContact(t, 1, { name: 'Sem mensagens' }),
      channelId,
      status: 'pending',
      updatedAt: new Date(Date.now() - 10 * 3600 * 1000),
    });
    // The one where the customer went quiet after our answer is closed by the same run.
    const quiet = await idleTicket(10 * 3600);
    await runAutoClose(deps);
    for (const id of [customerLast, unansweredPending, answeredThenAsked, noted, silent]) {
      expect((await ticketRow(t, id))!.status, `ticket ${id}`).not.toBe('closed');
    }
    expect((await ticketRow(t, quiet))!.status).toBe('closed');
  });

  it('counts from the switch-on: quiet 2 h before switching on with 10 min is not closed then, but 10 min later', async () => {
    await setting('autoClose', 'disabled');
    const quiet = await idleTicket(2 * 3600);
    const put = (key: string, value: string) =>
      t.app.inject({ method: 'PUT', url: '/api/settings/x', headers: admin.auth, payload: { key, value } });
    expect((await put('autoCloseTime', '10')).statusCode).toBe(200);
    expect((await put('autoClose', 'enabled')).statusCode).toBe(200);
    await runAutoClose(deps);
    expect((await ticketRow(t, quiet))!.status).toBe('open');
    // Saving "enabled" again while it is on does not move the switch-on time.
    const since = async () =>
      (await t.database.executeSql(`select value from settings where tenant_id = 1 and key = 'doc:autoCloseSince'`))
        .rows[0]!.value as string;
    const first = await since();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await put('autoClose', 'enabled')).statusCode).toBe(200);
    expect(await since()).toBe(first);
    // 9 min 59 s after the switch-on: still open; 10 min 1 s after: closed.
    await t.database.executeSql(
      `update settings set value = (value::bigint - 599000)::text where tenant_id = 1 and key = 'doc:autoCloseSince'`,
    );
    await runAutoClose(deps);
    expect((await ticketRow(t, quiet))!.status).toBe('open');
    await t.database.executeSql(
      `update settings set value = (value::bigint - 2000)::text where tenant_id = 1 and key = 'doc:autoCloseSince'`,
    );
    await runAutoClose(deps);
    expect((await ticketRow(t, quiet))!.status).toBe('closed');
  });

  it("sends the tenant's autoCloseMessage instead of the farewell; no text when neither is set", async () => {
    await setting('autoClose', 'enabled');
    await setting('autoCloseTime', '10');
    await setting('autoCloseMessage', 'Encerrado por inatividade.');
    const withMessage = await idleTicket(601);
    const bare = await makeChannel(t, 1, { name: 'Sem despedida' });
    await runAutoClose(deps);
    expect(await outgoingBodies(withMessage)).toEqual(['Encerrado por inatividade.']);
    await setting('autoCloseMessage', '');
    const silent = await idleTicket(601, { channel: bare });
    await runAutoClose(deps);
    expect((await ticketRow(t, silent))!.status).toBe('closed');
    expect(await outgoingBodies(silent)).toEqual([]);
  });

  it('closes at most a batch per tenant per run, and never a ticket touched meanwhile', async () => {
    await setting('autoCloseTime', '10');
    const ids = [await idleTicket(700), await idleTicket(700), await idleTicket(700)];
    // A message arrives on the last one before the run.
    await t.database.executeSql('update tickets set last_message_at = now() where id = $1', [ids[2]]);
    const first = await autoCloseTenant(deps, { tenantId: 1, minutes: 10, message: '' }, 1);
    expect(first).toEqual([ids[0]]);
    await autoCloseTenant(deps, { tenantId: 1, minutes: 10, message: '' }, 1);
    expect((await ticketRow(t, ids[1]!))!.status).toBe('closed');
    expect((await ticketRow(t, ids[2]!))!.status).toBe('open');
  });

  it('the settings accept only the spec options for autoCloseTime', async () => {
    const put = (value: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/settings/autoCloseTime',
        headers: admin.auth,
        payload: { key: 'autoCloseTime', value },
      });
    for (const value of ['10', '60', '1440', '7200', '14400']) expect((await put(value)).statusCode, value).toBe(200);
    for (const value of ['30', '0', '', 'abc']) {
      const res = await put(value);
      expect(res.statusCode, value).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'value' });
    }
  });
});

describe('GET /api/settings/auto-close-preview', () => {
  it("counts what the job closes, in the caller's tenant only, for admins, with the spec options only", async () => {
    const tenantId = await t.createTenant();
    const otherAdmin = await t.createUser({ tenantId, profile: 'admin' });
    const otherAgent = await t.createUser({ tenantId, profile: 'user' });
    const channel = await makeChannel(t, tenantId, { name: 'Loja' });
    const quietLong = [
      await idleTicket(2 * 3600, { tenantId, channel }),
      await idleTicket(3 * 3600, { tenantId, channel }),
      await idleTicket(5 * 3600, { tenantId, channel, status: 'pending' }),
    ];
    const quietShort = await idleTicket(300, { tenantId, channel });
    await idleTicket(4 * 3600, { tenantId, channel, waitingForUs: true });
    await idleTicket(4 * 3600, { tenantId, channel, waitingForUs: true, status: 'pending' });
    const preview = async (minutes: string, user = otherAdmin) =>
      t.app.inject({ method: 'GET', url: `/api/settings/auto-close-preview?minutes=${minutes}`, headers: user.auth });

    // Off now: saving switches it on, nothing closes at once, the four waiting for the customer close later.
    const off = await preview('10');
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ minutes: 10, enabled: false, closeNow: 0, awaitingCustomer: 4 });

    const put = (key: string, value: string) =>
      t.app.inject({ method: 'PUT', url: '/api/settings/x', headers: otherAdmin.auth, payload: { key, value } });
    expect((await put('autoCloseTime', '10')).statusCode).toBe(200);
    expect((await put('autoClose', 'enabled')).statusCode).toBe(200);
    const tenant = { tenantId, minutes: 10, message: '' };
    expect(await autoCloseTenant(deps, tenant)).toEqual([]);

    // Ten minutes and a second after the switch-on: the preview and the job agree on the three quiet for hours.
    await t.database.executeSql(
      `update settings set value = (value::bigint - 601000)::text where tenant_id = $1 and key = 'doc:autoCloseSince'`,
      [tenantId],
    );
    expect((await preview('60')).json()).toMatchObject({ enabled: true, closeNow: 0, awaitingCustomer: 4 });
    const on = (await preview('10')).json<{ closeNow: number }>();
    expect(on).toEqual({ minutes: 10, enabled: true, closeNow: 3, awaitingCustomer: 4 });
    const closed = await autoCloseTenant(deps, tenant);
    expect(closed).toHaveLength(on.closeNow);
    expect(closed.sort((a, b) => a - b)).toEqual([...quietLong].sort((a, b) => a - b));
    expect((await ticketRow(t, quietShort))!.status).toBe('open');
    expect((await preview('10')).json()).toMatchObject({ closeNow: 0, awaitingCustomer: 1 });

    expect((await preview('10', otherAgent)).statusCode).toBe(403);
    for (const bad of ['30', '', 'abc']) {
      const res = await preview(bad);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
    }
  });
});
