/**
 * Messenger end to end through real HTTP on the Graph side: a page connected with /fb/register-pages, a signed
 * webhook on the channel's URL makes a ticket whose contact carries the User Profile name, a photo is downloaded, the
 * agent's reply reaches the Send API simulator with our metadata, its echo is not stored twice, a message written
 * in Meta's inbox is stored fromMe once, deliveries ack our message, and a message after the window closed goes with
 * the HUMAN_AGENT tag.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto, MessageListResponse, TicketDto, TicketListResponse } from '@conversa/shared';
import type { JobDefinition } from '../../../../platform/jobs/queue.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { signMetaBody } from '../../providers/meta/meta.signature.js';
import { startMetaMessagingSimulator, type MetaMessagingSimulator } from './meta-messaging.simulator.js';

const APP_SECRET = 'flow-app-secret';
const PAGE = '1122334455';
const PSID = '7001002003004005';
const PAGE_TOKEN = 'EAAG-flow-page-token';
const USER_TOKEN = 'EAAG-flow-user-token';

let t: TestApp;
let sim: MetaMessagingSimulator;
let admin: TestUser;
let agent: TestUser;
let channel: ChannelDto;
let ticket: TicketDto;

const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;

/** A fixture with its times moved to now (the customer-service window is measured from them). */
function fixture(name: string, at = Date.now()): Record<string, unknown> {
  const text = fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8');
  return JSON.parse(text.replace(/17637000000(\d\d)/g, (_m, d: string) => String(at + Number(d)))) as Record<
    string,
    unknown
  >;
}

const webhook = (payload: object, secret: string | null = APP_SECRET) => {
  const raw = JSON.stringify(payload);
  return t.app.inject({
    method: 'POST',
    url: `/api/webhooks/messenger/${channel.id}`,
    headers: {
      'content-type': 'application/json',
      ...(secret ? { 'x-hub-signature-256': signMetaBody(raw, secret) } : {}),
    },
    payload: raw,
  });
};
const history = async () => (await t.call(agent, 'GET', `/messages/${ticket.id}`)).json<MessageListResponse>().messages;

