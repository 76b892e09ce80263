/**
 * The Telegram channel: a bot reached through the Bot API. The webhook carries the channel's secret in
 * `X-Telegram-Bot-Api-Secret-Token` (registered with setWebhook), Telegram has no delivery or read receipts (a sent
 * message stays at ack 1), and the chat id is the contact's `telegramId`.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { MessageMediaType } from '@conversa/shared';
import {
  ProviderError,
  type ChannelAdapter,
  type ChannelCredentials,
  type OutboundMessage,
  type SendResult,
} from '../../channels.adapter.js';
import { createTelegramClient, type TelegramClient } from './telegram.client.js';
import { parseTelegramUpdate, splitTelegramMessageKey, telegramMessageKey } from './telegram.parse.js';
import {
  TELEGRAM_ALLOWED_UPDATES,
  TELEGRAM_CAPTION_MAX,
  TELEGRAM_TEXT_MAX,
  telegramBotSchema,
  telegramFileInfoSchema,
  telegramSentMessageSchema,
} from './telegram.schemas.js';

export const TELEGRAM_SECRET_HEADER = 'x-telegram-bot-api-secret-token';

const anyResult = z.unknown();

/** Bot API method and form field for each media kind we send; anything else goes as a document. */
const MEDIA_METHODS: Partial<Record<MessageMediaType, { method: string; field: string; caption: boolean }>> = {
  image: { method: 'sendPhoto', field: 'photo', caption: true },
  video: { method: 'sendVideo', field: 'video', caption: true },
  audio: { method: 'sendAudio', field: 'audio', caption: true },
  ptt: { method: 'sendVoice', field: 'voice', caption: true },
  sticker: { method: 'sendSticker', field: 'sticker', caption: false },
};
const DOCUMENT = { method: 'sendDocument', field: 'document', caption: true };

function tokenOf(channel: ChannelCredentials): string {
  if (!channel.tokenTelegram) throw new ProviderError('telegram: the channel has no bot token', true);
  return channel.tokenTelegram;
}

function messageRef(providerMessageId: string): { chatId: string; messageId: number } {
  const ref = splitTelegramMessageKey(providerMessageId);
  if (!ref) throw new ProviderError('telegram: not a Telegram message id', true);
  return ref;
}

