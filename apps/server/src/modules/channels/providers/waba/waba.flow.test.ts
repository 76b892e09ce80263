/**
 * The Cloud API through real HTTP on both sides: the Graph simulator signs and posts webhooks to our listening
 * server, which stores them (ticket, message, media downloaded through Graph's media endpoint); the agent replies and
 * the send job reaches the simulator with the Cloud API body; statuses arriving out of order only move the ack
 * forward and keep Meta's pricing; a failed status marks the message undelivered with its reason, which no later
 * ack clears; a reaction and an edit of the customer land on their message.
 */
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto, MessageDto, MessageListResponse, TicketDto, TicketListResponse } from '@conversa/shared';
import { systemContext, withTenant } from '../../../../platform/db/tenancy.js';
import type { JobDefinition } from '../../../../platform/jobs/queue.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { messages } from '../../../messages/messages.tables.js';
import { deliverWabaWebhook, startWabaSimulator, wabaWebhook, type WabaSimulator } from './waba.simulator.js';

const PHONE = '1100001';
const TOKEN = 'EAAG-flow-token';
const APP_SECRET = 'flow-channel-app-secret';
const CUSTOMER = '5511987654321';

let t: TestApp;
let sim: WabaSimulator;
let admin: TestUser;
let agent: TestUser;
let channel: ChannelDto;
let baseUrl: string;
let ticket: TicketDto;

/**
 * A fixture payload whose customer messages were written a minute ago (the fixtures' own times are days old, which
 * would leave the 24-hour window closed).
 */
