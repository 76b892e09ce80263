/**
 * Hub webhooks to normalised InboundEvents. One MESSAGE may carry several contents: the first keeps the hub's message
 * id, the others get `<id>:<index>` (the messages table is unique per channel and provider id). Contacts are keyed by
 * the hub's visitor id in the field of their network: WhatsApp by number, Facebook by `messengerId` (the page-scoped
 * id, as a Messenger channel would store it), Instagram by `instagramPK`, Telegram by `telegramId` (the chat id, as a
 * Telegram bot channel would store it), e-mail by `messengerId` holding the address (no contact field is keyed by
 * e-mail; an address never collides with Messenger's numeric ids).
 */
import type { ChannelType, MessageMediaType } from '@conversa/shared';
import type { InboundEvent, InboundMedia, InboundParty } from '../../channels.adapter.js';
import {
  hubMessageEventSchema,
  hubStatusEventSchema,
  hubWebhookKindSchema,
  type HubContent,
  type HubMessage,
} from './hub.schemas.js';

/** Media reference kept on the message until the media job downloads it (the URL and what the hub said of it). */
export interface HubMediaRef {
  url: string;
  mime: string | null;
  type: string;
}

export const encodeHubMediaRef = (ref: HubMediaRef): string => JSON.stringify(ref);

export function decodeHubMediaRef(ref: string): HubMediaRef | null {
  try {
    const value = JSON.parse(ref) as Partial<HubMediaRef>;
    if (typeof value.url !== 'string' || typeof value.type !== 'string') return null;
    return { url: value.url, mime: typeof value.mime === 'string' ? value.mime : null, type: value.type };
  } catch {
    return null;
  }
}

const HUB_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2}):(\d{2})\s*(am|pm)?$/i;

/** Epoch ms of a hub time ("2024-03-29 10:38:07 pm", UTC), epoch seconds/ms or ISO; `fallback` when unreadable. */
export function hubTimeOf(value: string | number | undefined, fallback: number): number {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return value < 1e12 ? value * 1000 : value;
  if (typeof value !== 'string') return fallback;
  const match = HUB_TIME.exec(value.trim());
  if (match) {
    const [, y, mo, d, h, mi, s, half] = match;
    let hour = Number(h) % (half ? 12 : 24);
    if (half?.toLowerCase() === 'pm') hour += 12;
    const time = Date.UTC(Number(y), Number(mo) - 1, Number(d), hour, Number(mi), Number(s));
    return Number.isFinite(time) ? time : fallback;
  }
  const parsed = Date.parse(value);
  return Number.isFinite(parsed) ? parsed : fallback;
}

const digitsOnly = (value: string) => value.replace(/\D/g, '');

/** The contact a hub visitor is, on a channel of this type. */
function partyOf(type: ChannelType, message: HubMessage): InboundParty {
  const visitor = message.visitor;
  const name =
    visitor?.name?.trim() || [visitor?.firstName, visitor?.lastName].filter(Boolean).join(' ').trim() || message.from;
  const picture = visitor?.picture && /^https?:\/\//i.test(visitor.picture) ? visitor.picture : null;
  const base = { isGroup: false, name, profilePicUrl: picture };
  if (type === 'hub') {
    const digits = digitsOnly(message.from);
    return { ...base, chatId: digits, number: digits, idField: 'number' };
  }
  const idField = type === 'hub_instagram' ? 'instagramPK' : type === 'hub_telegram' ? 'telegramId' : 'messengerId';
  return { ...base, chatId: message.from, number: null, idField };
}

/** Our media type for a hub file: by MIME type first, then by the content's own type. */
function fileMediaType(mime: string | null, contentType: string): MessageMediaType {
  const kind = (mime ?? '').split('/')[0]!.toLowerCase();
  if (kind === 'image') return contentType === 'sticker' || mime === 'image/webp' ? 'sticker' : 'image';
  if (kind === 'video') return 'video';
  if (kind === 'audio') return contentType === 'voice' || contentType === 'ptt' ? 'ptt' : 'audio';
  if (contentType === 'image' || contentType === 'video' || contentType === 'audio' || contentType === 'sticker') {
    return contentType;
  }
  if (contentType === 'photo') return 'image';
  return 'application';
}

/** Content types that carry a file (Telegram through the hub names its pictures `photo`). */
const FILE_TYPES = new Set(['file', 'image', 'photo', 'audio', 'video', 'document', 'sticker', 'voice', 'ptt']);

interface Content {
  mediaType: MessageMediaType;
  body: string;
  media: InboundMedia | null;
  meta: string | null;
  isSticker?: boolean;
}

