/**
 * Telegram updates to normalised InboundEvents. Message ids are only unique within a chat on Telegram, so the
 * provider message id is `<chatId>:<messageId>` (the messages table is unique per channel, not per chat).
 */
import type { MessageMediaType } from '@conversa/shared';
import type { InboundEvent, InboundMedia, InboundParty } from '../../channels.adapter.js';
import {
  telegramUpdateSchema,
  type TelegramFile,
  type TelegramMessage,
  type TelegramReactionUpdate,
} from './telegram.schemas.js';

type Chat = TelegramMessage['chat'];
type From = NonNullable<TelegramMessage['from']>;

export const telegramMessageKey = (chatId: number | string, messageId: number | string): string =>
  `${chatId}:${messageId}`;

/** The chat and message ids inside a provider message id; null when it is not one of ours. */
export function splitTelegramMessageKey(key: string): { chatId: string; messageId: number } | null {
  const match = /^(-?\d+):(\d+)$/.exec(key);
  return match ? { chatId: match[1]!, messageId: Number(match[2]) } : null;
}

const fullName = (first?: string, last?: string, username?: string): string =>
  [first, last].filter(Boolean).join(' ') || username || '';

function partyOf(chat: Chat, from: From | undefined): InboundParty {
  if (chat.type === 'private') {
    return {
      chatId: String(chat.id),
      isGroup: false,
      name: fullName(chat.first_name, chat.last_name, chat.username) || String(chat.id),
      number: null,
      idField: 'telegramId',
      username: chat.username ?? null,
    };
  }
  return {
    chatId: String(chat.id),
    isGroup: true,
    name: chat.title ?? String(chat.id),
    number: null,
    idField: 'telegramId',
    username: chat.username ?? null,
    participant: from
      ? {
          id: String(from.id),
          name: fullName(from.first_name, from.last_name, from.username),
          number: null,
          idField: 'telegramId',
        }
      : null,
  };
}

const mediaRef = (file: TelegramFile, fallbackMime: string | null): InboundMedia => ({
  ref: file.file_id,
  mime: file.mime_type ?? fallbackMime,
  name: file.file_name ?? null,
  size: file.file_size ?? null,
});

interface Content {
  mediaType: MessageMediaType;
  media: InboundMedia | null;
  body: string;
  meta: string | null;
  isSticker: boolean;
}

function fileContent(message: TelegramMessage): Content | null {
  const body = message.caption ?? '';
  const make = (mediaType: MessageMediaType, media: InboundMedia, isSticker = false): Content => ({
    mediaType,
    media,
    body,
    meta: null,
    isSticker,
  });
  // Telegram lists photo sizes smallest first; the last one is the original.
  const photo = message.photo?.at(-1);
  if (photo) return make('image', mediaRef(photo, 'image/jpeg'));
  if (message.sticker) return { ...make('sticker', mediaRef(message.sticker, 'image/webp'), true), body: '' };
  if (message.voice) return make('ptt', mediaRef(message.voice, 'audio/ogg'));
  if (message.audio) return make('audio', mediaRef(message.audio, 'audio/mpeg'));
  const video = message.video ?? message.animation ?? message.video_note;
  if (video) return make('video', mediaRef(video, 'video/mp4'));
  if (message.document) return make('application', mediaRef(message.document, 'application/octet-stream'));
  return null;
}

function structuredContent(message: TelegramMessage): Content | null {
  const place = message.venue?.location ?? message.location;
  if (place) {
    const name = message.venue ? `${message.venue.title}, ${message.venue.address}` : undefined;
    const meta = JSON.stringify({ latitude: place.latitude, longitude: place.longitude, ...(name ? { name } : {}) });
    return { mediaType: 'location', media: null, body: name ?? '', meta, isSticker: false };
  }
  if (message.contact) {
    const { first_name, last_name, phone_number, vcard } = message.contact;
    const name = fullName(first_name, last_name);
    const card = vcard ?? `BEGIN:VCARD\nVERSION:3.0\nFN:${name}\nTEL:${phone_number}\nEND:VCARD`;
    return { mediaType: 'vcard', media: null, body: `${name} ${phone_number}`.trim(), meta: card, isSticker: false };
  }
  return null;
}

/** Text, media or structured content; null for service messages (joins, pins, title changes). */
function contentOf(message: TelegramMessage): Content | null {
  const content = fileContent(message) ?? structuredContent(message);
  if (content) return content;
  if (message.text === undefined) return null;
  return { mediaType: 'chat', media: null, body: message.text, meta: null, isSticker: false };
}

function messageEvent(message: TelegramMessage): InboundEvent | null {
  const content = contentOf(message);
  if (!content) return null;
  const reply = message.reply_to_message;
  return {
    kind: 'message',
    providerMessageId: telegramMessageKey(message.chat.id, message.message_id),
    party: partyOf(message.chat, message.from),
    // A bot never receives its own messages through the webhook.
    fromMe: false,
    timestamp: message.date * 1000,
    ...content,
    quotedProviderMessageId: reply ? telegramMessageKey(reply.chat.id, reply.message_id) : null,
  };
}

function editEvent(message: TelegramMessage): InboundEvent | null {
  const body = message.text ?? message.caption;
  if (body === undefined) return null;
  return {
    kind: 'edit',
    providerMessageId: telegramMessageKey(message.chat.id, message.message_id),
    party: partyOf(message.chat, message.from),
    body,
    timestamp: (message.edit_date ?? message.date) * 1000,
  };
}

function reactionEvent(update: TelegramReactionUpdate): InboundEvent {
  // Custom-emoji and paid reactions have no emoji text; the first plain emoji is what the chat shows.
  const emoji = update.new_reaction.find((r) => r.type === 'emoji' && r.emoji)?.emoji ?? '';
  return {
    kind: 'reaction',
    providerMessageId: telegramMessageKey(update.chat.id, update.message_id),
    party: partyOf(update.chat, update.user),
    reaction: emoji,
    timestamp: update.date * 1000,
  };
}

/**
 * One webhook call carries one update. Broadcast channel posts and update kinds not asked for yield no event (the
 * call is still acknowledged, so Telegram does not resend it). Throws a ZodError on a malformed update.
 */
export function parseTelegramUpdate(body: unknown): InboundEvent[] {
  const update = telegramUpdateSchema.parse(body);
  const events: (InboundEvent | null)[] = [];
  if (update.message && update.message.chat.type !== 'channel') events.push(messageEvent(update.message));
  if (update.edited_message && update.edited_message.chat.type !== 'channel') {
    events.push(editEvent(update.edited_message));
  }
  if (update.message_reaction && update.message_reaction.chat.type !== 'channel') {
    events.push(reactionEvent(update.message_reaction));
  }
  return events.filter((event): event is InboundEvent => event !== null);
}