beforeAll(async () => {
  sim = await startMetaMessagingSimulator();
  sim.pages.set(PAGE_TOKEN, { id: PAGE, name: 'Loja Exemplo', instagram: null });
  sim.users.set(USER_TOKEN, { id: '10220000000000009', pageTokens: [PAGE_TOKEN] });
  sim.profiles.set(PSID, {
    first_name: 'Maria',
    last_name: 'Souza',
    profile_pic: `${'https://pic.example'}/maria.jpg`,
  });
  t = await createTestApp({
    META_GRAPH_URL: sim.url,
    META_APP_SECRET: APP_SECRET,
    PUBLIC_URL: 'https://conversa.example',
  });
  ({ admin, agent } = await t.createStaff());
  // These tests read pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
  channel = (await t.call(admin, 'POST', '/whatsapp', { name: 'Messenger', type: 'messenger' })).json<ChannelDto>();
  const registered = await t.call(admin, 'POST', '/fb/register-pages', {
    whatsapp: channel.id,
    accountId: '10220000000000009',
    userToken: USER_TOKEN,
  });
  expect(registered.statusCode, registered.body).toBe(200);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('Messenger: webhook -> ticket -> reply', () => {
  it('an unsigned or wrongly signed webhook is refused and stores nothing', async () => {
    expect((await webhook(fixture('messenger-text'), null)).statusCode).toBe(401);
    expect((await webhook(fixture('messenger-text'), 'another-app')).statusCode).toBe(401);
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets).toHaveLength(0);
  });

  it("a signed message makes a pending ticket whose contact has the profile's name, once when replayed", async () => {
    const payload = fixture('messenger-text');
    expect((await webhook(payload)).statusCode).toBe(200);
    expect((await webhook(payload)).statusCode).toBe(200);
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets).toHaveLength(1);
    ticket = (await t.call(agent, 'GET', `/tickets/${list.tickets[0]!.id}`)).json<TicketDto>();
    expect(ticket.contact).toMatchObject({ name: 'Maria Souza', messengerId: PSID });
    expect(ticket.customerWindow).toMatchObject({ open: true });
    expect((await history()).map((m) => m.body)).toEqual(['Olá, meu pedido não chegou']);
  });

  it('a photo is downloaded from its attachment URL by the media job', async () => {
    sim.files.set('photo.jpg', { data: Buffer.from('JPEGDATA'), type: 'image/jpeg' });
    const payload = {
      object: 'page',
      entry: [
        {
          id: PAGE,
          messaging: [
            {
              sender: { id: PSID },
              recipient: { id: PAGE },
              timestamp: Date.now(),
              message: {
                mid: 'm_photo_flow',
                attachments: [{ type: 'image', payload: { url: `${sim.url}/cdn/photo.jpg` } }],
              },
            },
          ],
        },
      ],
    };
    expect((await webhook(payload)).statusCode).toBe(200);
    expect(await t.jobs.runPending(job('messages.download-media'))).toBe(1);
    const photo = (await history()).find((m) => m.mediaType === 'image')!;
    expect(photo).toMatchObject({ mediaStatus: 'ready' });
    expect((await t.app.inject({ method: 'GET', url: photo.mediaUrl! })).body).toBe('JPEGDATA');
  });

  it('a sticker with its image twin is one sticker message, unread +1', async () => {
    const before = (await t.call(agent, 'GET', `/tickets/${ticket.id}`)).json<TicketDto>().unreadMessages;
    const count = (await history()).length;
    expect((await webhook(fixture('messenger-sticker-twin'))).statusCode).toBe(200);
    const stored = (await history()).slice(count);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ messageId: 'm_sticker_twin', mediaType: 'sticker', isSticker: true });
    expect((await t.call(agent, 'GET', `/tickets/${ticket.id}`)).json<TicketDto>().unreadMessages).toBe(before + 1);
  });

  it('a message_edit updates the stored text and marks the message edited', async () => {
    expect((await webhook(fixture('messenger-edit'))).statusCode).toBe(200);
    const edited = (await history()).find((m) => m.messageId === 'm_text_1')!;
    expect(edited).toMatchObject({ edition: 'Olá, meu pedido 123 não chegou' });
    expect(edited.editedAt).not.toBeNull();
  });

  it("the agent's reply reaches the Send API with our metadata; its echo is not stored again", async () => {
    await t.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: agent.id });
    const sent = await t.call(agent, 'POST', `/messages/${ticket.id}`, { body: 'Oi, Maria!', idFront: 'flow-1' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await t.jobs.runPending(job('messages.send'))).toBe(1);
    const call = sim.callsTo('POST', new RegExp(`^${PAGE}/messages$`)).at(-1)!;
    expect(call.token).toBe(PAGE_TOKEN);
    expect(call.body).toMatchObject({
      recipient: { id: PSID },
      messaging_type: 'RESPONSE',
      message: { text: 'Oi, Maria!', metadata: expect.stringMatching(/^conversa:/) },
    });
    const mid = (call.answer as { message_id: string }).message_id;
    const mine = (await history()).at(-1)!;
    expect(mine).toMatchObject({ body: 'Oi, Maria!', fromMe: true, ack: 1, status: 'sended' });

    const echo = fixture('messenger-echo-ours');
    const item = (echo.entry as { messaging: { message: Record<string, unknown> }[] }[])[0]!.messaging[0]!;
    Object.assign(item.message, {
      mid,
      metadata: call.body.message && (call.body.message as { metadata: string }).metadata,
    });
    expect((await webhook(echo)).statusCode).toBe(200);
    expect((await history()).filter((m) => m.body === 'Oi, Maria!')).toHaveLength(1);
    // An echo may arrive before the send job stored the answered id: ours by its metadata, it is still not stored.
    item.message.mid = 'm_echo_before_the_send_job_stored_it';
    expect((await webhook(echo)).statusCode).toBe(200);
    expect((await history()).filter((m) => m.body === 'Oi, Maria!')).toHaveLength(1);

    const delivery = fixture('messenger-delivery-read');
    const receipts = (delivery.entry as { messaging: { delivery?: { mids: string[] } }[] }[])[0]!.messaging;
    receipts[0]!.delivery!.mids = [mid];
    // The read receipt (a watermark, no message id) comes later in its own webhook.
    const read = receipts.pop()!;
    expect((await webhook(delivery)).statusCode).toBe(200);
    expect((await history()).find((m) => m.body === 'Oi, Maria!')).toMatchObject({ ack: 2 });

    // Messenger's read names no message: what we sent the customer until the watermark becomes read, nothing after.
    const sentAt = Date.parse((await history()).find((m) => m.body === 'Oi, Maria!')!.createdAt);
    const later = await t.call(agent, 'POST', `/messages/${ticket.id}`, {
      body: 'Mais uma coisa',
      idFront: 'flow-read',
    });
    expect(later.statusCode, later.body).toBe(200);
    expect(await t.jobs.runPending(job('messages.send'))).toBe(1);
    receipts.splice(0, receipts.length, { ...read, read: { watermark: sentAt + 1 } } as (typeof receipts)[number]);
    expect((await webhook(delivery)).statusCode).toBe(200);
    const after = await history();
    expect(after.find((m) => m.body === 'Oi, Maria!')).toMatchObject({ ack: 3 });
    expect(after.find((m) => m.body === 'Mais uma coisa')).toMatchObject({ ack: 1 });
  });

  it("a message written in Meta's inbox is stored fromMe, once", async () => {
    expect((await webhook(fixture('messenger-echo-inbox'))).statusCode).toBe(200);
    expect((await webhook(fixture('messenger-echo-inbox'))).statusCode).toBe(200);
    const inbox = (await history()).filter((m) => m.body === 'Respondido pela caixa de entrada da Meta');
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ fromMe: true });
  });

  it("the app-level URL routes a page entry to this channel by the page id; another page's entry is ignored", async () => {
    const payload = fixture('messenger-text');
    const entries = payload.entry as { id: string; messaging: { message: { mid: string; text: string } }[] }[];
    entries[0]!.messaging[0]!.message = { mid: 'm_app_level', text: 'Pela URL do app' };
    const stranger = { ...structuredClone(entries[0]!), id: '999999999' };
    stranger.messaging[0]!.message.mid = 'm_stranger';
    payload.entry = [entries[0], stranger];
    const raw = JSON.stringify(payload);
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/meta',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(raw, APP_SECRET) },
      payload: raw,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ received: 1, ignored: 1 });
    expect((await history()).at(-1)).toMatchObject({ body: 'Pela URL do app', fromMe: false });
  });

  it('after the window closed the reply goes with MESSAGE_TAG HUMAN_AGENT', async () => {
    await t.database.executeSql(
      `update tickets set last_message_received_at = now() - interval '2 days' where contact_id = ${ticket.contact!.id}`,
    );
    const sent = await t.call(agent, 'POST', `/messages/${ticket.id}`, {
      body: 'Ainda precisa de ajuda?',
      idFront: 'flow-2',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await t.jobs.runPending(job('messages.send'))).toBe(1);
    expect(sim.callsTo('POST', new RegExp(`^${PAGE}/messages$`)).at(-1)!.body).toMatchObject({
      messaging_type: 'MESSAGE_TAG',
      tag: 'HUMAN_AGENT',
      message: { text: 'Ainda precisa de ajuda?' },
    });
  });
});

