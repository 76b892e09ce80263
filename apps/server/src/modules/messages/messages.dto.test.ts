/**
 * The message and ticket shapes clients read unguarded: media links are absolute (client-contract §20.3) in the
 * history, its quotes and the events; embedded contacts carry the identity fields of a `/contacts` row (§20.4); every
 * chat event (create, ack, update, delete) carries its whole ticket.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessageDto, MessageListResponse, TicketListResponse } from '@conversa/shared';
import { createTestApp, type TestApp, type TestUser } from '../../test/harness.js';
import type { ChannelCredentials } from '../channels/index.js';
import type { Ingestion } from '../inbox/index.js';
import {
  createTelegramChannel,
  ingestionFor,
  lookupOf,
  mediaJob,
  person,
  recordEvents,
  sendJob,
  settle,
  TestAdapter,
  textEvent,
} from '../../test/messages-kit.js';

let t: TestApp;
let tenant: number;
let agent: TestUser;
let channel: ChannelCredentials;
let ingestion: Ingestion;
let publicUrl: string;
const adapter = new TestAdapter();

beforeAll(async () => {
  t = await createTestApp({}, { adapters: lookupOf(adapter) });
  tenant = await t.createTenant();
  ({ agent } = await t.createStaff(tenant));
  // These tests read pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
  channel = await createTelegramChannel(t, tenant, { name: 'Bot DTO' });
  ingestion = ingestionFor(t);
  publicUrl = t.platform.config.publicUrl;
});
afterAll(async () => t.close());

const absoluteMedia = (url: string | null | undefined) => {
  expect(url?.startsWith(`${publicUrl}/api/media/`), String(url)).toBe(true);
};

const history = async (ticketId: number) =>
  (await t.call(agent, 'GET', `/messages/${ticketId}`)).json<MessageListResponse>().messages;

describe('message DTOs', () => {
  it('media links are absolute in the history and in a quote of the media', async () => {
    adapter.files.set('dto-photo', { data: Buffer.from('JPEG'), mime: 'image/jpeg', name: 'p.jpg' });
    const photo = textEvent('6101', '', {
      mediaType: 'image',
      media: { ref: 'dto-photo', mime: 'image/jpeg', name: 'p.jpg', size: 4 },
    });
    await ingestion.ingest(channel, [photo]);
    await t.jobs.runPending(mediaJob(t));
    const reply = textEvent('6101', 'sobre a foto', { quotedProviderMessageId: photo.providerMessageId });
    await ingestion.ingest(channel, [reply]);
    const first = (await t.call(agent, 'GET', '/tickets?showAll=true')).json<TicketListResponse>().tickets;
    const ticketId = first.find((row) => row.contact.telegramId === '6101')!.id;
    const [stored, quoting] = await history(ticketId);
    absoluteMedia(stored!.mediaUrl);
    expect(quoting!.quotedMsg?.id).toBe(stored!.id);
    absoluteMedia(quoting!.quotedMsg?.mediaUrl);
    // The link opens the media (the route reads only the path).
    const res = await t.app.inject({ method: 'GET', url: new URL(stored!.mediaUrl!).pathname });
    expect(res.body).toBe('JPEG');
  });

  it('a group message’s sender and a ticket row’s contact carry the identity fields of /contacts', async () => {
    const group = textEvent('-1006102', 'oi grupo', {
      party: {
        ...person('-1006102', 'Grupo'),
        isGroup: true,
        participant: { id: '6103', name: 'Membro', number: null, idField: 'telegramId' },
      },
    });
    await ingestion.ingest(channel, [group]);
    const rows = (await t.call(agent, 'GET', '/tickets?showAll=true')).json<TicketListResponse>().tickets;
    const row = rows.find((r) => r.contact.telegramId === '-1006102')!;
    const identity = { messengerId: null, instagramPK: null, number: null, email: '', pushname: null, blocked: false };
    expect(row.contact).toMatchObject({ ...identity, name: 'Grupo', isGroup: true, chatbotBlocked: false });
    const [message] = await history(row.id);
    expect(message!.contact).toMatchObject({ ...identity, name: 'Membro', telegramId: '6103', isGroup: false });
  });

  it('chat:create, chat:ack, chat:update and chat:delete carry the whole ticket', async () => {
    await ingestion.ingest(channel, [textEvent('6104', 'olá')]);
    const rows = (await t.call(agent, 'GET', '/tickets?showAll=true')).json<TicketListResponse>().tickets;
    const ticketId = rows.find((r) => r.contact.telegramId === '6104')!.id;
    const recorded = recordEvents(t);
    const sent = (await t.call(agent, 'POST', `/messages/${ticketId}`, { body: 'resposta' })).json<MessageDto>();
    await t.jobs.runPending(sendJob(t));
    await t.call(agent, 'PATCH', `/messages/${sent.id}`, { body: 'resposta editada' });
    await t.call(agent, 'DELETE', '/messages', { id: sent.id });
    await settle();
    const types = recorded.messages.filter((e) => e.message.id === sent.id).map((e) => e.type);
    expect(types).toEqual(['chat:create', 'chat:ack', 'chat:update', 'chat:delete']);
    for (const { message } of recorded.messages.filter((e) => e.message.id === sent.id)) {
      expect(message.ticket).toMatchObject({
        id: ticketId,
        whatsappId: channel.id,
        whatsapp: { name: 'Bot DTO' },
        channel: 'telegram',
        contact: { telegramId: '6104', name: 'Cliente' },
      });
    }
    // The HTTP answer keeps the history's summary (the response schema).
    expect(Object.keys(sent.ticket).sort()).toEqual(
      ['answered', 'createdAt', 'id', 'status', 'unreadMessages', 'userId'].sort(),
    );
  });
});
