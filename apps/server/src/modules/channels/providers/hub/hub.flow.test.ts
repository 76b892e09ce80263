/**
 * The NotificaMe hub end to end over real HTTP to the hub simulator: the tenant's hub token, the hub's channel list,
 * a hub channel run as ours (subscription with the webhook token), a webhook making a ticket, the agent's reply and
 * template reaching the hub, statuses (REJECTED -> undelivered with the reason), media both ways, every error code of
 * the hub routes and another tenant's ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelDto, MessageDto, MessageListResponse, TicketDto, TicketListResponse } from '@conversa/shared';
import type { JobDefinition } from '../../../../platform/jobs/queue.js';
import { createTestApp, type TestApp, type TestUser } from '../../../../test/harness.js';
import { startHubSimulator, type HubSimulator } from './hub.simulator.js';

const TOKEN = 'hub-flow-token-0001';
const OTHER_TOKEN = 'hub-flow-token-other';
const CUSTOMER = '5511998765432';

let t: TestApp;
let sim: HubSimulator;
let admin: TestUser;
let agent: TestUser;
let intruder: TestUser;
let channel: ChannelDto;
let ticket: TicketDto;

const job = (name: string) => t.jobDefinitions.find((d) => d.name === name) as unknown as JobDefinition<unknown>;
const runSends = () => t.jobs.runPending(job('messages.send'));
const inject = (path: string, body: object) => t.app.inject({ method: 'POST', url: path, payload: body });
/** Posts a webhook as the hub would: to the subscribed URL (path and query), JSON. */
const deliver = (hubChannelId: string, body: Record<string, unknown>) =>
  inject(sim.webhookOf(hubChannelId, body).path, body);
const history = async (ticketId: number) =>
  (await t.call(agent, 'GET', `/messages/${ticketId}`)).json<MessageListResponse>().messages;

beforeAll(async () => {
  sim = await startHubSimulator();
  sim.accounts.set(TOKEN, [
    { id: 'wa-1', name: 'Loja WhatsApp', channel: 'whatsapp' },
    { id: 'fb-1', name: 'Loja Facebook', channel: 'facebook' },
    { id: 'tg-1', name: 'Loja Telegram', channel: 'telegram' },
  ]);
  sim.accounts.set(OTHER_TOKEN, [{ id: 'wa-other', name: 'Outra', channel: 'whatsapp' }]);
  sim.templates.set('wa-1', [
    { id: '1', name: 'pedido', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: [] },
    { nonsense: true },
  ]);
  t = await createTestApp({ HUB_API_URL: sim.url, PUBLIC_URL: 'https://conversa.example' });
  ({ admin, agent } = await t.createStaff());
  ({ admin: intruder } = await t.createStaff(await t.createTenant({ name: 'Outra' })));
  // These tests read pending conversations as an agent: "Espiar pendentes" on (tickets.spyticket.test.ts: off).
  await t.database.executeSql(`update settings set value = 'enabled' where key = 'spyticket'`);
});
afterAll(async () => {
  await t.close();
  await sim.close();
});

