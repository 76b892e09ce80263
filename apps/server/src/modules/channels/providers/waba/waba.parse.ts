/**
 * Cloud API webhooks -> InboundEvents. One POST carries entries of changes; only `field: messages` changes of the
 * channel's own phone number are read (another number's change, a template status update, account alerts yield
 * nothing and are still acknowledged, so Meta does not resend them). Every message type Meta documents becomes a
 * message event; types we cannot show are stored as `unsupported` with a body naming the type, so the agent knows
 * the customer wrote. Statuses become acks (sent 1, delivered 2, read 3, played 4) with the pricing Meta billed, or
 * `send-failed` with "<code>: <title>".
 *
 * Contacts: the sender's phone (`from`, E.164 digits) keys the contact like every WhatsApp channel. A user who hid
 * the number behind a username arrives with only a business-scoped user id (BSUID, `from_user_id` /
 * `contacts[].user_id`, e.g. `BR.1502576394655843`); that id is no phone number, so the contact is keyed by it on
 * the `messengerId` field (a Meta-scoped id field, see WABA_BSUID_ID_FIELD) instead of being dropped or mistaken for
 * a number. A group message (`group_id`) belongs to the group's contact and ticket, the sender being its participant.
 */
import type { MessageMediaType } from '@conversa/shared';
import type { InboundEvent, InboundMedia, InboundParty } from '../../channels.adapter.js';
import {
  wabaChangeValueSchema,
  wabaWebhookSchema,
  type WabaChangeValue,
  type WabaInboundMessage,
  type WabaStatus,
} from './waba.schemas.js';

/** Where a contact known only by its business-scoped user id keeps that id (see the file comment). */
export const WABA_BSUID_ID_FIELD = 'messengerId' as const;

/** A business-scoped user id: country code, a period, letters and digits (parent ids have `.ENT.`). */
export const BSUID_PATTERN = /^[A-Z]{2}\.(?:ENT\.)?[A-Za-z0-9]{1,128}$/;

const ACKS: Record<string, 1 | 2 | 3 | 4> = { sent: 1, delivered: 2, read: 3, played: 4 };

type Contacts = Map<string, { name: string | null }>;

function contactsOf(value: WabaChangeValue): Contacts {
  const map: Contacts = new Map();
  for (const contact of value.contacts ?? []) {
    const name = contact.profile?.name?.trim() || contact.profile?.username?.trim() || null;
    if (contact.wa_id) map.set(contact.wa_id, { name });
    if (contact.user_id) map.set(contact.user_id, { name });
  }
  return map;
}

/** The person who wrote: by phone (wa_id), else by business-scoped user id; null when neither is usable. */
function senderOf(message: WabaInboundMessage, contacts: Contacts): InboundParty | null {
  const phone = message.from?.replace(/\D/g, '') ?? '';
  if (phone.length >= 8 && phone.length <= 15) {
    const name = contacts.get(message.from!)?.name ?? contacts.get(phone)?.name ?? phone;
    return { chatId: phone, isGroup: false, name, number: phone, idField: 'number' };
  }
  const userId = message.from_user_id ?? (message.from && BSUID_PATTERN.test(message.from) ? message.from : null);
  if (userId && BSUID_PATTERN.test(userId)) {
    const name = contacts.get(userId)?.name ?? userId;
    return { chatId: userId, isGroup: false, name, number: null, idField: WABA_BSUID_ID_FIELD };
  }
  return null;
}

/**
 * The chat of a message: the sender's one-to-one chat, or, with `group_id`, the group (its contact keyed by the
 * group id on the number field, as every WhatsApp channel keys groups; the webhook names no subject, so the id is
 * its name until someone renames it) with the sender as the participant, like the other WhatsApp providers.
 */
function partyOf(message: WabaInboundMessage, contacts: Contacts): InboundParty | null {
  const sender = senderOf(message, contacts);
  if (!message.group_id) return sender;
  const participant = sender
    ? { id: sender.chatId, name: sender.name, number: sender.number, idField: sender.idField }
    : null;
  return {
    chatId: message.group_id,
    isGroup: true,
    name: message.group_id,
    number: null,
    idField: 'number',
    participant,
  };
}

