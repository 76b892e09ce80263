/**
 * Campaigns (client-contract §12) and the outbound lane: the form's rules and codes, the recipients list, start,
 * cancel and resume, duplicate; the lane sending each recipient once, paced, in turn through the three messages with
 * the contact's variables, skipping blocked contacts; acks moving each recipient's state; tenant isolation.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CampaignDto, CampaignRecipientDto } from '@conversa/shared';
import { queryRows } from '../../platform/db/client.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { jobOf, lookupOf, TestAdapter } from '../../test/messages-kit.js';
import { makeChannel, makeContact } from '../../test/ticket-fixtures.js';
import { chooseMessage } from './campaigns.lane.js';

let t: TestApp;
let adapter: TestAdapter;
let supervisor: TestUser;
let agent: TestUser;
let channelId: number;
let contactIds: number[];

const FUTURE = '2099-12-01 09:00';
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: object, user = supervisor) =>
  t.call(user, method, path, body);

const form = (extra: Record<string, unknown> = {}) => ({
  name: 'Promoção',
  start: FUTURE,
  sessionId: channelId,
  delay: 7,
  message1: 'Olá {{firstName}}, número {{number}}',
  message2: 'Oi {{name}}',
  message3: 'null',
  mediaUrl: 'null',
  ...extra,
});

async function createCampaign(extra: Record<string, unknown> = {}): Promise<CampaignDto> {
  const res = await call('POST', '/campaigns/', form(extra));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CampaignDto>();
}

/** The campaign's start has come: its start and its queued begin job are due now. */
async function due(campaignId: number) {
  await t.database.executeSql(`update campaigns set start_at = now() - interval '1 second' where id = $1`, [
    campaignId,
  ]);
  await t.database.executeSql(
    `update pgboss.job set start_after = now() - interval '1 second'
      where name = 'campaigns.begin' and state = 'created' and (data->>'campaignId')::bigint = $1`,
    [campaignId],
  );
}
/** The lane's delay has passed: its queued tick and its next send are due now. */
async function elapse() {
  await t.database.executeSql(
    `update pgboss.job set start_after = now() - interval '1 second' where name = 'campaigns.lane' and state = 'created'`,
  );
  await t.database.executeSql(`update outbound_lanes set next_at = now() - interval '1 second'`);
}

const run = (name: string) => t.jobs.runPending(jobOf(t, name));
/** One lane tick and the message send it queued. */
async function step() {
  await elapse();
  const ticks = await run('campaigns.lane');
  await run('messages.send');
  return ticks;
}