describe('hub account and channels', () => {
  it('answers ERR_HUB_TOKEN_MISSING until the tenant has a hub token', async () => {
    for (const [method, path, body] of [
      ['GET', '/hub-channel/', undefined],
      ['POST', '/hub-channel/', { id: 'wa-1', name: 'Loja', channel: 'whatsapp' }],
    ] as const) {
      const res = await t.call(admin, method, path, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'ERR_HUB_TOKEN_MISSING' });
    }
    expect(sim.calls).toHaveLength(0);
  });

  it('a wrong token is ERR_HUB_DATA_INVALID; the hub failing is ERR_CHANNEL_PROVIDER', async () => {
    await t.call(admin, 'PUT', `/tenantsHubToken/${admin.tenantId}`, { hubToken: 'wrong-token' });
    expect((await t.call(admin, 'GET', '/hub-channel/')).json()).toEqual({ error: 'ERR_HUB_DATA_INVALID' });
    await t.call(admin, 'PUT', `/tenantsHubToken/${admin.tenantId}`, { hubToken: TOKEN });
    sim.failNext('/channels', 503, 'down');
    const down = await t.call(admin, 'GET', '/hub-channel/');
    expect(down.statusCode).toBe(502);
    expect(down.json()).toEqual({ error: 'ERR_CHANNEL_PROVIDER' });
  });

  it('lists the account channels; agents may not', async () => {
    const list = await t.call(admin, 'GET', '/hub-channel/');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({
      status: 'ok',
      data: [
        { id: 'wa-1', name: 'Loja WhatsApp', channel: 'whatsapp', connected: false, whatsappId: null },
        { id: 'fb-1', name: 'Loja Facebook', channel: 'facebook', connected: false, whatsappId: null },
        { id: 'tg-1', name: 'Loja Telegram', channel: 'telegram', connected: false, whatsappId: null },
      ],
    });
    expect((await t.call(agent, 'GET', '/hub-channel/')).statusCode).toBe(403);
  });

  it('runs a hub channel as ours: connected, subscribed with the token in the URL', async () => {
    const created = await t.call(admin, 'POST', '/hub-channel/', { id: 'wa-1', name: 'Loja Hub', channel: 'whatsapp' });
    expect(created.statusCode, created.body).toBe(200);
    channel = created.json<{ data: ChannelDto }>().data;
    expect(channel).toMatchObject({ type: 'hub', name: 'Loja Hub', wabaId: 'wa-1', status: 'CONNECTED' });
    const [subscription] = [...sim.subscriptions.values()];
    expect(subscription).toMatchObject({ channel: 'wa-1', token: TOKEN });
    expect(subscription!.url).toMatch(
      new RegExp(`^https://conversa\\.example/api/webhooks/hub/${channel.id}\\?token=[0-9a-f]{40}$`),
    );
    const list = (await t.call(admin, 'GET', '/hub-channel/')).json<{ data: { id: string }[] }>();
    expect(list.data[0]).toMatchObject({ id: 'wa-1', connected: true, whatsappId: channel.id });
  });

  it('refuses a second channel on the same hub channel, networks we do not run, foreign ids, agents', async () => {
    const cases: [object, number, object][] = [
      [{ id: 'wa-1', name: 'Dup', channel: 'whatsapp' }, 400, { error: 'ERR_VALIDATION', field: 'id' }],
      [
        { id: 'tg-1', name: 'Tg', channel: 'webchat' },
        400,
        { error: 'ERR_CHANNEL_TYPE_UNSUPPORTED', field: 'channel' },
      ],
      [{ id: 'tg-1', name: 'Mentira', channel: 'facebook' }, 400, { error: 'ERR_HUB_DATA_INVALID' }],
      [{ id: 'wa-other', name: 'Alheio', channel: 'whatsapp' }, 400, { error: 'ERR_HUB_DATA_INVALID' }],
      [{ id: 'fb-1', name: 'Mentira', channel: 'whatsapp' }, 400, { error: 'ERR_HUB_DATA_INVALID' }],
      [{ id: '', name: 'x', channel: 'whatsapp' }, 400, { error: 'ERR_VALIDATION', field: 'id' }],
    ];
    for (const [body, status, answer] of cases) {
      const res = await t.call(admin, 'POST', '/hub-channel/', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json()).toMatchObject(answer);
    }
    expect(
      (await t.call(agent, 'POST', '/hub-channel/', { id: 'fb-1', name: 'x', channel: 'facebook' })).statusCode,
    ).toBe(403);
    const channels = (await t.call(admin, 'GET', '/whatsapp/')).json<ChannelDto[]>();
    expect(channels.filter((c) => c.type.startsWith('hub'))).toHaveLength(1);
  });

  it('a subscription the hub refuses leaves no channel behind', async () => {
    sim.failNext('/subscriptions', 400, 'invalid url');
    const res = await t.call(admin, 'POST', '/hub-channel/', { id: 'fb-1', name: 'Face', channel: 'facebook' });
    expect(res.json()).toEqual({ error: 'ERR_CHANNEL_PROVIDER' });
    const channels = (await t.call(admin, 'GET', '/whatsapp/')).json<ChannelDto[]>();
    expect(channels.filter((c) => c.type === 'hub_facebook')).toHaveLength(0);
  });
});

