/**
 * Evolution API v2 webhooks to normalised InboundEvents. One call carries one event (`webhook_by_events` off):
 * `messages.upsert` (a message, a reaction, or a revoke/edit protocol message), `messages.update` (receipts),
 * `messages.delete`, `messages.edited`, `connection.update`, `qrcode.updated` and `contacts.upsert`. The login's
 * history (`messages.set`) is read by evolution.history.ts, only for a channel that imports it.
 *
 * Addressing: a private chat is keyed by the phone number (digits); a chat addressed by LID (`...@lid`) is resolved
 * through `remoteJidAlt` (Baileys 7) or `senderPn`, so one customer never becomes two contacts. A LID without its
 * phone number yields no event (nothing could address it but the LID). Groups are keyed by their JID, the member who
 * wrote is the participant (`participantAlt` for a LID member). The provider message id is the WhatsApp message id.
 */
import type { MessageMediaType } from '@conversa/shared';
import type { InboundEvent, InboundMedia, InboundParty } from '../../channels.adapter.js';
import {
  evoConnectionUpdateSchema,
  evoContactSchema,
  evoMessageContentSchema,
  evoStoredMessageSchema,
  evoKeySchema,
  evoMessageSchema,
  evoMessageUpdateSchema,
  evoProtocolMessageSchema,
  evoQrcodeUpdatedSchema,
  evoWebhookSchema,
  type EvoKey,
  type EvoMessage,
  type EvoMessageContent,
  type EvoProtocolMessage,
} from './evolution.schemas.js';
import { z } from 'zod';
import { normalizeWhatsAppNumber } from '../whatsapp-number.js';

type SessionEvent = Extract<InboundEvent, { kind: 'session' }>;

const isGroupJid = (jid: string) => jid.endsWith('@g.us');
const isLid = (jid: string) => jid.endsWith('@lid');
/** Chats that are no conversation with a customer: status updates, broadcast lists, channels. */
const isIgnoredJid = (jid: string) => /@(broadcast|newsletter)$/.test(jid) || jid === 'status@broadcast';

/**
 * The phone digits of a user JID (`5511...@s.whatsapp.net`, `...:12@s.whatsapp.net`, `...@c.us`), with the ninth
 * digit rule of every WhatsApp channel (../whatsapp-number.ts); null otherwise.
 */
export function phoneOfJid(jid: string | null | undefined): string | null {
  const match = /^(\d{6,20})(?::\d+)?@(s\.whatsapp\.net|c\.us)$/.exec(jid ?? '');
  return match ? normalizeWhatsAppNumber(match[1]!) : null;
}

/** The phone JID of a key's chat: the JID itself, or its alternate when it is a LID. */
function chatPhone(key: EvoKey): string | null {
  if (!isLid(key.remoteJid)) return phoneOfJid(key.remoteJid);
  return phoneOfJid(key.remoteJidAlt) ?? phoneOfJid(key.senderPn);
}

function participantPhone(key: EvoKey): string | null {
  if (!key.participant) return null;
  return isLid(key.participant) ? phoneOfJid(key.participantAlt) : phoneOfJid(key.participant);
}

/** Who the key's chat is; null for chats this product does not serve or cannot address. */
export function partyOfKey(key: EvoKey, pushName: string | null | undefined): InboundParty | null {
  if (isIgnoredJid(key.remoteJid)) return null;
  if (isGroupJid(key.remoteJid)) {
    const member = key.fromMe ? null : participantPhone(key);
    return {
      chatId: key.remoteJid,
      isGroup: true,
      name: key.remoteJid.split('@')[0]!,
      number: null,
      idField: 'number',
      participant: member ? { id: member, name: pushName?.trim() || member, number: member, idField: 'number' } : null,
    };
  }
  const phone = chatPhone(key);
  if (!phone) return null;
  // On our own messages (written on the phone) pushName is the account's name, not the customer's.
  const name = (!key.fromMe && pushName?.trim()) || phone;
  return { chatId: phone, isGroup: false, name, number: phone, idField: 'number' };
}

/** The media reference the download asks Evolution for (getBase64FromMediaMessage finds the message by its key). */
export const evolutionMediaRef = (key: EvoKey): string =>
  JSON.stringify({ remoteJid: key.remoteJid, fromMe: key.fromMe, id: key.id });