function replyTitle(content: HubContent): string {
  const payload = content.payload as { title?: unknown; text?: unknown } | undefined;
  const title =
    typeof payload?.title === 'string' ? payload.title : typeof payload?.text === 'string' ? payload.text : '';
  return content.text ?? title;
}

function contentOf(content: HubContent): Content {
  const type = content.type.toLowerCase();
  if (type === 'text') return { mediaType: 'chat', body: content.text ?? '', media: null, meta: null };
  const url = content.fileUrl ?? content.url;
  if (FILE_TYPES.has(type) && url && /^https?:\/\//i.test(url)) {
    const mime = content.fileMimeType?.includes('/') ? content.fileMimeType : null;
    const mediaType = fileMediaType(mime, type);
    const name = content.fileName ?? null;
    const media = { ref: encodeHubMediaRef({ url, mime, type: content.type }), mime, name, size: null };
    const body = content.fileCaption ?? content.text ?? (mediaType === 'application' ? (name ?? '') : '');
    return { mediaType, body, media, meta: null, ...(mediaType === 'sticker' ? { isSticker: true } : {}) };
  }
  if (type === 'location') {
    const latitude = Number(content.latitude);
    const longitude = Number(content.longitude);
    if (Number.isFinite(latitude) && Number.isFinite(longitude)) {
      const name = [content.name, content.address].filter(Boolean).join(', ');
      const meta = JSON.stringify({ latitude, longitude, ...(name ? { name } : {}) });
      return { mediaType: 'location', body: name, media: null, meta };
    }
  }
  if (type === 'button' || type === 'interactive' || type === 'reply' || type === 'button_reply') {
    return { mediaType: 'button_reply', body: replyTitle(content), media: null, meta: null };
  }
  // Kept, not dropped: the agent sees that the customer sent something the hub could not hand over.
  return { mediaType: 'unsupported', body: content.text ?? '', media: null, meta: JSON.stringify({ type }) };
}

function messageEvents(type: ChannelType, message: HubMessage, fallbackTime: number): InboundEvent[] {
  const party = partyOf(type, message);
  if (!party.chatId) return [];
  const timestamp = hubTimeOf(message.timestamp, fallbackTime);
  return message.contents.map((content, index) => ({
    kind: 'message',
    providerMessageId: index === 0 ? message.id : `${message.id}:${index}`,
    party,
    fromMe: false,
    timestamp,
    ...contentOf(content),
    quotedProviderMessageId: null,
  }));
}

const ACKS: Record<string, 1 | 2 | 3> = { SENT: 1, DELIVERED: 2, READ: 3 };
const FAILURES = new Set(['REJECTED', 'ERROR', 'FAILED']);

/** The subscription a webhook call names (every MESSAGE and MESSAGE_STATUS carries it); null when it names none. */
export function hubSubscriptionIdOf(body: unknown): string | null {
  const id = (body as { subscriptionId?: unknown } | null)?.subscriptionId;
  return typeof id === 'string' && id !== '' ? id : null;
}

/**
 * One webhook call of a channel of type `type`. A MESSAGE whose direction is OUT is the hub's echo of a send (ours, or
 * one made in the hub's own inbox): it is skipped, since our send stores its message when the hub answers, and an
 * echo arriving before that answer would store it twice. Throws a ZodError on a malformed call.
 */
export function parseHubWebhook(type: ChannelType, body: unknown, now = Date.now()): InboundEvent[] {
  const { type: kind } = hubWebhookKindSchema.parse(body);
  if (kind === 'MESSAGE') {
    const event = hubMessageEventSchema.parse(body);
    const direction = (event.message.direction ?? event.direction ?? 'IN').toUpperCase();
    if (direction !== 'IN') return [];
    return messageEvents(type, event.message, hubTimeOf(event.timestamp, now));
  }
  if (kind === 'MESSAGE_STATUS') {
    const event = hubStatusEventSchema.parse(body);
    const status = event.messageStatus;
    const code = status.code.toUpperCase();
    const timestamp = hubTimeOf(status.timestamp ?? event.timestamp, now);
    // The network's id (WhatsApp's wamid): the hub's later statuses name the message by it under new ids of their own.
    const alias = status.providerMessageId || null;
    const ack = ACKS[code];
    if (ack) return [{ kind: 'ack', providerMessageId: event.messageId, ack, timestamp, alias }];
    if (FAILURES.has(code)) {
      const reason = status.error?.message || status.description || 'rejected by the provider';
      const error = `${code}: ${reason}`;
      return [{ kind: 'send-failed', providerMessageId: event.messageId, error, timestamp, alias }];
    }
  }
  // Other kinds (the hub's channel notices) and unknown status codes: acknowledged, nothing to store.
  return [];
}
