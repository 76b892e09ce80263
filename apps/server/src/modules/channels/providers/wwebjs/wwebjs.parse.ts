/**
 * whatsapp-web.js events -> normalized InboundEvents (pure: no client, no database). The library hands over its own
 * structures (Message, Reaction); each is read through a loose zod schema of the fields used, and one that does not
 * fit is skipped (the driver logs it), never half-read.
 *
 * Addressing. WhatsApp Web names a person `<digits>@c.us` or, since the LID migration, `<id>@lid`, and a group
 * `<id>@g.us`. A LID is resolved to the phone id when the library tells (`getContactLidAndPhone`, asked by the driver
 * and handed in through `ParseContext.pnForLid`), so one person is one contact whichever address a message came
 * from; an unresolved LID stays a LID chat without a number, like the Baileys driver's. Numbers follow the same
 * Brazilian ninth-digit rule as Baileys (one function, imported from baileys.parse.ts).
 *
 * Message ids. `providerMessageId` is the message's own id (`id.id`, the stanza id), the one quotes
 * (`_data.quotedStanzaID`), acks, edits, revokes and reactions name, and the one Baileys uses too. The library's
 * actions need the serialized id (`<fromMe>_<chat>_<id>[_<participant>]`): the driver remembers it per message and
 * rebuilds it otherwise. A media ref is the serialized id (the library downloads only through the live client).
 */
import { z } from 'zod';
import type { MessageMediaType } from '@conversa/shared';
import type { InboundEvent, InboundParty } from '../../channels.adapter.js';
import { normalizeWhatsAppNumber } from '../whatsapp-number.js';

export interface ParseContext {
  /** The phone id of a LID (`123@lid` -> `5511988887777@c.us`) when known, else null. */
  pnForLid(lid: string): string | null;
  /** A group's name when known. */
  groupName(jid: string): string | null;
}

export const emptyContext: ParseContext = { pnForLid: () => null, groupName: () => null };

// ---- ids ----------------------------------------------------------------------------------------------------------

/** The user part of an id without device (`5511...:7@c.us` -> `5511...`). */
export const idUser = (jid: string): string => jid.split('@')[0]!.split(':')[0]!;
export const isGroupId = (jid: string) => jid.endsWith('@g.us');
export const isLidId = (jid: string) => jid.endsWith('@lid');
export const isPhoneId = (jid: string) => jid.endsWith('@c.us') || jid.endsWith('@s.whatsapp.net');
/** `123:4@lid` -> `123@lid`, the key of the LID map. */
export const bareLid = (jid: string) => `${idUser(jid)}@lid`;

/** Chats the product has no ticket for: status updates, broadcast lists, newsletters. */
export const isIgnoredChat = (jid: string) =>
  jid === 'status@broadcast' || jid.endsWith('@broadcast') || jid.endsWith('@newsletter');

const serializedIdSchema = z.looseObject({
  fromMe: z.boolean().nullish(),
  remote: z.union([z.string(), z.looseObject({ _serialized: z.string() })]).nullish(),
  id: z.string(),
  participant: z.union([z.string(), z.looseObject({ _serialized: z.string() })]).nullish(),
  _serialized: z.string().nullish(),
});
type MessageKey = {
  fromMe: boolean;
  remote: string | null;
  id: string;
  participant: string | null;
  serialized: string | null;
};

