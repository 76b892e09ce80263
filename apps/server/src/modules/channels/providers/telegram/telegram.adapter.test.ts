/** The Telegram adapter: fixture updates in, normalised events out; outbound calls against the local simulator. */
import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProviderError, type ChannelCredentials } from '../../channels.adapter.js';
import { createTelegramAdapter, splitText, TELEGRAM_SECRET_HEADER } from './telegram.adapter.js';
import { startTelegramSimulator, type TelegramSimulator } from './telegram.simulator.js';

const fixture = (name: string): unknown =>
  JSON.parse(fs.readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));

const TOKEN = '7000000001:AAH-test_token_for_the_simulator_0001';

const channel: ChannelCredentials = {
  id: 9,
  tenantId: 1,
  type: 'telegram',
  name: 'Bot',
  number: null,
  tokenTelegram: TOKEN,
  tokenAPI: null,
  wabaId: null,
  bmToken: null,
  wabaVersion: '20.0',
  remotePath: null,
  webhookSecret: 'secret_abc-123',
  providerState: {},
  routing: { queueId: null, userId: null },
};

let sim: TelegramSimulator;
let adapter: ReturnType<typeof createTelegramAdapter>;

beforeAll(async () => {
  sim = await startTelegramSimulator();
  sim.bots.set(TOKEN, { id: 7000000001, username: 'atendimento_bot' });
  adapter = createTelegramAdapter({ apiRoot: sim.url });
});
afterAll(async () => sim.close());
beforeEach(() => void sim.calls.splice(0));

const text = (to: string, body: string, replyTo: string | null = null) => ({
  to,
  body,
  mediaType: 'chat' as const,
  media: null,
  replyToProviderMessageId: replyTo,
});

describe('parseInbound', () => {
  it('turns a private text message into a message event keyed by chat and message id, with its reply', () => {
    expect(adapter.parseInbound(channel, fixture('text-message'))).toEqual([
      {
        kind: 'message',
        providerMessageId: '555000111:41',
        party: {
          chatId: '555000111',
          isGroup: false,
          name: 'Maria Souza',
          number: null,
          idField: 'telegramId',
          username: 'mariasouza',
        },
        fromMe: false,
        timestamp: 1763700000000,
        mediaType: 'chat',
        media: null,
        body: 'Olá, preciso de ajuda com meu pedido',
        meta: null,
        isSticker: false,
        quotedProviderMessageId: '555000111:40',
      },
    ]);
  });

  it('takes the largest photo size and the caption as body', () => {
    const [event] = adapter.parseInbound(channel, fixture('photo-message'));
    expect(event).toMatchObject({
      kind: 'message',
      mediaType: 'image',
      body: 'a nota fiscal',
      media: { ref: 'AgAD-large', mime: 'image/jpeg', size: 64000 },
    });
  });

  it('names the group and the participant of a group voice note', () => {
    const [event] = adapter.parseInbound(channel, fixture('group-voice'));
    expect(event).toMatchObject({
      kind: 'message',
      providerMessageId: '-1001234567890:7',
      mediaType: 'ptt',
      party: {
        chatId: '-1001234567890',
        isGroup: true,
        name: 'Clientes VIP',
        participant: { id: '555000222', name: 'João Lima', idField: 'telegramId' },
      },
      media: { ref: 'AwAD-voice', mime: 'audio/ogg' },
    });
  });

  it('maps edits, reactions and locations', () => {
    expect(adapter.parseInbound(channel, fixture('edited-message'))).toMatchObject([
      {
        kind: 'edit',
        providerMessageId: '555000111:41',
        body: 'Olá, preciso de ajuda com o pedido 123',
        timestamp: 1763700100000,
      },
    ]);
    expect(adapter.parseInbound(channel, fixture('reaction'))).toMatchObject([
      { kind: 'reaction', providerMessageId: '555000111:1000', reaction: '👍' },
    ]);
    const [location] = adapter.parseInbound(channel, fixture('location'));
    expect(location).toMatchObject({ kind: 'message', mediaType: 'location', body: '' });
    expect(JSON.parse((location as { meta: string }).meta)).toEqual({ latitude: -23.55052, longitude: -46.633308 });
  });

  it('yields no event for service messages and broadcast channel posts', () => {
    expect(adapter.parseInbound(channel, fixture('member-joined'))).toEqual([]);
    const post = {
      update_id: 1,
      channel_post: { message_id: 1, chat: { id: -100, type: 'channel' }, date: 1, text: 'x' },
    };
    expect(adapter.parseInbound(channel, post)).toEqual([]);
  });

  it('throws on a malformed update', () => {
    expect(() => adapter.parseInbound(channel, { message: { text: 'no ids' } })).toThrow();
    expect(() => adapter.parseInbound(channel, 'nonsense')).toThrow();
  });
});