/** Splits text into parts Telegram accepts, never inside a surrogate pair. */
export function splitText(text: string, max = TELEGRAM_TEXT_MAX): string[] {
  const parts: string[] = [];
  let current = '';
  for (const char of text) {
    if (current.length + char.length > max) {
      parts.push(current);
      current = '';
    }
    current += char;
  }
  if (current) parts.push(current);
  return parts;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export function createTelegramAdapter(options: { apiRoot: string; client?: TelegramClient }): ChannelAdapter {
  const client = options.client ?? createTelegramClient(options.apiRoot);

  const sent = (chatId: string, message: { message_id: number; date: number }): SendResult => ({
    providerMessageId: telegramMessageKey(chatId, message.message_id),
    ack: 1,
    timestamp: message.date * 1000,
  });

  /** Replies only to a message of the same chat; a vanished original must not make the send fail. */
  function replyParameters(chatId: string, replyTo: string | null): Record<string, unknown> {
    const ref = replyTo ? splitTelegramMessageKey(replyTo) : null;
    if (!ref || ref.chatId !== chatId) return {};
    return { reply_parameters: { message_id: ref.messageId, allow_sending_without_reply: true } };
  }

  async function sendText(token: string, chatId: string, body: string, reply: Record<string, unknown>) {
    const parts = splitText(body);
    if (parts.length === 0) throw new ProviderError('telegram: empty message', true);
    let first: SendResult | null = null;
    for (const [index, text] of parts.entries()) {
      const params = { chat_id: chatId, text, ...(index === 0 ? reply : {}) };
      const result = await client.call(token, 'sendMessage', params, telegramSentMessageSchema);
      first ??= sent(chatId, result);
    }
    return first!;
  }

  async function sendMedia(token: string, message: OutboundMessage, reply: Record<string, unknown>) {
    const media = message.media!;
    const kind = MEDIA_METHODS[message.mediaType] ?? DOCUMENT;
    const inCaption = kind.caption && message.body.length <= TELEGRAM_CAPTION_MAX;
    const form = new FormData();
    form.set('chat_id', message.to);
    form.set(kind.field, new Blob([new Uint8Array(media.data)], { type: media.mime }), media.name);
    if (inCaption && message.body) form.set('caption', message.body);
    if (reply.reply_parameters) form.set('reply_parameters', JSON.stringify(reply.reply_parameters));
    const result = sent(message.to, await client.call(token, kind.method, form, telegramSentMessageSchema));
    // A text too long for a caption follows the file as its own message(s).
    if (!inCaption && message.body) await sendText(token, message.to, message.body, {});
    return result;
  }

  async function editText(token: string, ref: { chatId: string; messageId: number }, text: string) {
    const params = { chat_id: ref.chatId, message_id: ref.messageId };
    try {
      await client.call(token, 'editMessageText', { ...params, text }, anyResult);
    } catch (error) {
      // A media message has a caption, not a text.
      if (!(error instanceof ProviderError) || !/no text in the message/i.test(error.message)) throw error;
      await client.call(token, 'editMessageCaption', { ...params, caption: text }, anyResult);
    }
  }

  return {
    type: 'telegram',
    capabilities: {
      edit: true,
      delete: true,
      react: true,
      qrcode: false,
      media: ['chat', 'image', 'video', 'audio', 'ptt', 'application', 'sticker'],
    },

    verifyInbound(channel, request) {
      const given = request.headers[TELEGRAM_SECRET_HEADER];
      return typeof given === 'string' && sameSecret(given, channel.webhookSecret);
    },

    parseInbound: (_channel, body) => parseTelegramUpdate(body),

    async send(channel, message) {
      const token = tokenOf(channel);
      const reply = replyParameters(message.to, message.replyToProviderMessageId);
      return message.media ? sendMedia(token, message, reply) : sendText(token, message.to, message.body, reply);
    },

    async edit(channel, _to, providerMessageId, body) {
      await editText(tokenOf(channel), messageRef(providerMessageId), body);
    },

    async delete(channel, _to, providerMessageId) {
      const ref = messageRef(providerMessageId);
      await client.call(
        tokenOf(channel),
        'deleteMessage',
        { chat_id: ref.chatId, message_id: ref.messageId },
        anyResult,
      );
    },

    async react(channel, _to, providerMessageId, emoji) {
      const ref = messageRef(providerMessageId);
      const reaction = emoji ? [{ type: 'emoji', emoji }] : [];
      const params = { chat_id: ref.chatId, message_id: ref.messageId, reaction };
      await client.call(tokenOf(channel), 'setMessageReaction', params, anyResult);
    },

    async downloadMedia(channel, ref, maxBytes) {
      const token = tokenOf(channel);
      const file = await client.call(token, 'getFile', { file_id: ref }, telegramFileInfoSchema);
      if (!file.file_path) throw new ProviderError('telegram getFile: no file path', true);
      if ((file.file_size ?? 0) > maxBytes) throw new ProviderError('telegram download: file too large', true);
      const { data, mime } = await client.download(token, file.file_path, maxBytes);
      return { data, mime, name: path.posix.basename(file.file_path) };
    },

    async start(channel, webhookUrl) {
      const token = tokenOf(channel);
      const bot = await client.call(token, 'getMe', {}, telegramBotSchema);
      await client.call(
        token,
        'setWebhook',
        { url: webhookUrl, secret_token: channel.webhookSecret, allowed_updates: TELEGRAM_ALLOWED_UPDATES },
        anyResult,
      );
      return {
        number: `@${bot.username}`,
        providerState: { botId: bot.id, username: bot.username, webhookUrl },
      };
    },

    async stop(channel) {
      await client.call(tokenOf(channel), 'deleteWebhook', { drop_pending_updates: false }, anyResult);
    },
  };
}
