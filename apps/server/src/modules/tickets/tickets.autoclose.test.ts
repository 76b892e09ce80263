/**
 * Auto-close on inactivity: the threshold's boundary (a second either side), last activity from last_message_at or
 * updated_at, groups left open, the closing text (autoCloseMessage, else the channel's farewell), idempotence, the
 * batch size, and the settings' allowed times.
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

/** A ticket idle for `seconds` (last message that long ago). */
async function idleTicket(
  seconds: number,
  values: { isGroup?: boolean; lastMessage?: boolean; channel?: number } = {},
) {
  const contactId = await makeContact(t, 1, { name: `Ocioso ${seconds}` });
  const id = await makeTicket(t, 1, {
    contactId,
    channelId: values.channel ?? channelId,
    status: 'open',
    userId: agent.id,
    isGroup: values.isGroup ?? false,
  });
  const column = values.lastMessage === false ? 'updated_at' : 'last_message_at';
  await t.database.executeSql(
    `update tickets set ${column} = now() - make_interval(secs => $2)${column === 'updated_at' ? ', last_message_at = null' : ''} where id = $1`,
    [id, seconds],
  );
  return id;
}

async function outgoingBodies(ticketId: number): Promise<string[]> {
  const { rows } = await t.database.executeSql(
    'select body from messages where ticket_id = $1 and from_me order by id',
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

  it('closes a ticket idle the threshold plus 1 s, keeps one idle the threshold minus 1 s (60 min)', async () => {
    await setting('autoClose', 'enabled');
    await setting('autoCloseTime', '60');
    await setting('autoCloseMessage', '');
    const young = await idleTicket(3600 - 1);
    const old = await idleTicket(3600 + 1);
    const byUpdate = await idleTicket(3600 + 1, { lastMessage: false });
    const group = await idleTicket(10 * 3600, { isGroup: true });
    await runAutoClose(deps);
    expect((await ticketRow(t, young))!.status).toBe('open');
    expect((await ticketRow(t, old))!.status).toBe('closed');
    expect((await ticketRow(t, byUpdate))!.status).toBe('closed');
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