const jidOf = (value: string | { _serialized: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value._serialized;

/** `true_5511...@c.us_3EB0...[_participant]` -> its parts; null when it is not a serialized message id. */
export function parseSerializedId(serialized: string): MessageKey | null {
  const match = /^(true|false)_([^_]+@[^_]+)_([^_]+)(?:_(.+))?$/.exec(serialized);
  if (!match) return null;
  return { fromMe: match[1] === 'true', remote: match[2]!, id: match[3]!, participant: match[4] ?? null, serialized };
}

/** A message key as the library passes it: an object (`MessageId`) or, through the page bridge, its serialized form. */
function keyOf(value: unknown): MessageKey | null {
  if (typeof value === 'string') return parseSerializedId(value);
  const parsed = serializedIdSchema.safeParse(value);
  if (!parsed.success) return null;
  const key = parsed.data;
  const remote = jidOf(key.remote);
  const participant = jidOf(key.participant);
  const serialized =
    key._serialized ??
    (remote ? `${Boolean(key.fromMe)}_${remote}_${key.id}${participant ? `_${participant}` : ''}` : null);
  return { fromMe: Boolean(key.fromMe), remote, id: key.id, participant, serialized };
}

/** The connected account's number from `client.info.wid`; null when WhatsApp Web names it by LID only. */
export function normalizeOwnNumber(wid: { user: string; server: string }): string | null {
  return wid.server === 'c.us' || wid.server === 's.whatsapp.net' ? normalizeWhatsAppNumber(wid.user) : null;
}

// ---- parties ------------------------------------------------------------------------------------------------------

/** A person: chatId is the normalized number when known, else the bare LID. */
export function personParty(jid: string, name: string | null | undefined, ctx: ParseContext): InboundParty {
  const phone = isPhoneId(jid) ? jid : isLidId(jid) ? ctx.pnForLid(bareLid(jid)) : null;
  const number = phone ? normalizeWhatsAppNumber(idUser(phone)) : null;
  const chatId = number ?? (isLidId(jid) ? bareLid(jid) : jid);
  return { chatId, isGroup: false, name: name?.trim() || number || chatId, number, idField: 'number' };
}

function groupParty(jid: string, ctx: ParseContext): InboundParty {
  return { chatId: jid, isGroup: true, name: ctx.groupName(jid) ?? idUser(jid), number: null, idField: 'number' };
}

/** The chat and, in a group, the member who wrote (not set for our own messages). */
function partyOf(chat: string, author: string | null, fromMe: boolean, name: string | null, ctx: ParseContext) {
  if (!isGroupId(chat)) return personParty(chat, fromMe ? null : name, ctx);
  const party = groupParty(chat, ctx);
  if (author && !fromMe) {
    const member = personParty(author, name, ctx);
    party.participant = { id: member.chatId, name: member.name, number: member.number, idField: 'number' };
  }
  return party;
}

// ---- messages -----------------------------------------------------------------------------------------------------

const str = z.string().nullish();
const messageSchema = z.looseObject({
  id: serializedIdSchema,
  from: str,
  to: str,
  author: str,
  body: z.string().nullish(),
  type: z.string(),
  timestamp: z.number().nullish(),
  hasMedia: z.boolean().nullish(),
  hasQuotedMsg: z.boolean().nullish(),
  isStatus: z.boolean().nullish(),
  broadcast: z.boolean().nullish(),
  ack: z.number().nullish(),
  location: z
    .looseObject({ latitude: z.coerce.number(), longitude: z.coerce.number(), name: str, address: str })
    .nullish(),
  vCards: z.array(z.string()).nullish(),
  latestEditSenderTimestampMs: z.number().nullish(),
  protocolMessageKey: z.unknown().optional(),
  _data: z
    .looseObject({
      notifyName: str,
      quotedStanzaID: str,
      mimetype: str,
      filename: str,
      size: z.number().nullish(),
    })
    .nullish(),
});
export type WwebjsMessageLike = z.input<typeof messageSchema>;
type Message = z.infer<typeof messageSchema>;

/** The chat of a message: `id.remote`, else the other side of from/to. */
function chatOf(msg: Message): string | null {
  return jidOf(msg.id.remote) ?? (msg.id.fromMe ? msg.to : msg.from) ?? null;
}

const secondsToMs = (seconds: number | null | undefined, fallback: number) =>
  seconds ? Math.round(seconds * 1000) : fallback;

const MEDIA: Record<string, { mediaType: MessageMediaType; mime: string }> = {
  image: { mediaType: 'image', mime: 'image/jpeg' },
  video: { mediaType: 'video', mime: 'video/mp4' },
  audio: { mediaType: 'audio', mime: 'audio/ogg' },
  ptt: { mediaType: 'ptt', mime: 'audio/ogg; codecs=opus' },
  document: { mediaType: 'application', mime: 'application/octet-stream' },
  sticker: { mediaType: 'sticker', mime: 'image/webp' },
};
/** Answers to buttons and lists: their body is the text the customer chose. */
const CHOICES = new Set(['buttons_response', 'list_response', 'template_button_reply']);

const vcardName = (vcard: string) => /^FN[^:]*:(.*)$/m.exec(vcard)?.[1]?.trim() ?? '';

interface Content {
  mediaType: MessageMediaType;
  body: string;
  media: { ref: string; mime: string | null; name: string | null; size: number | null } | null;
  meta: string | null;
  isSticker: boolean;
}

function contentOf(msg: Message, serialized: string | null): Content | null {
  const base = { media: null, meta: null, isSticker: false };
  const body = msg.body ?? '';
  if (msg.type === 'chat' || (CHOICES.has(msg.type) && body)) return { ...base, mediaType: 'chat', body };
  const media = MEDIA[msg.type];
  if (media) {
    const data = msg._data;
    const name = data?.filename ?? null;
    return {
      mediaType: media.mediaType,
      body: msg.type === 'sticker' ? '' : body || (msg.type === 'document' ? (name ?? '') : ''),
      media:
        msg.hasMedia && serialized
          ? { ref: serialized, mime: data?.mimetype ?? media.mime, name, size: data?.size ?? null }
          : null,
      meta: null,
      isSticker: msg.type === 'sticker',
    };
  }
  if (msg.type === 'location' && msg.location) {
    const { latitude, longitude, name, address } = msg.location;
    const label = [name, address].filter(Boolean).join(', ');
    const meta = JSON.stringify({ latitude, longitude, ...(label ? { name: label } : {}) });
    return { ...base, mediaType: 'location', body: label, meta };
  }
  if ((msg.type === 'vcard' || msg.type === 'multi_vcard') && msg.vCards?.length) {
    return {
      ...base,
      mediaType: 'vcard',
      body: msg.vCards.map(vcardName).filter(Boolean).join(', '),
      meta: msg.vCards.map((card) => card.trim()).join('\n'),
    };
  }
  return null; // revoked, ciphertext, notifications, protocol messages, polls, unknown kinds
}

/** The LIDs of a message the driver should resolve before parsing it (chat and author). */
export function lidsOfMessage(raw: unknown): string[] {
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success) return [];
  const chat = chatOf(parsed.data);
  return [chat, parsed.data.author].filter((jid): jid is string => Boolean(jid && isLidId(jid))).map(bareLid);
}

/** The serialized id of a message (what the library's actions take). */
export function serializedIdOf(raw: unknown): { id: string; serialized: string } | null {
  const parsed = z.looseObject({ id: z.unknown() }).safeParse(raw);
  const key = parsed.success ? keyOf(parsed.data.id) : null;
  return key?.serialized ? { id: key.id, serialized: key.serialized } : null;
}

/** A received or phone-written message ('message' / 'message_create'). */
export function parseMessage(raw: unknown, ctx: ParseContext = emptyContext, now = Date.now()): InboundEvent[] {
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success) return [];
  const msg = parsed.data;
  const chat = chatOf(msg);
  if (!chat || msg.isStatus || msg.broadcast || isIgnoredChat(chat)) return [];
  const key = keyOf(msg.id);
  const content = contentOf(msg, key?.serialized ?? null);
  if (!content) return [];
  const fromMe = Boolean(msg.id.fromMe);
  return [
    {
      kind: 'message',
      providerMessageId: msg.id.id,
      party: partyOf(chat, msg.author ?? null, fromMe, msg._data?.notifyName ?? null, ctx),
      fromMe,
      timestamp: secondsToMs(msg.timestamp, now),
      mediaType: content.mediaType,
      body: content.body,
      media: content.media,
      isSticker: content.isSticker,
      meta: content.meta,
      quotedProviderMessageId: (msg.hasQuotedMsg && msg._data?.quotedStanzaID) || null,
    },
  ];
}