describe('verifyInbound', () => {
  it('accepts only the channel secret in the Telegram header', () => {
    const verify = (headers: Record<string, string>) => adapter.verifyInbound(channel, { headers, body: {} });
    expect(verify({ [TELEGRAM_SECRET_HEADER]: 'secret_abc-123' })).toBe(true);
    expect(verify({ [TELEGRAM_SECRET_HEADER]: 'secret_abc-124' })).toBe(false);
    expect(verify({ [TELEGRAM_SECRET_HEADER]: 'secret' })).toBe(false);
    expect(verify({})).toBe(false);
  });
});

describe('send', () => {
  it('sends text as a reply within the same chat and returns the chat-scoped id with ack 1', async () => {
    const result = await adapter.send(channel, text('555000111', 'Seu pedido saiu', '555000111:41'));
    expect(result).toEqual({
      providerMessageId: expect.stringMatching(/^555000111:\d+$/),
      ack: 1,
      timestamp: 1763700000000,
    });
    expect(sim.callsOf('sendMessage')[0]!.params).toEqual({
      chat_id: '555000111',
      text: 'Seu pedido saiu',
      reply_parameters: { message_id: 41, allow_sending_without_reply: true },
    });
  });

  it('never replies across chats, and splits text past 4096 characters', async () => {
    await adapter.send(channel, text('555000111', 'a'.repeat(4096) + 'b'.repeat(10), '999:41'));
    const parts = sim.callsOf('sendMessage').map((call) => call.params);
    expect(parts).toHaveLength(2);
    expect(parts[0]).toEqual({ chat_id: '555000111', text: 'a'.repeat(4096) });
    expect(parts[1]).toEqual({ chat_id: '555000111', text: 'b'.repeat(10) });
  });

  it('uploads media with the method of its kind and the body as caption', async () => {
    const media = { data: Buffer.from('OggS-voice'), mime: 'audio/ogg', name: 'nota.ogg' };
    await adapter.send(channel, { ...text('555000111', 'ouça'), mediaType: 'ptt', media });
    const [call] = sim.callsOf('sendVoice');
    expect(call!.params).toMatchObject({
      chat_id: '555000111',
      caption: 'ouça',
      voice: { name: 'nota.ogg', type: 'audio/ogg', text: 'OggS-voice' },
    });
    const pdf = { data: Buffer.from('%PDF'), mime: 'application/pdf', name: 'boleto.pdf' };
    await adapter.send(channel, { ...text('555000111', 'x'.repeat(1100)), mediaType: 'application', media: pdf });
    expect(sim.callsOf('sendDocument')[0]!.params).not.toHaveProperty('caption');
    expect(sim.callsOf('sendMessage')[0]!.params).toMatchObject({ text: 'x'.repeat(1100) });
  });

  it('refuses an empty text as a permanent error', async () => {
    await expect(adapter.send(channel, text('1', ''))).rejects.toMatchObject({ permanent: true });
  });
});

