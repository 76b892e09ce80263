/**
 * What customers do with a campaign's message (campaigns.ingestion.ts): an answer opens a ticket in the campaign's
 * queue that names the campaign (once per send, within CAMPAIGN_ANSWER_DAYS, on the channel it went out on); a stop
 * word opts the contact out of every later campaign, with the tenant's own words when it sets them.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CampaignDto, CampaignRecipientDto, TicketDto } from '@conversa/shared';
import { queryRows } from '../../platform/db/client.js';
import { systemContext, withTenant } from '../../platform/db/tenancy.js';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import { jobOf, lookupOf, TestAdapter, textEvent } from '../../test/messages-kit.js';
import { makeChannel, makeContact, makeQueue } from '../../test/ticket-fixtures.js';
import { loadChannelCredentials, type ChannelCredentials } from '../channels/index.js';
import { createIngestion, type Ingestion } from '../inbox/index.js';
import { createMediaLinks, messagesMediaStore } from '../messages/index.js';
import { createCampaignIngestionHook } from './campaigns.ingestion.js';

let t: TestApp;
let adapter: TestAdapter;
let admin: TestUser;
let supervisor: TestUser;
let ingestion: Ingestion;
let channel: ChannelCredentials;
let otherChannel: ChannelCredentials;
let queueId: number;
const contactIds: number[] = [];
const chatOf = (i: number) => `70${i}`;

const call = (method: 'GET' | 'POST' | 'PUT', path: string, body?: object, user = supervisor) =>
  t.call(user, method, path, body);
const run = (name: string) => t.jobs.runPending(jobOf(t, name));
const credentials = (id: number) =>
  withTenant(t.platform.db, systemContext(1), async (tx) => (await loadChannelCredentials(tx, id))!);

/** A campaign on the channel to these contacts, started and sent to every one of them. */
async function sentCampaign(name: string, recipients: number[], extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/campaigns/', {
    name,
    start: '2099-12-01 09:00',
    sessionId: channel.id,
    delay: 1,
    message1: 'Olá {{firstName}}',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  const dto = res.json<CampaignDto>();
  await call(
    'POST',
    `/campaigns/contacts/${dto.id}/`,
    recipients.map((id) => ({ id })),
  );
  expect((await call('POST', `/campaigns/start/${dto.id}/`)).statusCode).toBe(200);
  await t.database.executeSql(`update campaigns set start_at = now() - interval '1 second' where id = $1`, [dto.id]);
  await t.database.executeSql(
    `update pgboss.job set start_after = now() - interval '1 second' where name = 'campaigns.begin' and state = 'created'`,
  );
  await run('campaigns.begin');
  for (let i = 0; i <= recipients.length; i += 1) {
    await t.database.executeSql(
      `update pgboss.job set start_after = now() - interval '1 second' where name = 'campaigns.lane' and state = 'created'`,
    );
    await t.database.executeSql(`update outbound_lanes set next_at = now() - interval '1 second'`);
    await run('campaigns.lane');
    await run('messages.send');
  }
  return dto;
}

async function recipients(id: number) {
  return (await call('GET', `/campaigns/contacts/${id}/`)).json<CampaignRecipientDto[]>();
}

/** The contact's active ticket on the channel, as the API answers it. */
async function activeTicket(contactId: number, channelId = channel.id): Promise<TicketDto | null> {
  const [row] = await queryRows<{ id: number }>(
    t.platform.db,
    sql`select id from tickets where contact_id = ${contactId} and channel_id = ${channelId} and status <> 'closed'`,
  );
  return row ? (await call('GET', `/tickets/${row.id}`, undefined, admin)).json<TicketDto>() : null;
}

const closeTickets = () => t.database.executeSql(`update tickets set status = 'closed' where status <> 'closed'`);
const optedOut = async (contactId: number) =>
  (
    await queryRows<{ at: Date | null }>(
      t.platform.db,
      sql`select campaign_opt_out_at as at from contacts where id = ${contactId}`,
    )
  )[0]!.at !== null;

beforeAll(async () => {
  adapter = new TestAdapter();
  t = await createTestApp({}, { adapters: lookupOf(adapter) });
  ({ admin, supervisor } = await t.createStaff());
  channel = await credentials(await makeChannel(t, 1, { name: 'Principal' }));
  otherChannel = await credentials(await makeChannel(t, 1, { name: 'Outro' }));
  queueId = await makeQueue(t, 1, 'Vendas');
  for (let i = 0; i < 6; i += 1) {
    contactIds.push(await makeContact(t, 1, { name: `Cliente ${i}`, telegramId: chatOf(i) }));
  }
  const { db, events } = t.platform;
  ingestion = createIngestion({
    db,
    jobs: t.jobs,
    events,
    links: createMediaLinks(t.platform.secrets.jwtSecret, t.platform.config.publicUrl),
    store: messagesMediaStore(t.platform),
    campaigns: createCampaignIngestionHook({ events }),
    // One lane: messages arriving while one is stored wait and go together in a batch.
    lanesPerChannel: 1,
  });
});
afterAll(() => t.close());