const fixture = (name: string): Record<string, unknown> => {
  const payload = JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as {
    entry?: { changes?: { value?: { messages?: { timestamp?: string }[] } }[] }[];
  };
  const recent = String(Math.floor(Date.now() / 1000) - 60);
  for (const entry of payload.entry ?? [])
    for (const change of entry.changes ?? [])
      for (const message of change.value?.messages ?? []) message.timestamp = recent;
  return payload as Record<string, unknown>;
};
const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;
const deliver = async (payload: object) => {
  const response = await deliverWabaWebhook(`${baseUrl}/api/webhooks/waba/${channel.id}`, payload, APP_SECRET);
  expect(response.status, await response.clone().text()).toBe(200);
  return response;
};
const statuses = (...list: Record<string, unknown>[]) => wabaWebhook(PHONE, { statuses: list });
/** The ticket's messages, with the sends still waiting or given up on (`messagesOffLine`). */
const history = async () => {
  const page = (await t.call(agent, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>();
  return [...page.messages, ...page.messagesOffLine];
};
const row = (providerId: string) =>
  withTenant(t.platform.db, systemContext(1), async (tx) => {
    const [found] = await tx.select().from(messages).where(eq(messages.messageId, providerId));
    return found!;
  });

/** The agent's text through our chat input, sent by the job; answers its stored DTO (with the wamid). */
async function reply(body: string, idFront: string): Promise<MessageDto> {
  const sent = await t.call(agent, 'POST', `/messages/${ticket.id}`, { body, idFront });
  expect(sent.statusCode, sent.body).toBe(200);
  await t.jobs.runPending(job('messages.send'));
  return (await history()).find((m) => m.body === body)!;
}

beforeAll(async () => {
  sim = await startWabaSimulator();
  sim.phones.set(PHONE, {
    token: TOKEN,
    displayPhoneNumber: '+55 11 3000-0001',
    verifiedName: 'Loja',
    businessAccountId: '2200001',
  });
  t = await createTestApp({ META_GRAPH_URL: sim.url, PUBLIC_URL: 'https://conversa.example' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  ({ admin, agent } = await t.createStaff());
  // These tests read pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
  const created = await t.call(admin, 'POST', '/whatsapp', {
    name: 'Loja oficial',
    type: 'waba',
    tokenAPI: TOKEN,
    wabaId: PHONE,
    bmToken: '2200001',
    metaAppSecret: APP_SECRET,
  });
  channel = created.json<ChannelDto>();
  expect((await t.call(admin, 'POST', `/whatsappsession/${channel.id}`)).statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('Cloud API webhook -> ticket -> reply -> statuses', () => {
  it('a signed webhook over HTTP makes a pending ticket of the customer, keyed by number, once on a replay', async () => {
    await deliver(fixture('text'));
    await deliver(fixture('text'));
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets).toHaveLength(1);
    ticket = (await t.call(agent, 'GET', `/tickets/${list.tickets[0]!.id}`)).json<TicketDto>();
    expect(ticket.contact).toMatchObject({ number: CUSTOMER, name: 'Maria Souza' });
    expect((await history()).map((m) => m.body)).toEqual(['Olá, preciso de ajuda com meu pedido']);
  });

  it('downloads an image through GET /{media-id} and its bearer URL and serves it signed', async () => {
    sim.media.set('3300000001', { data: Buffer.from('JPEGDATA'), mime: 'image/jpeg', name: null, phoneNumberId: null });
    await deliver(fixture('image'));
    expect(await t.jobs.runPending(job('messages.download-media'))).toBe(1);
    const photo = (await history()).find((m) => m.mediaType === 'image')!;
    expect(photo).toMatchObject({ body: 'a nota fiscal', mediaStatus: 'ready' });
    const media = await t.app.inject({ method: 'GET', url: photo.mediaUrl! });
    expect([media.statusCode, media.body]).toEqual([200, 'JPEGDATA']);
    expect(sim.requests.some((r) => r.path === '/lookaside/3300000001' && r.token === TOKEN)).toBe(true);
  });

  it('the agent’s reply reaches the simulator as a Cloud API text to the customer’s number', async () => {
    await t.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: agent.id });
    const sent = await reply('Oi, Maria!', 'front-1');
    expect(sim.sends.at(-1)!.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: CUSTOMER,
      type: 'text',
      text: { body: 'Oi, Maria!', preview_url: false },
    });
    expect(sent).toMatchObject({ fromMe: true, ack: 1, status: 'sended' });
    expect((await row(sim.sends.at(-1)!.id)).body).toBe('Oi, Maria!');
  });

  it('statuses out of order move the ack only forward and keep the pricing', async () => {
    const wamid = sim.sends.at(-1)!.id;
    const at = (status: string, seconds: number, extra: object = {}) => ({
      id: wamid,
      status,
      timestamp: String(1_763_700_000 + seconds),
      recipient_id: CUSTOMER,
      ...extra,
    });
    await deliver(statuses(at('delivered', 2)));
    await deliver(
      statuses(at('sent', 1, { conversation: { id: 'conv-77' }, pricing: { billable: true, category: 'service' } })),
    );
    let stored = await row(wamid);
    expect(stored).toMatchObject({ ack: 2, pricingCategory: 'service', conversationId: 'conv-77' });
    await deliver(statuses(at('read', 3)));
    await deliver(statuses(at('delivered', 2)));
    stored = await row(wamid);
    expect(stored.ack).toBe(3);
    expect((await history()).find((m) => m.body === 'Oi, Maria!')).toMatchObject({ ack: 3 });
  });

  it('a failed status marks the message undelivered with "<code>: <title>"; a later ack does not clear it', async () => {
    await reply('Segue o boleto', 'front-2');
    const wamid = sim.sends.at(-1)!.id;
    const failed = fixture('failed') as { entry: { changes: { value: { statuses: { id: string }[] } }[] }[] };
    failed.entry[0]!.changes[0]!.value.statuses[0]!.id = wamid;
    await deliver(failed);
    const shown = () => history().then((list) => list.find((m) => m.body === 'Segue o boleto')!);
    expect(await shown()).toMatchObject({ isDelayed: true, sendError: '131047: Re-engagement message' });
    await deliver(statuses({ id: wamid, status: 'delivered', timestamp: '1763700100', recipient_id: CUSTOMER }));
    expect(await shown()).toMatchObject({ isDelayed: true, sendError: '131047: Re-engagement message' });
  });

  it('Graph refusing the send itself (131047) marks it undelivered with Graph’s reason, without retries', async () => {
    sim.failNextSend({ status: 400, error: { message: 'Re-engagement message', code: 131047 } });
    const before = sim.sends.length;
    await t.call(agent, 'POST', `/messages/${ticket.id}`, { body: 'Depois de 24h', idFront: 'front-3' });
    await t.jobs.runPending(job('messages.send'));
    const shown = (await history()).find((m) => m.body === 'Depois de 24h');
    expect(shown).toMatchObject({ isDelayed: true, sendError: expect.stringContaining('131047') });
    expect(sim.sends.length).toBe(before);
  });

  it('the customer’s reaction and edit land on their messages', async () => {
    const sentId = sim.sends[0]!.id;
    const reaction = fixture('reaction') as { entry: { changes: { value: { messages: { reaction: object }[] } }[] }[] };
    reaction.entry[0]!.changes[0]!.value.messages[0]!.reaction = { message_id: sentId, emoji: '👍' };
    await deliver(reaction);
    await deliver(fixture('edit'));
    const list = await history();
    expect(list.find((m) => m.body === 'Oi, Maria!')).toMatchObject({ reaction: '👍' });
    expect(list.find((m) => m.body === 'Olá, preciso de ajuda com meu pedido')).toMatchObject({
      edition: 'Olá, preciso de ajuda com meu pedido 123',
    });
  });

  it('the customer writing from the 12-digit form is the same contact and ticket; replies go to the stored form', async () => {
    const payload = fixture('text') as {
      entry: { changes: { value: { contacts: { wa_id: string }[]; messages: Record<string, unknown>[] } }[] }[];
    };
    const value = payload.entry[0]!.changes[0]!.value;
    value.contacts[0]!.wa_id = '551187654321';
    Object.assign(value.messages[0]!, {
      from: '551187654321',
      id: 'wamid.twelve-digit-form',
      text: { body: 'sem o 9' },
    });
    await deliver(payload);
    expect((await row('wamid.twelve-digit-form')).ticketId).toBe(ticket.id);
    const same = (await t.call(agent, 'GET', `/tickets/${ticket.id}`)).json<TicketDto>();
    expect(same.contact).toMatchObject({ id: ticket.contact.id, number: CUSTOMER });
    await reply('Recebido!', 'front-ninth');
    expect(sim.sends.at(-1)!.body).toMatchObject({ to: CUSTOMER, text: { body: 'Recebido!' } });
  });

  it('a group message (group_id) goes to the group contact and ticket, not to the sender’s own ticket', async () => {
    const before = (await history()).length;
    await deliver(fixture('group-text'));
    const stored = await row('wamid.HBgNNTUxMTk4NzY1NDMyMRUCABIYFkdST1VQMDAwMDAwMDAwMDAwMDAwMQA=');
    expect(stored.ticketId).not.toBe(ticket.id);
    const group = (await t.call(admin, 'GET', `/tickets/${stored.ticketId}`)).json<TicketDto>();
    expect(group).toMatchObject({ isGroup: true });
    expect(group.contact).toMatchObject({ isGroup: true, number: 'Y2FwaV9ncm91cDoxMjAzNjMwMjA5ODc2NTQzMjE=' });
    // The sender is the participant: Maria's contact, whose one-to-one ticket got nothing.
    expect(stored.senderContactId).toBe(ticket.contact.id);
    expect((await history()).length).toBe(before);
    await deliver(fixture('group-text'));
    const again = (await t.call(admin, 'GET', `/tickets/${stored.ticketId}`)).json<TicketDto>();
    expect(again.unreadMessages).toBe(group.unreadMessages);
    // A reply to the group goes to the group id as a group recipient (Groups API), not as a phone number.
    const accepted = await t.call(admin, 'PUT', `/tickets/${stored.ticketId}`, { status: 'open', userId: admin.id });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const sent = await t.call(admin, 'POST', `/messages/${stored.ticketId}`, { body: 'Oi, grupo!', idFront: 'grp-1' });
    expect(sent.statusCode, sent.body).toBe(200);
    await t.jobs.runPending(job('messages.send'));
    expect(sim.sends.at(-1)!.body).toMatchObject({
      recipient_type: 'group',
      to: 'Y2FwaV9ncm91cDoxMjAzNjMwMjA5ODc2NTQzMjE=',
      text: { body: 'Oi, grupo!' },
    });
  });

  it('a customer known only by a business-scoped user id gets a ticket and the reply goes to that id', async () => {
    await deliver(fixture('bsuid'));
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    const bsuid = list.tickets.find((item) => item.contact.name === 'Anônima')!;
    expect(bsuid.contact).toMatchObject({ number: null });
    await t.call(agent, 'PUT', `/tickets/${bsuid.id}`, { status: 'open', userId: agent.id });
    const sent = await t.call(agent, 'POST', `/messages/${bsuid.id}`, { body: 'Olá!', idFront: 'front-bsuid' });
    expect(sent.statusCode, sent.body).toBe(200);
    await t.jobs.runPending(job('messages.send'));
    expect(sim.sends.at(-1)!.body).toMatchObject({ recipient: 'BR.1502576394655843', text: { body: 'Olá!' } });
  });
});