describe('Instagram: story mentions and the ignoreIgStories flag', () => {
  const IG = '17841400000000001';
  const IGSID = '5501002003004006';
  let instagram: ChannelDto;
  const igWebhook = (payload: object) => {
    const raw = JSON.stringify(payload);
    return t.app.inject({
      method: 'POST',
      url: `/api/webhooks/instagram/${instagram.id}`,
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signMetaBody(raw, APP_SECRET) },
      payload: raw,
    });
  };
  const mention = (mid: string) => {
    const payload = fixture('instagram-story-mention');
    const item = (payload.entry as { messaging: { message: { mid: string } }[] }[])[0]!.messaging[0]!;
    item.message.mid = mid;
    return payload;
  };
  const igMessages = async () => {
    const list = (await t.call(admin, 'GET', '/tickets?status=pending&showAll=true')).json<TicketListResponse>();
    const found = list.tickets.find((row) => row.whatsappId === instagram.id);
    return found ? (await t.call(admin, 'GET', `/messages/${found.id}`)).json<MessageListResponse>().messages : [];
  };

  beforeAll(async () => {
    const token = 'EAAG-flow-ig-page-token';
    sim.pages.set(token, { id: '3344556677', name: 'Loja IG', instagram: { id: IG, username: 'loja.ig' } });
    sim.users.set('EAAG-flow-ig-user', { id: '10220000000000010', pageTokens: [token] });
    sim.profiles.set(IGSID, { name: 'Cliente IG', username: 'cliente.ig' });
    instagram = (await t.call(admin, 'POST', '/whatsapp', { name: 'Instagram', type: 'instagram' })).json<ChannelDto>();
    const registered = await t.call(admin, 'POST', '/fb/register-pages', {
      whatsapp: instagram.id,
      accountId: '10220000000000010',
      userToken: 'EAAG-flow-ig-user',
    });
    expect(registered.statusCode, registered.body).toBe(200);
  });

  it('a story mention is stored with its link (contact named by the profile) until the tenant ignores stories', async () => {
    expect((await igWebhook(mention('aW_story_kept'))).statusCode).toBe(200);
    const kept = await igMessages();
    expect(kept.map((m) => m.body)).toEqual(['https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=story1']);
    const flag = await t.call(admin, 'PUT', `/tenantsIgnoreIgStories/${admin.tenantId}`, {
      ignoreIgStories: 'enabled',
    });
    expect(flag.statusCode, flag.body).toBe(200);
    expect((await igWebhook(mention('aW_story_ignored'))).statusCode).toBe(200);
    expect(await igMessages()).toHaveLength(1);
    // Other Instagram messages are still stored.
    expect((await igWebhook(fixture('instagram-text'))).statusCode).toBe(200);
    expect((await igMessages()).map((m) => m.body)).toContain('Vocês entregam em Campinas?');
  });
});