describe('answers to a campaign', () => {
  it('open a ticket in the campaign’s queue that names it, once per send, on its channel, within the window', async () => {
    const campaign = await sentCampaign('Black Friday', contactIds.slice(0, 4), { queueId });
    expect(adapter.sent).toHaveLength(4);

    await ingestion.ingest(channel, [textEvent(chatOf(0), 'Quero saber mais')]);
    const answer = await activeTicket(contactIds[0]!);
    expect(answer).toMatchObject({
      status: 'pending',
      queueId,
      campaign: { id: campaign.id, name: 'Black Friday' },
    });
    // Several customers writing at once: the first message goes alone, the others in one batch; each answer's ticket
    // is the campaign's, and a contact the campaign never reached gets an ordinary one.
    const batches = ingestion.stats().batches;
    await Promise.all(
      [textEvent(chatOf(5), 'Olá'), textEvent(chatOf(1), 'Oi'), textEvent(chatOf(2), 'Tenho interesse')].map((e) =>
        ingestion.ingest(channel, [e]),
      ),
    );
    expect(ingestion.stats().batches).toBe(batches + 1);
    expect(await activeTicket(contactIds[5]!)).toMatchObject({ campaign: null, queueId: null });
    for (const i of [1, 2]) {
      expect(await activeTicket(contactIds[i]!), `contact ${i}`).toMatchObject({
        queueId,
        campaign: { id: campaign.id },
      });
    }
    const answered = await queryRows<{ contact_id: number }>(
      t.platform.db,
      sql`select contact_id from campaign_contacts where campaign_id = ${campaign.id} and answered_at is not null
          order by contact_id`,
    );
    expect(answered.map((r) => r.contact_id)).toEqual(contactIds.slice(0, 3));

    // A send answered already opens no second campaign ticket; another channel's conversation is not its answer;
    // a send older than the window is not answered by a new conversation.
    await closeTickets();
    await ingestion.ingest(channel, [textEvent(chatOf(0), 'Voltei')]);
    expect(await activeTicket(contactIds[0]!)).toMatchObject({ campaign: null });
    await ingestion.ingest(otherChannel, [textEvent(chatOf(3), 'Oi pelo outro canal')]);
    expect(await activeTicket(contactIds[3]!, otherChannel.id)).toMatchObject({ campaign: null });
    await t.database.executeSql(
      `update campaign_contacts set sent_at = now() - interval '8 days' where campaign_id = $1 and contact_id = $2`,
      [campaign.id, contactIds[3]],
    );
    await ingestion.ingest(channel, [textEvent(chatOf(3), 'Oi, demorei')]);
    expect(await activeTicket(contactIds[3]!)).toMatchObject({ campaign: null, queueId: null });
    await closeTickets();
  });
});

describe('the stop word', () => {
  it('opts the contact out when it is the whole message; later campaigns skip them', async () => {
    await ingestion.ingest(channel, [textEvent(chatOf(1), 'Quero sair da lista depois')]);
    expect(await optedOut(contactIds[1]!)).toBe(false);
    await ingestion.ingest(channel, [textEvent(chatOf(1), '  Sair! ')]);
    expect(await optedOut(contactIds[1]!)).toBe(true);
    await ingestion.ingest(channel, [textEvent(chatOf(2), 'stop'), textEvent(chatOf(4), 'STOPPED')]);
    expect(await optedOut(contactIds[2]!)).toBe(true);
    expect(await optedOut(contactIds[4]!)).toBe(false);
    await closeTickets();

    adapter.sent.length = 0;
    const campaign = await sentCampaign('Depois', [contactIds[1]!, contactIds[4]!]);
    expect(adapter.sent).toHaveLength(1);
    const listed = await recipients(campaign.id);
    expect(listed.map((r) => r.campaignContacts[0]).map((c) => [c!.state, c!.reason])).toEqual([
      ['failed', 'ERR_CONTACT_OPTED_OUT'],
      ['sent', null],
    ]);
    expect((await call('GET', `/campaigns/${campaign.id}`)).json()).toMatchObject({ skipped: 1 });
    await closeTickets();
  });

  it('takes the tenant’s own words at once, and none when it empties them', async () => {
    const put = (value: string) =>
      call('PUT', '/settings/campaignStopWords', { key: 'campaignStopWords', value }, admin);
    expect((await put('Parar, CANCELAR')).statusCode).toBe(200);
    await ingestion.ingest(channel, [textEvent(chatOf(4), 'sair')]);
    expect(await optedOut(contactIds[4]!)).toBe(false);
    await ingestion.ingest(channel, [textEvent(chatOf(4), 'cancelar')]);
    expect(await optedOut(contactIds[4]!)).toBe(true);
    expect((await put('')).statusCode).toBe(200);
    await ingestion.ingest(channel, [textEvent(chatOf(3), 'parar')]);
    expect(await optedOut(contactIds[3]!)).toBe(false);
    await closeTickets();
  });
});