function media(
  object: { id: string; mime_type?: string; filename?: string } | undefined,
  fallbackMime: string,
): InboundMedia | null {
  if (!object) return null;
  return {
    ref: object.id,
    mime: object.mime_type?.split(';')[0]?.trim() || fallbackMime,
    name: object.filename ?? null,
    size: null,
  };
}

interface Content {
  mediaType: MessageMediaType;
  body: string;
  media: InboundMedia | null;
  meta: string | null;
  isSticker: boolean;
}

const plain = (mediaType: MessageMediaType, body: string, meta: string | null = null): Content => ({
  mediaType,
  body,
  media: null,
  meta,
  isSticker: false,
});

/** A vCard of a shared contact card (names and phones; what the bubble and "add contact" read). */
function vcardOf(card: NonNullable<WabaInboundMessage['contacts']>[number]): { name: string; vcard: string } {
  const name = card.name?.formatted_name ?? card.name?.first_name ?? '';
  const clean = (value: string) => value.replace(/[\r\n]/g, ' ');
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `FN:${clean(name)}`];
  for (const phone of card.phones ?? []) {
    const number = phone.phone ?? phone.wa_id;
    if (!number) continue;
    lines.push(phone.wa_id ? `TEL;waid=${clean(phone.wa_id)}:${clean(number)}` : `TEL:${clean(number)}`);
  }
  for (const email of card.emails ?? []) if (email.email) lines.push(`EMAIL:${clean(email.email)}`);
  if (card.org?.company) lines.push(`ORG:${clean(card.org.company)}`);
  lines.push('END:VCARD');
  return { name, vcard: lines.join('\n') };
}

/** Body of a message type we store but cannot show (the bubble names the type). */
export const unsupportedBody = (type: string) => `[${type.slice(0, 64)}]`;

function contentOf(message: WabaInboundMessage): Content {
  const unsupported = () => {
    const title = message.errors?.[0]?.title;
    return plain('unsupported', title ? `${unsupportedBody(message.type)} ${title}` : unsupportedBody(message.type));
  };
  switch (message.type) {
    case 'text':
      return message.text ? plain('chat', message.text.body) : unsupported();
    case 'image':
    case 'video':
    case 'document': {
      const object = message[message.type];
      if (!object) return unsupported();
      const mediaType = message.type === 'document' ? 'application' : message.type;
      const fallback = { image: 'image/jpeg', video: 'video/mp4', document: 'application/octet-stream' }[message.type];
      return { ...plain(mediaType, object.caption ?? ''), media: media(object, fallback) };
    }
    case 'audio': {
      if (!message.audio) return unsupported();
      // Voice notes (recorded in WhatsApp) are `voice: true`; they play as ptt.
      const mediaType = message.audio.voice ? 'ptt' : 'audio';
      return { ...plain(mediaType, ''), media: media(message.audio, 'audio/ogg') };
    }
    case 'sticker':
      if (!message.sticker) return unsupported();
      return { ...plain('sticker', ''), media: media(message.sticker, 'image/webp'), isSticker: true };
    case 'location': {
      const place = message.location;
      if (!place) return unsupported();
      const name = [place.name, place.address].filter(Boolean).join(', ');
      const meta = JSON.stringify({ latitude: place.latitude, longitude: place.longitude, ...(name ? { name } : {}) });
      return plain('location', name, meta);
    }
    case 'contacts': {
      const cards = (message.contacts ?? []).map(vcardOf);
      if (cards.length === 0) return unsupported();
      return plain('vcard', cards.map((c) => c.name).join(', '), cards.map((c) => c.vcard).join('\n'));
    }
    case 'interactive': {
      const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
      return reply ? plain('button_reply', reply.title) : unsupported();
    }
    case 'button':
      // A quick-reply button of a template.
      return message.button ? plain('button_reply', message.button.text) : unsupported();
    default:
      return unsupported();
  }
}

