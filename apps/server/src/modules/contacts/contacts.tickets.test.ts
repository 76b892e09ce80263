/**
 * Contacts and their tickets: a contact with tickets cannot be deleted (ERR_CONTACT_TICKETS_REGISTERED), and a merge
 * moves the merged contacts' tickets and messages to the kept contact, closing (with a log) the extra active tickets
 * that would leave two open/pending tickets on one channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { logTypes, makeChannel, makeContact, makeTicket, ticketRow } from '../../test/ticket-fixtures.js';

let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin } = await t.createStaff());
});
afterAll(() => t.close());

const contactExists = async (id: number) =>
  (await t.database.executeSql('select 1 from contacts where id = $1', [id])).rows.length === 1;

describe('contacts with tickets', () => {
  it('refuses to delete a contact with tickets (409) and deletes one without', async () => {
    const channel = await makeChannel(t, 1);
    const busy = await makeContact(t, 1);
    await makeTicket(t, 1, { contactId: busy, channelId: channel, status: 'closed' });
    const res = await t.call(admin, 'DELETE', `/contacts/${busy}`);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'ERR_CONTACT_TICKETS_REGISTERED' });
    expect(await contactExists(busy)).toBe(true);
    const free = await makeContact(t, 1);
    expect((await t.call(admin, 'DELETE', `/contacts/${free}`)).statusCode).toBe(204);
    expect(await contactExists(free)).toBe(false);
  });

  it('merge moves tickets and messages to the target; a second active ticket on one channel is closed with a log', async () => {
    const x = await makeChannel(t, 1);
    const y = await makeChannel(t, 1);
    const target = await makeContact(t, 1, { name: 'Alvo', number: '5511900000001' });
    const source = await makeContact(t, 1, { name: 'Fonte', number: '5511900000002' });
    const kept = await makeTicket(t, 1, { contactId: target, channelId: x, status: 'open', userId: admin.id });
    const clashing = await makeTicket(t, 1, { contactId: source, channelId: x, status: 'pending' });
    const onY = await makeTicket(t, 1, { contactId: source, channelId: y, status: 'pending' });
    const old = await makeTicket(t, 1, { contactId: source, channelId: x, status: 'closed' });
    await t.database.executeSql(
      `insert into messages (tenant_id, ticket_id, contact_id, sender_contact_id, from_me, body)
       values (1, $1, $2, $2, false, 'oi'), (1, $3, $2, null, false, 'olá')`,
      [clashing, source, onY],
    );
    const res = await t.call(admin, 'POST', '/contacts/merge', { targetId: target, sourceIds: [source] });
    expect(res.statusCode, res.body).toBe(200);
    for (const id of [kept, clashing, onY, old]) expect((await ticketRow(t, id))?.contact_id).toBe(target);
    expect((await ticketRow(t, kept))?.status).toBe('open');
    expect((await ticketRow(t, clashing))?.status).toBe('closed');
    expect((await ticketRow(t, onY))?.status).toBe('pending');
    expect(await logTypes(t, clashing)).toEqual(['closed']);
    expect(await logTypes(t, kept)).toEqual([]);
    const { rows } = await t.database.executeSql(
      'select contact_id, sender_contact_id from messages where ticket_id = any($1::bigint[]) order by id',
      [[clashing, onY]],
    );
    expect(rows).toEqual([
      { contact_id: target, sender_contact_id: target },
      { contact_id: target, sender_contact_id: null },
    ]);
    expect(await contactExists(source)).toBe(false);
  });
});