/** 'message_ack' (message, ack): MessageAck 1 server, 2 device, 3 read, 4 played; pending (0) and error (-1) none. */
export function parseAck(raw: unknown, ack: unknown, now = Date.now()): InboundEvent[] {
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success || typeof ack !== 'number') return [];
  if (ack !== 1 && ack !== 2 && ack !== 3 && ack !== 4) return [];
  const chat = chatOf(parsed.data);
  if (!chat || isIgnoredChat(chat)) return [];
  return [{ kind: 'ack', providerMessageId: parsed.data.id.id, ack, timestamp: now }];
}

/** 'message_edit' (message, newBody, prevBody): the message already carries the new text. */
export function parseEdit(
  raw: unknown,
  newBody: unknown,
  ctx: ParseContext = emptyContext,
  now = Date.now(),
): InboundEvent[] {
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success || parsed.data.type === 'revoked') return [];
  const msg = parsed.data;
  const chat = chatOf(msg);
  if (!chat || isIgnoredChat(chat)) return [];
  const body = typeof newBody === 'string' ? newBody : (msg.body ?? '');
  return [
    {
      kind: 'edit',
      providerMessageId: msg.id.id,
      party: partyOf(chat, msg.author ?? null, Boolean(msg.id.fromMe), msg._data?.notifyName ?? null, ctx),
      body,
      timestamp: msg.latestEditSenderTimestampMs ?? now,
    },
  ];
}

