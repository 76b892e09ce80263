/**
 * The hub adapter from recorded webhook shapes (fixtures follow the hub's MESSAGE / MESSAGE_STATUS samples) and
 * against the hub simulator over real HTTP: sends, media, templates, subscriptions, refusals.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZodError } from 'zod';
import { ProviderError, type ChannelCredentials, type InboundEvent } from '../../channels.adapter.js';
import { createHubAdapter, HUB_WEBHOOK_TOKEN_HEADER, hubWebhookTokenOf } from './hub.adapter.js';
import { createHubClient } from './hub.client.js';
import { decodeHubMediaRef, hubTimeOf, parseHubWebhook } from './hub.parse.js';
import { startHubSimulator, type HubSimulator } from './hub.simulator.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
const messages = (events: InboundEvent[]) =>
  events.filter((e): e is Extract<InboundEvent, { kind: 'message' }> => e.kind === 'message');

const TOKEN = 'hub-api-token-0001';

function channelOf(type: ChannelCredentials['type'], wabaId: string, extra: Partial<ChannelCredentials> = {}) {
  return {
    id: 7,
    tenantId: 3,
    type,
    name: 'Hub',
    number: null,
    tokenTelegram: null,
    tokenAPI: null,
    wabaId,
    bmToken: null,
    wabaVersion: '',
    remotePath: null,
    webhookSecret: 'secret-of-channel-7',
    providerState: {},
    routing: { queueId: null, userId: null },
    ...extra,
  } satisfies ChannelCredentials;
}

describe('hub webhooks -> events', () => {
  it('a WhatsApp text: contact by number (digits), the hub time read as UTC', () => {
    const [event] = messages(parseHubWebhook('hub', fixture('whatsapp-text')));
    expect(event).toMatchObject({
      providerMessageId: '9a643fde-7081-48cb-b2f2-14ddfb64cee9',
      mediaType: 'chat',
      body: 'Olá, quero falar do meu pedido',
      fromMe: false,
      timestamp: Date.UTC(2024, 2, 29, 22, 38, 7),
      party: { chatId: '5511998765432', number: '5511998765432', idField: 'number', name: 'Maria Souza' },
    });
  });

  it('Facebook files: one event per content, media by MIME type, contact by messengerId with its picture', () => {
    const events = messages(parseHubWebhook('hub_facebook', fixture('facebook-file')));
    expect(events.map((e) => [e.providerMessageId, e.mediaType])).toEqual([
      ['b35acb2b-f514-4265-bbeb-2c7b6a067317', 'application'],
      ['b35acb2b-f514-4265-bbeb-2c7b6a067317:1', 'image'],
      ['b35acb2b-f514-4265-bbeb-2c7b6a067317:2', 'audio'],
    ]);
    expect(events[0]!.party).toMatchObject({ chatId: '7136628119690362', idField: 'messengerId', number: null });
    expect(events[0]!.party.profilePicUrl).toMatch(/^https:\/\/platform-lookaside/);
    expect(events[0]!.body).toBe('nota.pdf');
    expect(decodeHubMediaRef(events[0]!.media!.ref)).toEqual({
      url: 'https://cdn.fbsbx.com/v/t59.2708-21/nota.pdf?_nc_cat=101',
      mime: 'application/pdf',
      type: 'file',
    });
  });

  it('Instagram visitors are keyed by instagramPK, e-mail senders by messengerId holding the address', () => {
    const ig = fixture('whatsapp-text');
    (ig.message as Record<string, unknown>).from = '17841400000000001';
    expect(messages(parseHubWebhook('hub_instagram', ig))[0]!.party).toMatchObject({
      chatId: '17841400000000001',
      idField: 'instagramPK',
    });
    const mail = fixture('whatsapp-text');
    (mail.message as Record<string, unknown>).from = 'cliente@example.com';
    expect(messages(parseHubWebhook('hub_email', mail))[0]!.party).toMatchObject({
      chatId: 'cliente@example.com',
      idField: 'messengerId',
    });
  });

  it('location, button replies and unknown contents', () => {
    const body = fixture('whatsapp-text');
    (body.message as Record<string, unknown>).contents = [
      { type: 'location', latitude: -23.55, longitude: '-46.63', name: 'Loja', address: 'Av. Paulista' },
      { type: 'button', payload: { id: 'b1', title: 'Sim' } },
      { type: 'contacts', contacts: [] },
      { type: 'file', fileUrl: 'javascript:alert(1)', fileMimeType: 'image/png' },
    ];
    const events = messages(parseHubWebhook('hub', body));
    expect(events.map((e) => e.mediaType)).toEqual(['location', 'button_reply', 'unsupported', 'unsupported']);
    expect(JSON.parse(events[0]!.meta!)).toEqual({ latitude: -23.55, longitude: -46.63, name: 'Loja, Av. Paulista' });
    expect(events[1]!.body).toBe('Sim');
  });

  it('statuses: SENT/DELIVERED/READ are acks; REJECTED is a send failure with the description', () => {
    expect(parseHubWebhook('hub_facebook', fixture('status-sent'))).toEqual([
      {
        kind: 'ack',
        providerMessageId: '0550ff2d-62f1-45e7-bbf6-fb7b33bb6f80',
        ack: 1,
        timestamp: Date.UTC(2024, 2, 29, 23, 40, 1),
        alias: null,
      },
    ]);
    const read = fixture('status-sent');
    (read.messageStatus as Record<string, unknown>).code = 'READ';
    expect(parseHubWebhook('hub_facebook', read)[0]).toMatchObject({ kind: 'ack', ack: 3 });
    expect(parseHubWebhook('hub', fixture('status-rejected'))).toEqual([
      {
        kind: 'send-failed',
        providerMessageId: 'c09b633a-ceab-4bb5-854a-5ce5d27717cb',
        error: 'REJECTED: The message was rejected by the provider',
        timestamp: Date.UTC(2024, 2, 29, 19, 55, 58),
        alias: null,
      },
    ]);
  });

  it('a status under a new id of its own carries the network id it names as the alias', () => {
    expect(parseHubWebhook('hub', fixture('status-delivered-new-id'))).toEqual([
      {
        kind: 'ack',
        providerMessageId: '7d1f2a0e-3c55-4c1b-9a8e-52e0c2b8d901',
        ack: 2,
        timestamp: Date.UTC(2024, 2, 29, 23, 41, 12),
        alias: 'wamid.HBgNNTUxMTk5ODc2NTQzMhUCABEYEjQ5RDBGQzA2NjE1QjIwQzE4NQA=',
      },
    ]);
  });

  it('Telegram through the hub: contact by telegramId (the chat id), a photo is an image', () => {
    const events = messages(parseHubWebhook('hub_telegram', fixture('telegram-photo')));
    expect(events.map((e) => [e.providerMessageId, e.mediaType, e.body])).toEqual([
      ['5f0c9a7e-2b1d-4e6f-8a3c-9d4e1f2a3b4c', 'chat', 'Boa tarde'],
      ['5f0c9a7e-2b1d-4e6f-8a3c-9d4e1f2a3b4c:1', 'image', ''],
    ]);
    expect(events[0]!.party).toMatchObject({ chatId: '912345678', number: null, idField: 'telegramId' });
    expect(decodeHubMediaRef(events[1]!.media!.ref)).toEqual({
      url: 'https://api.telegram.org/file/bot123/photos/file_7.jpg',
      mime: 'image/jpeg',
      type: 'photo',
    });
  });

  it('echoes of sends (direction OUT) and unknown kinds make no event', () => {
    const echo = fixture('whatsapp-text');
    (echo.message as Record<string, unknown>).direction = 'OUT';
    expect(parseHubWebhook('hub', echo)).toEqual([]);
    expect(parseHubWebhook('hub', { type: 'CHANNEL_STATUS', channel: 'whatsapp' })).toEqual([]);
  });

  it('malformed and hostile bodies throw a validation error (the intake answers 400)', () => {
    const bad: unknown[] = [
      null,
      'MESSAGE',
      [],
      { type: 'MESSAGE' },
      { type: 'MESSAGE', message: { id: 'x', from: 'y', contents: 'text' } },
      { type: 'MESSAGE_STATUS', messageId: 'x' },
      { type: 'MESSAGE', message: { id: 'x'.repeat(500), from: '1', contents: [] } },
      {
        ...fixture('whatsapp-text'),
        message: {
          ...(fixture('whatsapp-text').message as object),
          contents: Array(51).fill({ type: 'text', text: 'a' }),
        },
      },
    ];
    for (const body of bad)
      expect(() => parseHubWebhook('hub', body), JSON.stringify(body)?.slice(0, 80)).toThrow(ZodError);
  });

  it('reads the hub time forms and falls back on nonsense', () => {
    expect(hubTimeOf('2024-01-05 12:00:00 am', 0)).toBe(Date.UTC(2024, 0, 5, 0, 0, 0));
    expect(hubTimeOf('2024-01-05 12:00:00 pm', 0)).toBe(Date.UTC(2024, 0, 5, 12, 0, 0));
    expect(hubTimeOf(1_700_000_000, 0)).toBe(1_700_000_000_000);
    expect(hubTimeOf('2024-01-05T03:04:05Z', 0)).toBe(Date.UTC(2024, 0, 5, 3, 4, 5));
    expect(hubTimeOf('yesterday', 42)).toBe(42);
  });
});

describe('hub adapter over the simulator', () => {
  let sim: HubSimulator;
  const tenantTokens = new Map<number, string | null>([[3, TOKEN]]);
  const adapter = (type: 'hub' | 'hub_facebook') =>
    createHubAdapter({
      type,
      client: createHubClient(sim.url),
      tenantToken: async (id) => tenantTokens.get(id) ?? null,
    });

  beforeAll(async () => {
    sim = await startHubSimulator();
    sim.accounts.set(TOKEN, [
      { id: 'wa-1', name: 'Loja WhatsApp', channel: 'whatsapp' },
      { id: 'fb-1', name: 'Loja Facebook', channel: 'facebook' },
    ]);
  });
  afterAll(() => sim.close());

  it('verifies the webhook token derived from the channel secret, in constant time, and the subscription', () => {
    const channel = channelOf('hub', 'wa-1', { providerState: { subscriptionId: 'sub-ours' } });
    const good = hubWebhookTokenOf(channel.webhookSecret);
    const ours = { subscriptionId: 'sub-ours' };
    const hub = adapter('hub');
    expect(hub.verifyInbound(channel, { headers: { [HUB_WEBHOOK_TOKEN_HEADER]: good }, body: ours })).toBe(true);
    expect(hub.verifyInbound(channel, { headers: { [HUB_WEBHOOK_TOKEN_HEADER]: `${good}x` }, body: ours })).toBe(false);
    expect(hub.verifyInbound(channel, { headers: {}, body: ours })).toBe(false);
    const other = hubWebhookTokenOf('another-secret');
    expect(hub.verifyInbound(channel, { headers: { [HUB_WEBHOOK_TOKEN_HEADER]: other }, body: ours })).toBe(false);
    // The right token with another subscription's call, none named, or a channel that has no subscription.
    for (const body of [{ subscriptionId: 'sub-other' }, {}, { subscriptionId: 7 }, null, 'sub-ours']) {
      expect(hub.verifyInbound(channel, { headers: { [HUB_WEBHOOK_TOKEN_HEADER]: good }, body })).toBe(false);
    }
    const unsubscribed = channelOf('hub', 'wa-1');
    expect(hub.verifyInbound(unsubscribed, { headers: { [HUB_WEBHOOK_TOKEN_HEADER]: good }, body: ours })).toBe(false);
  });

  it('start checks the channel in the account and subscribes our URL with the token; a restart replaces it', async () => {
    const hub = adapter('hub');
    const channel = channelOf('hub', 'wa-1');
    const started = await hub.start(channel, 'https://conversa.example/api/webhooks/hub/7');
    const subscription = sim.subscriptions.get(String(started.providerState.subscriptionId))!;
    expect(subscription).toMatchObject({ channel: 'wa-1', token: TOKEN });
    expect(subscription.url).toBe(
      `https://conversa.example/api/webhooks/hub/7?token=${hubWebhookTokenOf(channel.webhookSecret)}`,
    );
    const again = await hub.start({ ...channel, providerState: started.providerState }, subscription.url);
    expect(sim.subscriptions.has(subscription.id)).toBe(false);
    expect(sim.subscriptions.has(String(again.providerState.subscriptionId))).toBe(true);
    await hub.stop({ ...channel, providerState: again.providerState });
    expect(sim.subscriptions.size).toBe(0);
  });

  it('start refuses a channel the account does not have, a wrong token and a missing one (permanent)', async () => {
    await expect(adapter('hub').start(channelOf('hub', 'nope'), 'https://x.example/h')).rejects.toMatchObject({
      permanent: true,
    });
    const wrong = channelOf('hub', 'wa-1', { tokenAPI: 'not-a-token' });
    await expect(adapter('hub').start(wrong, 'https://x.example/h')).rejects.toMatchObject({ status: 401 });
    tenantTokens.set(3, null);
    await expect(adapter('hub').start(channelOf('hub', 'wa-1'), 'https://x.example/h')).rejects.toBeInstanceOf(
      ProviderError,
    );
    tenantTokens.set(3, TOKEN);
  });

  it('sends text, a file by its signed link and a template with the hub channel as `from`', async () => {
    const hub = adapter('hub');
    const channel = channelOf('hub', 'wa-1');
    const base = { to: '5511998765432', mediaType: 'chat' as const, media: null, replyToProviderMessageId: null };
    const text = await hub.send(channel, { ...base, body: 'Oi!' });
    expect(sim.sent.at(-1)).toMatchObject({
      channel: 'whatsapp',
      id: text.providerMessageId,
      body: { from: 'wa-1', to: '5511998765432', contents: [{ type: 'text', text: 'Oi!' }] },
    });
    await hub.send(channel, {
      ...base,
      body: 'segue a nota',
      mediaType: 'application',
      media: { data: Buffer.from('%PDF'), mime: 'application/pdf', name: 'nota.pdf' },
      mediaUrl: 'https://conversa.example/api/media/tok',
    });
    expect(sim.sent.at(-1)!.body.contents).toEqual([
      {
        type: 'file',
        fileUrl: 'https://conversa.example/api/media/tok',
        fileMimeType: 'application/pdf',
        fileName: 'nota.pdf',
        fileCaption: 'segue a nota',
      },
    ]);
    await hub.send(channel, {
      ...base,
      body: 'Pedido enviado',
      mediaType: 'templates',
      payload: { kind: 'template', name: 'pedido', language: 'pt_BR', components: [{ type: 'body' }] },
    });
    expect(sim.sent.at(-1)!.body.contents).toEqual([
      { type: 'template', template: { name: 'pedido', language: { code: 'pt_BR' }, components: [{ type: 'body' }] } },
    ]);
  });

  it('a refused send is a permanent ProviderError; a 5xx is retried; files without a link are refused', async () => {
    const fb = adapter('hub_facebook');
    const channel = channelOf('hub_facebook', 'fb-1');
    const base = {
      to: '7136628119690362',
      body: 'x',
      mediaType: 'chat' as const,
      media: null,
      replyToProviderMessageId: null,
    };
    sim.failNext('/channels/facebook/messages', 400, 'recipient not found');
    await expect(fb.send(channel, base)).rejects.toMatchObject({
      permanent: true,
      message: expect.stringContaining('recipient not found'),
    });
    sim.failNext('/channels/facebook/messages', 503, 'busy');
    await expect(fb.send(channel, base)).rejects.toMatchObject({ permanent: false });
    const file = { data: Buffer.from('x'), mime: 'image/png', name: 'a.png' };
    await expect(fb.send(channel, { ...base, mediaType: 'image', media: file })).rejects.toMatchObject({
      permanent: true,
    });
    const template = { kind: 'template' as const, name: 't', language: 'pt_BR', components: [] };
    await expect(fb.send(channel, { ...base, payload: template })).rejects.toMatchObject({ permanent: true });
  });

  it('downloads WhatsApp files through the hub and other files by their link', async () => {
    sim.files.set('foto.jpg', { data: Buffer.from('JPEG'), type: 'image/jpeg' });
    const body = fixture('whatsapp-text');
    (body.message as Record<string, unknown>).contents = [
      { type: 'image', fileUrl: sim.fileUrl('foto.jpg'), fileMimeType: 'image/jpeg' },
    ];
    const [event] = messages(parseHubWebhook('hub', body));
    const media = await adapter('hub').downloadMedia(channelOf('hub', 'wa-1'), event!.media!.ref, 1000);
    expect(media).toMatchObject({ mime: 'image/jpeg' });
    expect(media.data.toString()).toBe('JPEG');
    expect(sim.callsOf('POST', '/channels/whatsapp/media').at(-1)!.body).toMatchObject({ from: 'wa-1' });
    const direct = await adapter('hub_facebook').downloadMedia(
      channelOf('hub_facebook', 'fb-1'),
      event!.media!.ref,
      1000,
    );
    expect(direct.data.toString()).toBe('JPEG');
    await expect(
      adapter('hub_facebook').downloadMedia(channelOf('hub_facebook', 'fb-1'), event!.media!.ref, 2),
    ).rejects.toMatchObject({
      permanent: true,
    });
    await expect(adapter('hub').downloadMedia(channelOf('hub', 'wa-1'), 'not json', 10)).rejects.toMatchObject({
      permanent: true,
    });
  });
});