async function recipients(id: number) {
  const res = await call('GET', `/campaigns/contacts/${id}/?campaignId=${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CampaignRecipientDto[]>();
}

beforeAll(async () => {
  adapter = new TestAdapter();
  t = await createTestApp({}, { adapters: lookupOf(adapter) });
  ({ supervisor, agent } = await t.createStaff());
  channelId = await makeChannel(t, 1, { name: 'Principal' });
  contactIds = [];
  for (const [i, name] of ['Maria Silva', 'João Souza', 'Ana Lima', 'Pedro Alves'].entries()) {
    contactIds.push(await makeContact(t, 1, { name, number: `551199900000${i}`, telegramId: `90${i}` }));
  }
});
afterAll(() => t.close());
beforeEach(() => {
  adapter.sent.length = 0;
});

describe('the campaign form (product-spec §5, §8)', () => {
  it('creates a pending campaign from the multipart-style strings, with zero counts', async () => {
    const dto = await createCampaign();
    expect(dto).toMatchObject({
      name: 'Promoção',
      status: 'pending',
      sessionId: channelId,
      delay: 7,
      message1: 'Olá {{firstName}}, número {{number}}',
      message3: null,
      mediaUrl: null,
      // 09:00 on the company's clock (America/Sao_Paulo).
      start: '2099-12-01T12:00:00.000Z',
      contactsCount: 0,
      pendentesEnvio: 0,
      pendentesEntrega: 0,
      recebidas: 0,
      lidas: 0,
    });
    const list = (await call('GET', '/campaigns/')).json<CampaignDto[]>();
    expect(list.map((c) => c.id)).toContain(dto.id);
  });

  it('requires a name, a session and a message, and a start after now', async () => {
    const cases: [Record<string, unknown>, number, object][] = [
      [{ name: '  ' }, 400, { error: 'ERR_VALIDATION', field: 'name' }],
      [{ sessionId: 'null' }, 400, { error: 'ERR_VALIDATION', field: 'sessionId' }],
      [{ message1: '', message2: 'null' }, 400, { error: 'ERR_VALIDATION', field: 'message1' }],
      // A media URL whose file cannot be fetched (nothing listens there): refused on its field, nothing stored.
      [
        { message1: '', message2: 'null', mediaUrl: 'http://127.0.0.1:9/promo.jpg' },
        400,
        { error: 'ERR_VALIDATION', field: 'mediaUrl' },
      ],
      [{ sessionId: 999_999 }, 404, { error: 'ERR_NO_WAPP_FOUND' }],
      [{ start: '2020-01-01 10:00' }, 400, { error: 'ERROR_CAMPAIGN_DATE_NOT_VALID' }],
      [{ start: 'amanhã' }, 400, { error: 'ERROR_CAMPAIGN_DATE_NOT_VALID' }],
      [{ delay: 0 }, 400, { error: 'ERR_VALIDATION', field: 'delay' }],
    ];
    const before = (await call('GET', '/campaigns/')).json<CampaignDto[]>().length;
    for (const [extra, status, body] of cases) {
      const res = await call('POST', '/campaigns/', form(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(status);
      expect(res.json()).toEqual(body);
    }
    expect((await call('GET', '/campaigns/')).json<CampaignDto[]>()).toHaveLength(before);
  });

  it('is for supervisors and above: an agent gets 403 on every route', async () => {
    const dto = await createCampaign();
    for (const [method, path] of [
      ['GET', '/campaigns/'],
      ['POST', '/campaigns/'],
      ['PUT', `/campaigns/${dto.id}`],
      ['DELETE', `/campaigns/${dto.id}`],
      ['POST', `/campaigns/start/${dto.id}/`],
      ['GET', `/campaigns/contacts/${dto.id}/`],
    ] as const) {
      const res = await call(method, path, method === 'GET' || method === 'DELETE' ? undefined : form(), agent);
      expect(res.statusCode, `${method} ${path}`).toBe(403);
      expect(res.json()).toEqual({ error: 'ERR_NO_PERMISSION' });
    }
  });
});

describe('recipients and start', () => {
  it('adds the tenant contacts once, by list or by tag, and removes one or all', async () => {
    const dto = await createCampaign();
    const added = await call('POST', `/campaigns/contacts/${dto.id}/`, [
      { id: contactIds[0], name: 'x' },
      { id: contactIds[1] },
      { id: contactIds[0] },
    ]);
    expect(added.json()).toEqual({ added: 2 });
    expect((await call('POST', `/campaigns/contacts/${dto.id}/`, [{ id: contactIds[1] }])).json()).toEqual({
      added: 0,
    });
    const listed = await recipients(dto.id);
    expect(listed.map((r) => r.id)).toEqual([contactIds[0], contactIds[1]]);
    expect(listed[0]!.campaignContacts[0]).toMatchObject({ state: 'pending', ack: 0, messageId: null });

    const removed = await call('DELETE', `/campaigns/contacts/${dto.id}/${contactIds[0]}/?campaignId=${dto.id}`);
    expect(removed.statusCode).toBe(200);
    expect((await recipients(dto.id)).map((r) => r.id)).toEqual([contactIds[1]]);
    const again = await call('DELETE', `/campaigns/contacts/${dto.id}/${contactIds[0]}/`);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: 'ERR_NO_CAMPAIGN_CONTACTS_NOT_FOUND' });
    expect((await call('DELETE', `/campaigns/deleteall/contacts/${dto.id}/`)).statusCode).toBe(200);
    expect(await recipients(dto.id)).toEqual([]);

    const [tag] = await queryRows<{ id: number }>(
      t.platform.db,
      sql`insert into tags (tenant_id, tag) values (1, 'VIP') returning id`,
    );
    const tagId = tag!.id;
    for (const contactId of contactIds.slice(2)) {
      await t.database.executeSql('insert into contact_tags (tenant_id, contact_id, tag_id) values (1, $1, $2)', [
        contactId,
        tagId,
      ]);
    }
    const byTag = await call('POST', `/campaigns/${dto.id}/contacts/tags`, { tagIds: [tagId] });
    expect(byTag.json()).toEqual({ added: 2 });
    const tagged = await recipients(dto.id);
    expect(tagged.map((r) => r.id)).toEqual(contactIds.slice(2));
    expect(tagged[0]!.tags).toEqual([expect.objectContaining({ id: tagId, tag: 'VIP' })]);
  });

  it('starts only with contacts and a future start, and only from pending or canceled', async () => {
    const empty = await createCampaign();
    expect((await call('POST', `/campaigns/start/${empty.id}/`, { campaignId: empty.id })).json()).toEqual({
      error: 'ERR_CAMPAIGN_CONTACTS',
    });
    const undated = await createCampaign({ start: 'null' });
    await call('POST', `/campaigns/contacts/${undated.id}/`, [{ id: contactIds[0] }]);
    expect((await call('POST', `/campaigns/start/${undated.id}/`)).json()).toEqual({
      error: 'ERROR_CAMPAIGN_DATE_NOT_VALID',
    });
    await call('PUT', `/campaigns/${undated.id}`, form());
    const started = await call('POST', `/campaigns/start/${undated.id}/`, { campaignId: undated.id });
    expect(started.json()).toMatchObject({ status: 'scheduled', contactsCount: 1, pendentesEnvio: 1 });
    for (const [method, path, body] of [
      ['PUT', `/campaigns/${undated.id}`, form()],
      ['POST', `/campaigns/start/${undated.id}/`, {}],
      ['POST', `/campaigns/contacts/${undated.id}/`, [{ id: contactIds[1] }]],
      ['DELETE', `/campaigns/deleteall/contacts/${undated.id}/`, undefined],
      ['DELETE', `/campaigns/${undated.id}`, undefined],
    ] as const) {
      const res = await call(method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(409);
      expect(res.json()).toEqual({ error: 'ERR_NO_UPDATE_CAMPAIGN_NOT_IN_CANCELED_PENDING' });
    }
    expect((await call('POST', `/campaigns/cancel/${undated.id}/`)).json()).toMatchObject({ status: 'canceled' });
    expect((await call('DELETE', `/campaigns/${undated.id}`)).statusCode).toBe(200);
    expect((await call('GET', `/campaigns/${undated.id}`)).json()).toEqual({ error: 'ERR_NO_CAMPAIGN_FOUND' });
  });
});

describe('the lane', () => {
  it('sends each recipient once, paced, the messages in turn with the contact variables; blocked never receive', async () => {
    const dto = await createCampaign({ message3: 'Terceira para {{ NAME }} {{desconhecida}}' });
    await call(
      'POST',
      `/campaigns/contacts/${dto.id}/`,
      contactIds.map((id) => ({ id })),
    );
    await t.database.executeSql('update contacts set blocked = true where id = $1', [contactIds[2]]);
    try {
      await call('POST', `/campaigns/start/${dto.id}/`);
      // Not before its start: the begin job waits, the lane sends nothing.
      expect(await run('campaigns.begin')).toBe(0);
      await due(dto.id);
      expect(await run('campaigns.begin')).toBe(1);
      expect((await call('GET', `/campaigns/${dto.id}`)).json()).toMatchObject({ status: 'processing' });

      // One tick sends one recipient, and the next tick waits the campaign's delay.
      expect(await run('campaigns.lane')).toBe(1);
      const [next] = await queryRows<{ wait: number }>(
        t.platform.db,
        sql`select extract(epoch from start_after - created_on)::float8 as wait from pgboss.job
            where name = 'campaigns.lane' and state = 'created'`,
      );
      expect(next!.wait).toBeGreaterThan(6);
      expect(next!.wait).toBeLessThan(9);
      // A tick run before the delay ends sends nothing (a node whose clock runs ahead).
      await t.database.executeSql(
        `update pgboss.job set start_after = now() - interval '1 second' where name = 'campaigns.lane'`,
      );
      expect(await run('campaigns.lane')).toBe(1);
      await run('messages.send');
      expect(adapter.sent).toHaveLength(1);

      for (let i = 0; i < 6; i += 1) await step();
      expect(adapter.sent.map((m) => m.body)).toEqual([
        'Olá Maria, número 5511999000000',
        'Oi João Souza',
        // Ana is blocked: skipped, and the turn moves on.
        'Olá Pedro, número 5511999000003',
      ]);
      const listed = await recipients(dto.id);
      expect(listed.map((r) => r.campaignContacts[0]!.state)).toEqual(['sent', 'sent', 'failed', 'sent']);
      expect(listed[2]!.campaignContacts[0]).toMatchObject({ reason: 'ERR_CONTACT_BLOCKED', messageId: null });
      expect(listed.map((r) => r.campaignContacts[0]!.messageRandom)).toEqual([1, 2, null, 1]);
      const campaign = (await call('GET', `/campaigns/${dto.id}`)).json<CampaignDto>();
      expect(campaign).toMatchObject({
        status: 'finished',
        contactsCount: 4,
        pendentesEnvio: 0,
        pendentesEntrega: 3,
        skipped: 1,
      });
      // The lane stopped: nothing queued, nothing more sent.
      expect(await step()).toBe(0);
      expect(adapter.sent).toHaveLength(3);

      // The tickets hold the messages; without an open conversation they are closed (not in the agents' queues).
      const tickets = await queryRows<{ status: string; n: number }>(
        t.platform.db,
        sql`select t.status, count(*)::int as n from campaign_contacts cc join tickets t on t.id = cc.ticket_id
            where cc.campaign_id = ${dto.id} group by t.status`,
      );
      expect(tickets).toEqual([{ status: 'closed', n: 3 }]);

      // Acks move each recipient (the message's ack is its state).
      const messageIds = listed.map((r) => r.campaignContacts[0]!.messageId).filter((id) => id !== null);
      await t.database.executeSql('update messages set ack = 2 where id = $1', [messageIds[0]]);
      await t.database.executeSql('update messages set ack = 3 where id = $1', [messageIds[1]]);
      const after = (await call('GET', `/campaigns/${dto.id}`)).json<CampaignDto>();
      expect(after).toMatchObject({ pendentesEntrega: 1, recebidas: 2, lidas: 1 });
      expect((await recipients(dto.id)).map((r) => r.campaignContacts[0]!.state)).toEqual([
        'delivered',
        'read',
        'failed',
        'sent',
      ]);
    } finally {
      await t.database.executeSql('update contacts set blocked = false where id = $1', [contactIds[2]]);
    }
  });

  it('sends into the contact’s open conversation when there is one', async () => {
    const [open] = await queryRows<{ id: number }>(
      t.platform.db,
      sql`insert into tickets (tenant_id, contact_id, channel_id, channel, status, protocol)
          values (1, ${contactIds[3]}, ${channelId}, 'telegram', 'open', 'open-1') returning id`,
    );
    const ticketId = open!.id;
    const dto = await createCampaign();
    await call('POST', `/campaigns/contacts/${dto.id}/`, [{ id: contactIds[3] }]);
    await call('POST', `/campaigns/start/${dto.id}/`);
    await due(dto.id);
    await run('campaigns.begin');
    await step();
    expect((await recipients(dto.id))[0]!.campaignContacts[0]).toMatchObject({ ticketId, state: 'sent' });
    await t.database.executeSql(`update tickets set status = 'closed' where id = $1`, [ticketId]);
  });

  it('cancel stops before the next send; a new start resumes at the next recipient; nobody receives twice', async () => {
    const dto = await createCampaign();
    await call(
      'POST',
      `/campaigns/contacts/${dto.id}/`,
      contactIds.map((id) => ({ id })),
    );
    await call('POST', `/campaigns/start/${dto.id}/`);
    await due(dto.id);
    await run('campaigns.begin');
    await step();
    await step();
    expect(adapter.sent).toHaveLength(2);
    expect((await call('POST', `/campaigns/cancel/${dto.id}/`)).json()).toMatchObject({
      status: 'canceled',
      pendentesEnvio: 2,
    });
    await step();
    expect(adapter.sent).toHaveLength(2);

    await call('PUT', `/campaigns/${dto.id}`, form());
    expect((await call('POST', `/campaigns/start/${dto.id}/`)).json()).toMatchObject({ status: 'scheduled' });
    await due(dto.id);
    await run('campaigns.begin');
    for (let i = 0; i < 4; i += 1) await step();
    expect(adapter.sent).toHaveLength(4);
    const messages = await queryRows<{ contact_id: number; n: number }>(
      t.platform.db,
      sql`select m.contact_id, count(*)::int as n from campaign_contacts cc join messages m on m.id = cc.message_id
          where cc.campaign_id = ${dto.id} group by m.contact_id order by m.contact_id`,
    );
    expect(messages).toEqual(contactIds.map((id) => ({ contact_id: id, n: 1 })));
    expect((await call('GET', `/campaigns/${dto.id}`)).json()).toMatchObject({ status: 'finished' });
  });

  it('a stale tick (an older lane number) sends nothing', async () => {
    const dto = await createCampaign();
    await call('POST', `/campaigns/contacts/${dto.id}/`, [{ id: contactIds[0] }]);
    await call('POST', `/campaigns/start/${dto.id}/`);
    await due(dto.id);
    await run('campaigns.begin');
    const [lane] = await queryRows<{ seq: number }>(
      t.platform.db,
      sql`select seq::int as seq from outbound_lanes where channel_id = ${channelId}`,
    );
    // The lane's own tick waits; a duplicate of an older tick comes due first, with the lane's time already come.
    await t.database.executeSql(
      `update pgboss.job set start_after = now() + interval '1 hour' where name = 'campaigns.lane' and state = 'created'`,
    );
    await t.database.executeSql(`update outbound_lanes set next_at = now() - interval '1 second'`);
    await t.jobs.enqueue(jobOf(t, 'campaigns.lane'), { tenantId: 1, channelId, seq: lane!.seq - 1 });
    await t.database.executeSql(
      `update pgboss.job set start_after = now() - interval '1 second'
        where name = 'campaigns.lane' and state = 'created' and (data->>'seq')::int = $1`,
      [lane!.seq - 1],
    );
    expect(await run('campaigns.lane')).toBe(1);
    await run('messages.send');
    expect(adapter.sent).toHaveLength(0);
    // The lane's own tick sends.
    await step();
    expect(adapter.sent).toHaveLength(1);
    await step();
  });

  it('duplicates a campaign as a pending copy with the same contacts, none sent', async () => {
    const dto = await createCampaign();
    await call('POST', `/campaigns/contacts/${dto.id}/`, [{ id: contactIds[0] }, { id: contactIds[1] }]);
    const res = await call('POST', `/campaigns/${dto.id}/duplicate`);
    expect(res.statusCode).toBe(200);
    const copy = res.json<{ status: string; data: CampaignDto }>();
    expect(copy).toMatchObject({ status: 'success', data: { status: 'pending', start: null, contactsCount: 2 } });
    expect(copy.data.id).not.toBe(dto.id);
  });
});

describe('tenant isolation of /campaigns', () => {
  it('answers 404 ERR_NO_CAMPAIGN_FOUND for another tenant’s campaign on every route and changes nothing', async () => {
    const dto = await createCampaign();
    await call('POST', `/campaigns/contacts/${dto.id}/`, [{ id: contactIds[0] }]);
    const other = await t.createStaff(await t.createTenant());
    const intruder = other.supervisor;
    const id = dto.id;
    for (const [method, path, body] of [
      ['GET', `/campaigns/${id}`, undefined],
      ['PUT', `/campaigns/${id}`, form()],
      ['DELETE', `/campaigns/${id}`, undefined],
      ['POST', `/campaigns/start/${id}/`, {}],
      ['POST', `/campaigns/cancel/${id}/`, {}],
      ['POST', `/campaigns/${id}/duplicate`, {}],
      ['GET', `/campaigns/contacts/${id}/`, undefined],
      ['POST', `/campaigns/contacts/${id}/`, [{ id: contactIds[1] }]],
      ['POST', `/campaigns/${id}/contacts/tags`, { tagIds: [1] }],
      ['DELETE', `/campaigns/contacts/${id}/${contactIds[0]}/`, undefined],
      ['DELETE', `/campaigns/deleteall/contacts/${id}/`, undefined],
    ] as const) {
      const res = await call(method, path, body, intruder);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json()).toEqual({ error: 'ERR_NO_CAMPAIGN_FOUND' });
    }
    expect((await call('GET', '/campaigns/', undefined, intruder)).json()).toEqual([]);
    // Its own campaign cannot take this tenant's contacts or channel.
    const channel = await makeChannel(t, intruder.tenantId);
    const own = await call('POST', '/campaigns/', form({ sessionId: channel }), intruder);
    expect(own.statusCode, own.body).toBe(200);
    const ownId = own.json<CampaignDto>().id;
    expect((await call('POST', `/campaigns/contacts/${ownId}/`, [{ id: contactIds[0] }], intruder)).json()).toEqual({
      added: 0,
    });
    expect((await call('POST', '/campaigns/', form(), intruder)).json()).toEqual({ error: 'ERR_NO_WAPP_FOUND' });
    expect((await call('GET', `/campaigns/${id}`)).json()).toMatchObject({ contactsCount: 1, status: 'pending' });
  });
});

describe('chooseMessage', () => {
  const campaign = { message1: 'a', message2: '', message3: 'c', messageOrder: 'rotate' as const };
  it('takes the non-empty messages in turn, or at random', () => {
    expect([0, 1, 2, 3].map((n) => chooseMessage(campaign, n)?.n)).toEqual([1, 3, 1, 3]);
    const random = { ...campaign, messageOrder: 'random' as const };
    expect(chooseMessage(random, 0, () => 0.99)?.n).toBe(3);
    expect(chooseMessage(random, 0, () => 0)?.n).toBe(1);
    expect(chooseMessage({ ...campaign, message1: null, message3: ' ' }, 0)).toBeNull();
  });
});