describe('hub webhook -> ticket -> reply', () => {
  it('refuses a webhook without the token, with a wrong one or another channel’s, storing nothing', async () => {
    const body = sim.message('wa-1', CUSTOMER, [{ type: 'text', text: 'invasor' }]);
    const base = `/api/webhooks/hub/${channel.id}`;
    const other = await t.call(admin, 'POST', '/hub-channel/', { id: 'fb-1', name: 'Face', channel: 'facebook' });
    const fbToken = new URL(sim.webhookOf('fb-1', {}).url).searchParams.get('token');
    expect(other.statusCode).toBe(200);
    for (const path of [base, `${base}?token=`, `${base}?token=${'0'.repeat(40)}`, `${base}?token=${fbToken}`]) {
      const res = await t.app.inject({
        method: 'POST',
        url: path,
        headers: { 'x-conversa-hub-token': fbToken! },
        payload: body,
      });
      expect(res.statusCode, path).toBe(401);
    }
    expect((await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>().tickets).toHaveLength(0);
  });

  it('stores a customer message as a pending ticket, once even when the hub resends it', async () => {
    const body = sim.message('wa-1', CUSTOMER, [{ type: 'text', text: 'Oi, meu pedido atrasou' }], { id: 'hub-in-1' });
    expect((await deliver('wa-1', body)).statusCode).toBe(200);
    expect((await deliver('wa-1', body)).statusCode).toBe(200);
    const list = (await t.call(agent, 'GET', '/tickets?status=pending')).json<TicketListResponse>();
    expect(list.tickets).toHaveLength(1);
    ticket = (await t.call(agent, 'GET', `/tickets/${list.tickets[0]!.id}`)).json<TicketDto>();
    expect(ticket.contact).toMatchObject({ number: CUSTOMER, name: 'Maria Souza' });
    expect((await history(ticket.id)).map((m) => m.body)).toEqual(['Oi, meu pedido atrasou']);
  });

  it('a malformed webhook is a 400 and stores nothing', async () => {
    const { subscriptionId } = sim.message('wa-1', CUSTOMER, []);
    const res = await deliver('wa-1', { type: 'MESSAGE', subscriptionId, message: { id: 'x' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION' });
  });

  it('the agent replies through /hub-message; the hub gets it from the channel to the customer', async () => {
    await t.call(agent, 'PUT', `/tickets/${ticket.id}`, { status: 'open', userId: agent.id });
    const sent = await t.call(agent, 'POST', `/hub-message/${ticket.id}`, { body: 'Vou verificar!', idFront: 'hub-1' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await runSends()).toBe(1);
    expect(sim.sent.at(-1)).toMatchObject({
      channel: 'whatsapp',
      body: { from: 'wa-1', to: CUSTOMER, contents: [{ type: 'text', text: 'Vou verificar!' }] },
    });
    const mine = (await history(ticket.id)).at(-1)!;
    expect(mine).toMatchObject({ body: 'Vou verificar!', fromMe: true, ack: 1, messageId: sim.sent.at(-1)!.id });
  });

  it('statuses move the ack forward; REJECTED marks the message undelivered with the reason', async () => {
    const first = sim.sent.at(-1)!.id;
    await deliver('wa-1', sim.status('wa-1', first, 'READ'));
    await deliver('wa-1', sim.status('wa-1', first, 'DELIVERED'));
    expect((await history(ticket.id)).at(-1)).toMatchObject({ messageId: first, ack: 3 });

    await t.call(agent, 'POST', `/hub-message/${ticket.id}`, { body: 'Segunda', idFront: 'hub-2' });
    await runSends();
    const second = sim.sent.at(-1)!.id;
    const rejected = await deliver('wa-1', sim.status('wa-1', second, 'REJECTED', 'Re-engagement message'));
    expect(rejected.statusCode).toBe(200);
    const failed = (await history(ticket.id)).find((m) => m.messageId === second)!;
    expect(failed).toMatchObject({ isDelayed: true, sendError: 'REJECTED: Re-engagement message' });
  });

  it('statuses under new ids of their own find the message by the network id they name', async () => {
    await t.call(agent, 'POST', `/hub-message/${ticket.id}`, { body: 'Terceira', idFront: 'hub-3' });
    await runSends();
    const hubId = sim.sent.at(-1)!.id;
    const wamid = 'wamid.HBgNNTUxMTk5ODc2NTQzMhUCABEYEjQ5RDBGQzA2NjE1QjIwQzE4NQA=';
    const mine = async () => (await history(ticket.id)).find((m) => m.body === 'Terceira')!;
    // Under a new id and a network id the channel has never seen: nothing to match, nothing changes.
    const stray = sim.status('wa-1', hubId, 'DELIVERED', undefined, { eventId: 'evt-0', providerMessageId: 'wamid.x' });
    expect((await deliver('wa-1', stray)).statusCode).toBe(200);
    expect(await mine()).toMatchObject({ messageId: hubId, ack: 1 });
    // SENT names the hub's id and the network's; DELIVERED and READ come under new ids, naming the network's alone.
    await deliver('wa-1', sim.status('wa-1', hubId, 'SENT', undefined, { providerMessageId: wamid }));
    await deliver(
      'wa-1',
      sim.status('wa-1', hubId, 'DELIVERED', undefined, { eventId: 'evt-1', providerMessageId: wamid }),
    );
    expect(await mine()).toMatchObject({ ack: 2, messageId: wamid });
    await deliver('wa-1', sim.status('wa-1', hubId, 'READ', undefined, { eventId: 'evt-2', providerMessageId: wamid }));
    expect(await mine()).toMatchObject({ ack: 3 });
    // The event ids matched nothing else: the other messages kept their acks.
    expect((await history(ticket.id)).filter((m) => m.fromMe && m.ack === 3)).toHaveLength(2);
  });

  it('a file from the chat goes to the hub as its signed link, which serves the file', async () => {
    const boundary = '----hubflow';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nnota.pdf\r\n`),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="nota.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      Buffer.from('%PDF-1.4 nota'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/hub-message/${ticket.id}`,
      headers: { ...agent.auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await runSends()).toBe(1);
    const [content] = sim.sent.at(-1)!.body.contents as Record<string, string>[];
    expect(content).toMatchObject({ type: 'file', fileMimeType: 'application/pdf', fileName: 'nota.pdf' });
    expect(content!.fileUrl).toMatch(/^https:\/\/conversa\.example\/api\/media\//);
    const file = await t.app.inject({ method: 'GET', url: new URL(content!.fileUrl!).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('%PDF-1.4 nota');
  });

  it('an inbound WhatsApp photo is downloaded through the hub by the media job', async () => {
    sim.files.set('foto.jpg', { data: Buffer.from('JPEGDATA'), type: 'image/jpeg' });
    const content = { type: 'image', fileUrl: sim.fileUrl('foto.jpg'), fileMimeType: 'image/jpeg' };
    expect((await deliver('wa-1', sim.message('wa-1', CUSTOMER, [content]))).statusCode).toBe(200);
    expect(await t.jobs.runPending(job('messages.download-media'))).toBe(1);
    const photo = (await history(ticket.id)).find((m) => m.mediaType === 'image')!;
    expect(photo).toMatchObject({ mediaStatus: 'ready' });
    expect((await t.app.inject({ method: 'GET', url: photo.mediaUrl! })).body).toBe('JPEGDATA');
    expect(sim.callsOf('POST', '/channels/whatsapp/media')).toHaveLength(1);
  });
});

describe('hub subscriptions and Telegram through the hub', () => {
  it('refuses, storing nothing, a call with the right token from a subscription that is not the channel’s', async () => {
    const stale = [...sim.subscriptions.values()].find((s) => s.channel === 'wa-1')!.id;
    const before = (await history(ticket.id)).length;
    // Another subscription of the same hub channel (another account, a copy of our URL) and none at all.
    for (const subscriptionId of ['f44d13f2-0000-4000-8000-000000000000', undefined]) {
      const body = {
        ...sim.message('wa-1', CUSTOMER, [{ type: 'text', text: 'de outra assinatura' }]),
        subscriptionId,
      };
      const res = await deliver('wa-1', body);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ error: 'ERR_WEBHOOK_UNAUTHORIZED' });
    }
    // A restart replaces the subscription: the old one, still served by the hub, is refused; the new one is stored.
    expect((await t.call(admin, 'POST', '/hub-channel-setagain/', { whatsappId: channel.id })).statusCode).toBe(200);
    const old = {
      ...sim.message('wa-1', CUSTOMER, [{ type: 'text', text: 'da assinatura antiga' }]),
      subscriptionId: stale,
    };
    expect((await deliver('wa-1', old)).statusCode).toBe(401);
    expect((await history(ticket.id)).length).toBe(before);
    const fresh = sim.message('wa-1', CUSTOMER, [{ type: 'text', text: 'da assinatura nova' }]);
    expect(fresh.subscriptionId).not.toBe(stale);
    expect((await deliver('wa-1', fresh)).statusCode).toBe(200);
    expect((await history(ticket.id)).map((m) => m.body)).toContain('da assinatura nova');
  });

  it('two companies sharing a hub token: the second cannot run the hub channel the first runs (nothing subscribed)', async () => {
    await t.call(intruder, 'PUT', `/tenantsHubToken/${intruder.tenantId}`, { hubToken: TOKEN });
    const subscriptions = [...sim.subscriptions.values()].filter((s) => s.channel === 'wa-1').map((s) => s.id);
    const taken = await t.call(intruder, 'POST', '/hub-channel/', { id: 'wa-1', name: 'Roubo', channel: 'whatsapp' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: 'ERR_CHANNEL_IDENTITY_TAKEN' });
    expect([...sim.subscriptions.values()].filter((s) => s.channel === 'wa-1').map((s) => s.id)).toEqual(subscriptions);
    expect((await t.call(intruder, 'GET', '/whatsapp/')).json<ChannelDto[]>()).toHaveLength(0);
    // The intruder's account listing shows the hub channel as not theirs.
    const listed = (await t.call(intruder, 'GET', '/hub-channel/')).json<{
      data: { id: string; whatsappId: null }[];
    }>();
    expect(listed.data.find((c) => c.id === 'wa-1')).toMatchObject({ whatsappId: null });
    // Our customers still reach our channel only.
    const body = sim.message('wa-1', CUSTOMER, [{ type: 'text', text: 'só para a loja' }]);
    expect((await deliver('wa-1', body)).statusCode).toBe(200);
    expect((await history(ticket.id)).map((m) => m.body)).toContain('só para a loja');
  });

  it('runs a hub Telegram channel: contact by chat id, the reply to /channels/telegram/messages', async () => {
    const created = await t.call(admin, 'POST', '/hub-channel/', { id: 'tg-1', name: 'Loja Tg', channel: 'telegram' });
    expect(created.statusCode, created.body).toBe(200);
    const tg = created.json<{ data: ChannelDto }>().data;
    expect(tg).toMatchObject({ type: 'hub_telegram', wabaId: 'tg-1', status: 'CONNECTED' });
    const body = sim.message('tg-1', '912345678', [{ type: 'text', text: 'Oi pelo Telegram' }], {
      visitor: { name: 'João Lima' },
    });
    expect((await deliver('tg-1', body)).statusCode).toBe(200);
    const tgTicket = (await t.call(agent, 'GET', '/tickets?status=pending'))
      .json<TicketListResponse>()
      .tickets.find((x) => x.whatsappId === tg.id)!;
    const full = (await t.call(agent, 'GET', `/tickets/${tgTicket.id}`)).json<TicketDto>();
    expect(full.contact).toMatchObject({ telegramId: '912345678', number: null, name: 'João Lima' });
    await t.call(agent, 'PUT', `/tickets/${tgTicket.id}`, { status: 'open', userId: agent.id });
    const reply = await t.call(agent, 'POST', `/hub-message/${tgTicket.id}`, { body: 'Olá João!', idFront: 'tg-1' });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(await runSends()).toBe(1);
    expect(sim.sent.at(-1)).toMatchObject({
      channel: 'telegram',
      body: { from: 'tg-1', to: '912345678', contents: [{ type: 'text', text: 'Olá João!' }] },
    });
    const list = (await t.call(admin, 'GET', '/hub-channel/')).json<{ data: { id: string; connected: boolean }[] }>();
    expect(list.data.find((c) => c.id === 'tg-1')).toMatchObject({ connected: true });
  });
});

describe('hub templates and the other routes', () => {
  it('lists a WhatsApp hub channel’s templates (any staff), leaving out unreadable ones', async () => {
    const res = await t.call(agent, 'POST', '/hub-template/', { whatsappId: channel.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      data: {
        data: [{ id: '1', name: 'pedido', language: 'pt_BR', status: 'APPROVED', category: 'UTILITY', components: [] }],
      },
    });
    const fb = (await t.call(admin, 'GET', '/whatsapp/')).json<ChannelDto[]>().find((c) => c.type === 'hub_facebook')!;
    const notWa = await t.call(agent, 'POST', '/hub-template/', { whatsappId: fb.id });
    expect(notWa.json()).toEqual({ error: 'ERR_CHANNEL_TYPE_UNSUPPORTED' });
    expect((await t.call(agent, 'POST', '/hub-template/', { whatsappId: 'x' })).json()).toMatchObject({
      error: 'ERR_VALIDATION',
    });
  });

  it('sends a template stored as `templates` with its readable text; the hub gets Meta’s template object', async () => {
    const components = [{ type: 'body', parameters: [{ type: 'text', text: 'Maria' }] }];
    const res = await t.call(agent, 'POST', '/send-template/', {
      whatsappId: 9999,
      recipientNumber: '5500000000000',
      ticketId: ticket.id,
      templateName: 'pedido',
      language: 'pt_BR',
      components,
      mediaType: 'templates',
      sendType: 'templates',
      fromMe: true,
      read: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: MessageDto }>().data).toMatchObject({ mediaType: 'templates', body: 'pedido: Maria' });
    expect(await runSends()).toBe(1);
    expect(sim.sent.at(-1)!.body).toEqual({
      from: 'wa-1',
      to: CUSTOMER,
      contents: [{ type: 'template', template: { name: 'pedido', language: { code: 'pt_BR' }, components } }],
    });
  });

  it('subscribes again on /hub-channel-setagain/, replacing the old subscription', async () => {
    const before = [...sim.subscriptions.values()].find((s) => s.channel === 'wa-1')!;
    const res = await t.call(admin, 'POST', '/hub-channel-setagain/', { whatsappId: channel.id });
    expect(res.json()).toEqual({ ok: true });
    const after = [...sim.subscriptions.values()].filter((s) => s.channel === 'wa-1');
    expect(after).toHaveLength(1);
    expect(after[0]!.id).not.toBe(before.id);
    expect(after[0]!.url).toBe(before.url);
    expect((await t.call(agent, 'POST', '/hub-channel-setagain/', { whatsappId: channel.id })).statusCode).toBe(403);
  });

  it('another tenant reaches none of our hub channels or tickets', async () => {
    await t.call(intruder, 'PUT', `/tenantsHubToken/${intruder.tenantId}`, { hubToken: OTHER_TOKEN });
    const sentBefore = sim.sent.length;
    const cases: [string, string, object, string][] = [
      ['POST', '/hub-channel-setagain/', { whatsappId: channel.id }, 'ERR_NO_WAPP_FOUND'],
      ['POST', '/hub-template/', { whatsappId: channel.id }, 'ERR_NO_WAPP_FOUND'],
      ['POST', `/hub-message/${ticket.id}`, { body: 'intruso' }, 'ERR_NO_TICKET_FOUND'],
      [
        'POST',
        '/send-template/',
        { ticketId: ticket.id, templateName: 'pedido', language: 'pt_BR' },
        'ERR_NO_TICKET_FOUND',
      ],
      ['POST', '/hub-channel/', { id: 'wa-1', name: 'Roubo', channel: 'whatsapp' }, 'ERR_HUB_DATA_INVALID'],
    ];
    for (const [method, path, body, error] of cases) {
      const res = await t.call(intruder, method as 'POST', path, body);
      expect(res.json(), path).toEqual({ error });
    }
    const list = (await t.call(intruder, 'GET', '/hub-channel/')).json<{ data: { id: string }[] }>();
    expect(list.data.map((c) => c.id)).toEqual(['wa-other']);
    expect(sim.sent.length).toBe(sentBefore);
  });

  it('a hub-message on a ticket of another channel type is refused before anything is stored', async () => {
    // A Facebook hub ticket: /hub-message is fine, /send-template is WhatsApp-only.
    const fbBody = sim.message('fb-1', '7136628119690362', [{ type: 'text', text: 'Oi pelo Face' }]);
    expect((await deliver('fb-1', fbBody)).statusCode).toBe(200);
    const fbTicket = (await t.call(agent, 'GET', '/tickets?status=pending'))
      .json<TicketListResponse>()
      .tickets.find((x) => x.whatsappId !== channel.id)!;
    const template = await t.call(agent, 'POST', '/send-template/', {
      ticketId: fbTicket.id,
      templateName: 'pedido',
      language: 'pt_BR',
    });
    expect(template.json()).toEqual({ error: 'ERR_CHANNEL_TYPE_UNSUPPORTED' });
    await t.call(agent, 'PUT', `/tickets/${fbTicket.id}`, { status: 'open', userId: agent.id });
    const reply = await t.call(agent, 'POST', `/hub-message/${fbTicket.id}`, { body: 'Oi!', idFront: 'fb-1' });
    expect(reply.statusCode, reply.body).toBe(200);
    await runSends();
    expect(sim.sent.at(-1)).toMatchObject({ channel: 'facebook', body: { from: 'fb-1', to: '7136628119690362' } });
  });
});