describe('edit, delete, react, download', () => {
  it('edits text, and falls back to the caption of a media message', async () => {
    await adapter.edit(channel, '555000111', '555000111:1000', 'novo texto');
    expect(sim.callsOf('editMessageText')[0]!.params).toEqual({
      chat_id: '555000111',
      message_id: 1000,
      text: 'novo texto',
    });
    sim.failNext('editMessageText', {
      error_code: 400,
      description: 'Bad Request: there is no text in the message to edit',
    });
    await adapter.edit(channel, '555000111', '555000111:1001', 'legenda');
    expect(sim.callsOf('editMessageCaption')[0]!.params).toEqual({
      chat_id: '555000111',
      message_id: 1001,
      caption: 'legenda',
    });
  });

  it('deletes and reacts by the chat-scoped id; an empty emoji clears the reaction', async () => {
    await adapter.delete(channel, '555000111', '555000111:1000');
    await adapter.react(channel, '555000111', '555000111:1000', '❤');
    await adapter.react(channel, '555000111', '555000111:1000', '');
    expect(sim.callsOf('deleteMessage')[0]!.params).toEqual({ chat_id: '555000111', message_id: 1000 });
    expect(sim.callsOf('setMessageReaction').map((c) => c.params.reaction)).toEqual([
      [{ type: 'emoji', emoji: '❤' }],
      [],
    ]);
    await expect(adapter.delete(channel, '1', 'wamid.XYZ')).rejects.toMatchObject({ permanent: true });
  });

  it('downloads a file through getFile within the size limit', async () => {
    sim.files.set('AgAD-large', { path: 'photos/file_1.jpg', data: Buffer.from('JPEGDATA'), type: 'image/jpeg' });
    const file = await adapter.downloadMedia(channel, 'AgAD-large', 1024);
    expect(file).toEqual({ data: Buffer.from('JPEGDATA'), mime: 'image/jpeg', name: 'file_1.jpg' });
    await expect(adapter.downloadMedia(channel, 'AgAD-large', 4)).rejects.toMatchObject({ permanent: true });
    await expect(adapter.downloadMedia(channel, 'missing', 1024)).rejects.toMatchObject({ permanent: true });
  });
});

describe('start, stop and failures', () => {
  it('checks the token with getMe and registers the webhook with the channel secret', async () => {
    const started = await adapter.start(channel, 'https://example.test/api/webhooks/telegram/9');
    expect(started).toEqual({
      number: '@atendimento_bot',
      providerState: {
        botId: 7000000001,
        username: 'atendimento_bot',
        webhookUrl: 'https://example.test/api/webhooks/telegram/9',
      },
    });
    expect(sim.callsOf('setWebhook')[0]!.params).toEqual({
      url: 'https://example.test/api/webhooks/telegram/9',
      secret_token: 'secret_abc-123',
      allowed_updates: ['message', 'edited_message', 'message_reaction'],
    });
    await adapter.stop(channel);
    expect(sim.callsOf('deleteWebhook')).toHaveLength(1);
  });

  it('classifies failures: a bad token is permanent, rate limits and outages are retried', async () => {
    const unknownBot = { ...channel, tokenTelegram: '123:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
    await expect(adapter.start(unknownBot, 'https://x.test')).rejects.toMatchObject({ permanent: true, status: 401 });
    sim.failNext('sendMessage', { error_code: 429, description: 'Too Many Requests: retry after 3' });
    await expect(adapter.send(channel, text('1', 'oi'))).rejects.toMatchObject({ permanent: false, status: 429 });
    const offline = createTelegramAdapter({ apiRoot: 'http://127.0.0.1:9' });
    const error = await offline.send(channel, text('1', 'oi')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ permanent: false });
    expect(String((error as Error).message)).not.toContain(TOKEN);
  });

  it('refuses a malformed or missing token without calling Telegram', async () => {
    await expect(adapter.start({ ...channel, tokenTelegram: '../getMe?x=' }, 'https://x.test')).rejects.toMatchObject({
      permanent: true,
    });
    await expect(adapter.start({ ...channel, tokenTelegram: null }, 'https://x.test')).rejects.toMatchObject({
      permanent: true,
    });
    expect(sim.calls).toHaveLength(0);
  });
});

describe('splitText', () => {
  it('never cuts a surrogate pair', () => {
    const parts = splitText('a' + '😀'.repeat(3), 4);
    expect(parts).toEqual(['a😀', '😀😀']);
    expect(parts.join('')).toBe('a😀😀😀');
  });
});
