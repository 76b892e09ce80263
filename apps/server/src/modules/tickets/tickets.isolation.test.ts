/**
 * Tenant isolation of the ticket and queue routes: an admin of another tenant gets 404 for every route with a
 * tenant-1 id, and the tenant-1 rows are unchanged afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TicketListResponse } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { makeChannel, makeContact, makeQueue, makeTicket, recordingPort } from '../../test/ticket-fixtures.js';

let t: TestApp;
let intruder: TestUser;
let victim: number;
let channel: number;
let queue: number;
let contact: number;
const recorder = recordingPort();

const snapshot = async () =>
  (
    await t.database.executeSql(
      `select (select row_to_json(x) from tickets x where x.id = $1) as ticket,
              (select count(*)::int from ticket_logs where ticket_id = $1) as logs,
              (select row_to_json(q) from queues q where q.id = $2) as queue`,
      [victim, queue],
    )
  ).rows[0];

beforeAll(async () => {
  t = await createTestApp({}, { ticketMessaging: recorder.port });
  const { agent } = await t.createStaff();
  const tenant2 = await t.createTenant();
  intruder = await t.createUser({ tenantId: tenant2, profile: 'admin' });
  channel = await makeChannel(t, 1, { farewellMessage: 'Tchau' });
  queue = await makeQueue(t, 1, 'Privada', [agent.id]);
  contact = await makeContact(t, 1);
  victim = await makeTicket(t, 1, {
    contactId: contact,
    channelId: channel,
    queueId: queue,
    status: 'open',
    userId: agent.id,
    unreadMessages: 2,
  });
  await makeChannel(t, tenant2, { isDefault: true });
});
afterAll(() => t.close());

describe('tenant isolation of the ticket routes', () => {
  it('answers 404 for every ticket route with tenant-1 ids and changes nothing', async () => {
    const before = await snapshot();
    const attempts: [Parameters<TestApp['call']>[1], string, object | undefined, string][] = [
      ['GET', `/tickets/${victim}`, undefined, 'ERR_NO_TICKET_FOUND'],
      ['GET', `/tickets/${victim}/logs`, undefined, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/tickets/${victim}`, { status: 'closed' }, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/tickets/${victim}`, { status: 'open', userId: intruder.id }, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/tickets/${victim}`, { userId: intruder.id, isTransference: 1 }, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/tickets/${victim}`, { unreadMessages: 0, chatgptStatus: 'enabled' }, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/ticketsForce/${victim}`, {}, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/ticketsNull/${victim}`, {}, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/ticketsChatBot/${victim}`, { chatFlowId: 1 }, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/ticketsChannelId/${victim}`, { whatsappId: channel }, 'ERR_NO_TICKET_FOUND'],
      ['PUT', '/ticketsChannel', { whatsappId: channel, newWhatsappId: channel + 1000 }, 'ERR_NO_WAPP_FOUND'],
      ['POST', '/closeAllOpen', { whatsappId: channel }, 'ERR_NO_WAPP_FOUND'],
      ['POST', '/closeAllPending', { whatsappId: channel }, 'ERR_NO_WAPP_FOUND'],
      ['POST', '/tickets', { contactId: contact, channelId: channel }, 'ERR_NO_WAPP_FOUND'],
      ['POST', '/tickets', { contactId: contact }, 'ERR_NO_CONTACT_FOUND'],
      ['PUT', `/queue/${queue}`, { queue: 'Roubada' }, 'ERR_NO_QUEUE_FOUND'],
      ['DELETE', `/queue/${queue}`, undefined, 'ERR_NO_QUEUE_FOUND'],
    ];
    for (const [method, path, body, error] of attempts) {
      const res = await t.call(intruder, method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toEqual({ error });
    }
    expect(recorder.calls).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });

  it('lists none of tenant 1’s tickets or queues, and the tenant-wide calls touch only its own', async () => {
    const list = (
      await t.call(intruder, 'GET', '/tickets?showAll=true&status[]=open&status[]=pending&status[]=closed')
    ).json<TicketListResponse>();
    expect(list).toMatchObject({ tickets: [], count: 0 });
    expect((await t.call(intruder, 'GET', '/queue')).json()).toEqual([]);
    const before = await snapshot();
    for (const [method, path] of [
      ['GET', '/ticketsClear'],
      ['GET', '/ticketsMarkAllUnread'],
      ['PUT', '/ticketsUpdateAllUnreadMessages'],
    ] as const) {
      expect((await t.call(intruder, method, path)).json(), path).toEqual({ count: 0 });
    }
    expect(await snapshot()).toEqual(before);
  });
});