function messageEvents(message: WabaInboundMessage, contacts: Contacts): InboundEvent[] {
  const party = partyOf(message, contacts);
  // Without a phone or a user id there is nobody to answer: nothing to store.
  if (!party) return [];
  const timestamp = message.timestamp * 1000;
  if (message.type === 'reaction' && message.reaction) {
    // An empty emoji removes the customer's reaction.
    return [
      {
        kind: 'reaction',
        providerMessageId: message.reaction.message_id,
        party,
        reaction: message.reaction.emoji ?? '',
        timestamp,
      },
    ];
  }
  if ((message.type === 'edit' || message.type === 'message_edit') && message.edit) {
    const edited = message.edit.message;
    const body = edited?.text?.body ?? edited?.caption;
    if (body === undefined) return [];
    return [{ kind: 'edit', providerMessageId: message.edit.original_message_id, party, body, timestamp }];
  }
  return [
    {
      kind: 'message',
      providerMessageId: message.id,
      party,
      fromMe: false,
      timestamp,
      ...contentOf(message),
      quotedProviderMessageId: message.context?.id ?? null,
    },
  ];
}

/** "<code>: <title>" of a failed status (Meta's title, else its message/details). */
export function statusErrorText(status: WabaStatus): string {
  const error = status.errors?.[0];
  if (!error) return 'failed';
  const text = error.title ?? error.message ?? error.error_data?.details ?? 'failed';
  return (error.code !== undefined ? `${error.code}: ${text}` : text).slice(0, 500);
}

function statusEvent(status: WabaStatus): InboundEvent | null {
  const timestamp = status.timestamp * 1000;
  if (status.status === 'failed') {
    return { kind: 'send-failed', providerMessageId: status.id, error: statusErrorText(status), timestamp };
  }
  const ack = ACKS[status.status];
  // `deleted` and `warning` change nothing we show.
  if (!ack) return null;
  const category = status.pricing?.category ?? null;
  const conversationId = status.conversation?.id ?? null;
  const pricing = category || conversationId ? { category, conversationId } : null;
  return { kind: 'ack', providerMessageId: status.id, ack, timestamp, ...(pricing ? { pricing } : {}) };
}

/** The events of one change value (already known to be the channel's number). */
export function parseWabaValue(value: unknown): InboundEvent[] {
  const parsed = wabaChangeValueSchema.parse(value);
  const contacts = contactsOf(parsed);
  const events: (InboundEvent | null)[] = [];
  for (const message of parsed.messages ?? []) events.push(...messageEvents(message, contacts));
  for (const status of parsed.statuses ?? []) events.push(statusEvent(status));
  return events.filter((event): event is InboundEvent => event !== null);
}

/** The `messages` changes of a webhook body, with the phone number id each one is for (app-level routing). */
export function wabaMessageChanges(body: unknown): { phoneNumberId: string; value: unknown }[] {
  const webhook = wabaWebhookSchema.parse(body);
  const changes: { phoneNumberId: string; value: unknown }[] = [];
  for (const entry of webhook.entry) {
    for (const change of entry.changes) {
      if (change.field !== 'messages') continue;
      const metadata = (change.value as { metadata?: { phone_number_id?: unknown } } | null)?.metadata;
      const phoneNumberId = typeof metadata?.phone_number_id === 'string' ? metadata.phone_number_id : '';
      changes.push({ phoneNumberId, value: change.value });
    }
  }
  return changes;
}

/**
 * Events of a webhook for the channel whose phone number id is `phoneNumberId`: changes of other numbers are left
 * out (a per-channel URL shared by mistake must not store another number's messages). Throws a ZodError when the
 * body or one of the channel's changes is malformed.
 */
export function parseWabaWebhook(body: unknown, phoneNumberId: string | null): InboundEvent[] {
  const events: InboundEvent[] = [];
  for (const change of wabaMessageChanges(body)) {
    if (!phoneNumberId || change.phoneNumberId !== phoneNumberId) continue;
    events.push(...parseWabaValue(change.value));
  }
  return events;
}