const refSchema = z.object({ remoteJid: z.string(), fromMe: z.boolean(), id: z.string().min(1) });
export function parseEvolutionMediaRef(ref: string): z.infer<typeof refSchema> | null {
  try {
    const parsed = refSchema.safeParse(JSON.parse(ref));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const WRAPPERS = [
  'ephemeralMessage',
  'viewOnceMessage',
  'viewOnceMessageV2',
  'viewOnceMessageV2Extension',
  'documentWithCaptionMessage',
] as const;

/** The content inside ephemeral, view-once and document-with-caption wrappers. */
function unwrap(message: Record<string, unknown>): EvoMessageContent {
  let current: Record<string, unknown> = message;
  for (let depth = 0; depth < 4; depth++) {
    const wrapper = WRAPPERS.find((name) => current[name] && typeof current[name] === 'object');
    const inner = wrapper ? (current[wrapper] as { message?: unknown }).message : undefined;
    if (!inner || typeof inner !== 'object') break;
    current = { ...current, [wrapper!]: undefined, ...(inner as Record<string, unknown>) };
  }
  return evoMessageContentSchema.parse(current);
}

interface Content {
  mediaType: MessageMediaType;
  media: InboundMedia | null;
  body: string;
  meta: string | null;
  isSticker: boolean;
}

type Media = {
  mimetype?: string | null;
  caption?: string | null;
  fileName?: string | null;
  fileLength?: number | null;
};

function mediaContent(key: EvoKey, content: EvoMessageContent): Content | null {
  const make = (mediaType: MessageMediaType, file: Media, fallbackMime: string, isSticker = false): Content => ({
    mediaType,
    media: {
      ref: evolutionMediaRef(key),
      mime: file.mimetype ?? fallbackMime,
      name: file.fileName ?? null,
      size: file.fileLength ?? null,
    },
    body: isSticker ? '' : (file.caption ?? ''),
    meta: null,
    isSticker,
  });
  if (content.imageMessage) return make('image', content.imageMessage, 'image/jpeg');
  if (content.stickerMessage) return make('sticker', content.stickerMessage, 'image/webp', true);
  if (content.audioMessage) {
    return make(content.audioMessage.ptt ? 'ptt' : 'audio', content.audioMessage, 'audio/ogg');
  }
  if (content.videoMessage) return make('video', content.videoMessage, 'video/mp4');
  if (content.documentMessage) return make('application', content.documentMessage, 'application/octet-stream');
  return null;
}

const vcardName = (vcard: string): string | null => /^FN:(.*)$/m.exec(vcard)?.[1]?.trim() ?? null;
const vcardPhone = (vcard: string): string | null =>
  /waid=(\d+)/.exec(vcard)?.[1] ?? /TEL[^:]*:(.+)$/m.exec(vcard)?.[1]?.trim() ?? null;

function structuredContent(content: EvoMessageContent): Content | null {
  const place = content.locationMessage ?? content.liveLocationMessage;
  if (place) {
    const named = content.locationMessage;
    const name = [named?.name, named?.address].filter(Boolean).join(', ');
    const meta = JSON.stringify({
      latitude: place.degreesLatitude,
      longitude: place.degreesLongitude,
      ...(name ? { name } : {}),
    });
    return { mediaType: 'location', media: null, body: name, meta, isSticker: false };
  }
  const cards = content.contactMessage ? [content.contactMessage] : (content.contactsArrayMessage?.contacts ?? []);
  if (cards.length > 0) {
    const body = cards
      .map((card) => [card.displayName ?? vcardName(card.vcard), vcardPhone(card.vcard)].filter(Boolean).join(' '))
      .join('\n');
    return {
      mediaType: 'vcard',
      media: null,
      body,
      meta: cards.map((card) => card.vcard).join('\n'),
      isSticker: false,
    };
  }
  return null;
}

function textOf(content: EvoMessageContent): string | null {
  return content.conversation ?? content.extendedTextMessage?.text ?? null;
}

function quotedId(message: EvoMessage, content: EvoMessageContent): string | null {
  const inner = Object.values(content).find(
    (value): value is { contextInfo?: { stanzaId?: string | null } | null } =>
      typeof value === 'object' && value !== null && 'contextInfo' in value,
  );
  return message.contextInfo?.stanzaId ?? inner?.contextInfo?.stanzaId ?? null;
}

const seconds = (value: number | null | undefined): number => (value ? value * 1000 : Date.now());

function protocolOf(content: EvoMessageContent): EvoProtocolMessage | null {
  const edited = content.editedMessage as { message?: { protocolMessage?: unknown } } | undefined;
  const raw = content.protocolMessage ?? edited?.message?.protocolMessage;
  if (!raw) return null;
  const parsed = evoProtocolMessageSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** A revoke (REVOKE = 0) becomes a delete, an edit (MESSAGE_EDIT = 14) an edit; other protocol messages nothing. */
function protocolEvent(protocol: EvoProtocolMessage, outer: EvoKey | null, at: number): InboundEvent | null {
  const type = protocol.type;
  if (type === 'REVOKE' || type === 0) return { kind: 'delete', providerMessageId: protocol.key.id, timestamp: at };
  if (type !== 'MESSAGE_EDIT' && type !== 14) return null;
  const edited = protocol.editedMessage ? evoMessageContentSchema.safeParse(protocol.editedMessage) : null;
  const content = edited?.success ? edited.data : null;
  const body = (content && textOf(content)) ?? content?.imageMessage?.caption ?? content?.videoMessage?.caption ?? null;
  // The chat is the outer message's (our point of view); the inner key is the editor's. Ingestion finds the edited
  // message by its id alone, so a chat that cannot be addressed still carries the edit.
  const key = outer ?? protocol.key;
  const party = partyOfKey(key, null) ?? {
    chatId: key.remoteJid,
    isGroup: isGroupJid(key.remoteJid),
    name: '',
    number: null,
    idField: 'number' as const,
  };
  if (body === null) return null;
  return { kind: 'edit', providerMessageId: protocol.key.id, party, body, timestamp: protocol.timestampMs ?? at };
}

/**
 * One stored message as Evolution hands it over (`messages.upsert` data, a `messages.set` or `findMessages` record:
 * `prepareMessage` output) to its event: a message, a reaction, an edit or a delete; null when nothing to keep.
 */
export function parseEvolutionMessage(data: unknown): InboundEvent | null {
  const message = evoMessageSchema.parse(data);
  const { key } = message;
  const at = seconds(message.messageTimestamp);
  const content = unwrap(message.message ?? {});
  const protocol = protocolOf(content);
  if (protocol) return protocolEvent(protocol, key, at);
  const party = partyOfKey(key, message.pushName);
  if (!party) return null;
  if (content.reactionMessage) {
    return {
      kind: 'reaction',
      providerMessageId: content.reactionMessage.key.id,
      party,
      reaction: content.reactionMessage.text ?? '',
      timestamp: at,
    };
  }
  const text = textOf(content);
  const found =
    mediaContent(key, content) ??
    structuredContent(content) ??
    (text !== null ? { mediaType: 'chat' as const, media: null, body: text, meta: null, isSticker: false } : null);
  if (!found) return null;
  return {
    kind: 'message',
    providerMessageId: key.id,
    party,
    fromMe: key.fromMe,
    timestamp: at,
    ...found,
    quotedProviderMessageId: quotedId(message, content),
  };
}

const ACKS: Record<string, 1 | 2 | 3 | 4> = { SERVER_ACK: 1, DELIVERY_ACK: 2, READ: 3, PLAYED: 4 };

/**
 * The reason shown on a message Evolution reports as `ERROR` (Baileys' status 0: WhatsApp did not take it); the
 * update names no cause of its own.
 */
export const EVOLUTION_SEND_ERROR = 'WhatsApp did not accept the message (Evolution status ERROR)';

/**
 * Receipts of our own messages; a receipt of the customer's message (our phone read it) is no ack. `ERROR` marks
 * our message undelivered.
 */
function updateEvent(data: unknown): InboundEvent | null {
  const update = evoMessageUpdateSchema.parse(data);
  if (update.status === 'ERROR' && update.fromMe !== false) {
    return { kind: 'send-failed', providerMessageId: update.keyId, error: EVOLUTION_SEND_ERROR, timestamp: Date.now() };
  }
  const ack = update.status ? ACKS[update.status] : undefined;
  if (!ack || update.fromMe === false) return null;
  return { kind: 'ack', providerMessageId: update.keyId, ack, timestamp: Date.now() };
}

function deleteEvent(data: unknown): InboundEvent {
  const stored = evoStoredMessageSchema.safeParse(data);
  const key = stored.success ? stored.data.key : evoKeySchema.parse(data);
  return { kind: 'delete', providerMessageId: key.id, timestamp: Date.now() };
}

function connectionEvent(data: unknown): SessionEvent | null {
  const update = evoConnectionUpdateSchema.parse(data);
  if (update.state === 'open') {
    return {
      kind: 'session',
      status: 'CONNECTED',
      number: phoneOfJid(update.wuid),
      ...(update.profilePictureUrl !== undefined ? { profilePicUrl: update.profilePictureUrl ?? null } : {}),
    };
  }
  // Evolution posts `close` only when it gives up (logged out, forbidden): a close it recovers from is followed by
  // its reconnection, posted as `connecting`, which is where the session stands until `open` (the QR codes of a
  // new login arrive as qrcode.updated after it).
  if (update.state === 'close' || update.state === 'refused') return { kind: 'session', status: 'DISCONNECTED' };
  if (update.state === 'connecting') return { kind: 'session', status: 'OPENING' };
  return null;
}

function qrcodeEvent(data: unknown): SessionEvent {
  const parsed = evoQrcodeUpdatedSchema.parse(data);
  if (!parsed.qrcode) return { kind: 'session', status: 'TIMEOUT' };
  const { code, pairingCode } = parsed.qrcode;
  return {
    kind: 'session',
    status: pairingCode ? 'PAIRING' : 'qrcode',
    qrcode: code ?? null,
    pairingCode: pairingCode ?? null,
  };
}

function contactEvents(data: unknown): InboundEvent[] {
  const list = z.array(evoContactSchema).parse(Array.isArray(data) ? data : [data]);
  const events: InboundEvent[] = [];
  for (const contact of list) {
    const phone = phoneOfJid(contact.remoteJid);
    if (!phone || !contact.pushName?.trim() || contact.pushName === phone) continue;
    events.push({
      kind: 'contact',
      party: {
        chatId: phone,
        isGroup: false,
        name: contact.pushName.trim(),
        number: phone,
        idField: 'number',
        ...(contact.profilePicUrl ? { profilePicUrl: contact.profilePicUrl } : {}),
      },
    });
  }
  return events;
}

/**
 * One webhook call. Event names arrive as `messages.upsert` (or `MESSAGES_UPSERT` from older servers). An event of
 * another instance, or of a kind not asked for, yields nothing (acknowledged so Evolution does not resend). Throws a
 * ZodError on a malformed payload.
 */
export function parseEvolutionWebhook(body: unknown, instanceName: string | null): InboundEvent[] {
  const envelope = evoWebhookSchema.parse(body);
  if (instanceName && envelope.instance && envelope.instance !== instanceName) return [];
  const event = envelope.event.toLowerCase().replace(/_/g, '.');
  const one = (value: InboundEvent | null) => (value ? [value] : []);
  switch (event) {
    case 'messages.upsert':
      // Some servers send a list of messages in one call.
      return Array.isArray(envelope.data)
        ? envelope.data.flatMap((m) => one(parseEvolutionMessage(m)))
        : one(parseEvolutionMessage(envelope.data));
    case 'messages.update':
      return Array.isArray(envelope.data)
        ? envelope.data.flatMap((u) => one(updateEvent(u)))
        : one(updateEvent(envelope.data));
    case 'messages.delete':
      return [deleteEvent(envelope.data)];
    case 'messages.edited':
      return one(protocolEvent(evoProtocolMessageSchema.parse(envelope.data), null, Date.now()));
    case 'connection.update':
      return one(connectionEvent(envelope.data));
    case 'qrcode.updated':
      return [qrcodeEvent(envelope.data)];
    case 'contacts.upsert':
      return contactEvents(envelope.data);
    default:
      return [];
  }
}