/**
 * 'message_revoke_everyone' (message, revokedBefore): the revoked message names the original in
 * `protocolMessageKey`; the library also patches the earlier copy's id with it when it has one.
 */
export function parseRevoke(raw: unknown, before: unknown, now = Date.now()): InboundEvent[] {
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success) return [];
  const chat = chatOf(parsed.data);
  if (!chat || isIgnoredChat(chat)) return [];
  const original =
    keyOf(parsed.data.protocolMessageKey) ??
    (before ? keyOf(z.looseObject({ id: z.unknown() }).safeParse(before).data?.id) : null) ??
    keyOf(parsed.data.id);
  if (!original) return [];
  return [{ kind: 'delete', providerMessageId: original.id, timestamp: secondsToMs(parsed.data.timestamp, now) }];
}

const reactionSchema = z.looseObject({
  id: z.unknown(),
  reaction: z.string().nullish(),
  msgId: z.unknown(),
  senderId: str,
  timestamp: z.number().nullish(),
});

/** 'message_reaction' (Reaction): `msgId` is the reacted message; an empty reaction removes it. */
export function parseReaction(raw: unknown, ctx: ParseContext = emptyContext, now = Date.now()): InboundEvent[] {
  const parsed = reactionSchema.safeParse(raw);
  if (!parsed.success) return [];
  const target = keyOf(parsed.data.msgId);
  const own = keyOf(parsed.data.id);
  const chat = target?.remote ?? parsed.data.senderId ?? null;
  if (!target || !chat || isIgnoredChat(chat)) return [];
  return [
    {
      kind: 'reaction',
      providerMessageId: target.id,
      party: partyOf(chat, parsed.data.senderId ?? null, Boolean(own?.fromMe), null, ctx),
      reaction: parsed.data.reaction ?? '',
      timestamp: secondsToMs(parsed.data.timestamp, now),
    },
  ];
}

/**
 * 'contact_changed' (message, oldId, newId, isContact): a person moved to a new number. The new number is announced
 * as a contact without a name (ingestion updates only a contact it knows; nothing is merged).
 */
export function parseContactChanged(oldId: unknown, newId: unknown, ctx: ParseContext = emptyContext): InboundEvent[] {
  if (typeof newId !== 'string' || typeof oldId !== 'string' || isGroupId(newId) || isIgnoredChat(newId)) return [];
  const party = personParty(newId, null, ctx);
  if (!party.number) return [];
  return [{ kind: 'contact', party: { ...party, name: '' } }];
}

const batterySchema = z.looseObject({ battery: z.number(), plugged: z.boolean().nullish() });

/** 'change_battery' ({ battery, plugged }). */
export function parseBattery(raw: unknown): InboundEvent[] {
  const parsed = batterySchema.safeParse(raw);
  if (!parsed.success) return [];
  return [{ kind: 'battery', battery: parsed.data.battery, plugged: parsed.data.plugged ?? null }];
}

/** 'loading_screen' (percent, message): the percent arrives as a number or a string. */
export function parseLoading(percent: unknown): InboundEvent[] {
  const value = typeof percent === 'number' ? percent : Number.parseFloat(String(percent));
  if (!Number.isFinite(value)) return [];
  return [{ kind: 'session-sync', percent: Math.max(0, Math.min(100, Math.round(value))) }];
}
