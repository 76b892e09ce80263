/**
 * Baileys events -> normalized InboundEvents (pure: no socket, no database). Every library object is read through a
 * loose zod schema of the fields used; a message that does not fit is skipped (the caller logs it), never half-read.
 *
 * Addressing. A chat is a phone JID (`<digits>@s.whatsapp.net`), a group (`@g.us`) or, since WhatsApp's LID
 * migration, a LID (`<id>@lid`) that hides the number. A LID is resolved to its phone JID with what the library tells
 * (`key.remoteJidAlt` / `participantAlt`, the older `senderPn` / `participantPn`, contacts with `phoneNumber`, the
 * library's LID mapping gathered by the driver into `ParseContext.pnForLid`), so one person is one contact whichever
 * address a message came from. An unresolved LID stays a LID chat without a number.
 *
 * Numbers follow the one rule of all WhatsApp channels (../whatsapp-number.ts, the Brazilian ninth digit); the driver
 * sends to the JID WhatsApp answers for either form (onWhatsApp), so the stored number never changes.
 */
import { z } from 'zod';
import { isJidBroadcast, isJidGroup, isJidNewsletter, isJidStatusBroadcast, isLidUser, jidDecode } from 'baileys';
import type { MessageMediaType } from '@conversa/shared';
import type { InboundEvent, InboundMedia, InboundParty } from '../../channels.adapter.js';
import { normalizeWhatsAppNumber } from '../whatsapp-number.js';

export { normalizeWhatsAppNumber, whatsAppNumberForms } from '../whatsapp-number.js';

export interface ParseContext {
  /** The phone JID of a LID JID when known (`123@lid` -> `5511988887777@s.whatsapp.net`), else null. */
  pnForLid(lid: string): string | null;
  /** A group's subject when known. */
  groupName(jid: string): string | null;
}

export const emptyContext: ParseContext = { pnForLid: () => null, groupName: () => null };

// ---- numbers and JIDs -------------------------------------------------------------------------------------------

/** The user part of a JID without device (`5511...:7@s.whatsapp.net` -> `5511...`). */
export const jidUser = (jid: string): string => jidDecode(jid)?.user ?? jid.split('@')[0]!.split(':')[0]!;

/** The bare form of a LID JID (`123:4@lid` -> `123@lid`), the key of the LID map. */
export const bareLid = (jid: string): string => `${jidUser(jid)}@lid`;

const isPhoneJid = (jid: string | null | undefined): jid is string =>
  Boolean(jid && (jid.endsWith('@s.whatsapp.net') || jid.endsWith('@c.us')));

/** The phone JID a person's JID stands for: itself, its alternative address, or the LID map's answer. */
function phoneJidOf(jid: string, alternatives: (string | null | undefined)[], ctx: ParseContext): string | null {
  if (isPhoneJid(jid)) return jid;
  for (const alt of alternatives) if (isPhoneJid(alt)) return alt;
  return isLidUser(jid) ? ctx.pnForLid(bareLid(jid)) : null;
}

/** A person's number (digits, ninth-digit rule applied) when their JID or an alternative resolves, else null. */
export function numberOf(jid: string, alternatives: (string | null | undefined)[], ctx: ParseContext): string | null {
  const phone = phoneJidOf(jid, alternatives, ctx);
  return phone ? normalizeWhatsAppNumber(jidUser(phone)) : null;
}

/** A person as a party: chatId is the normalized number when known, else the LID JID. */
function personParty(
  jid: string,
  alternatives: (string | null | undefined)[],
  name: string | null | undefined,
  ctx: ParseContext,
): InboundParty {
  const phone = phoneJidOf(jid, alternatives, ctx);
  const number = phone ? normalizeWhatsAppNumber(jidUser(phone)) : null;
  const chatId = number ?? bareLid(jid);
  return { chatId, isGroup: false, name: name?.trim() || number || chatId, number, idField: 'number' };
}

function groupParty(jid: string, ctx: ParseContext): InboundParty {
  return { chatId: jid, isGroup: true, name: ctx.groupName(jid) ?? jidUser(jid), number: null, idField: 'number' };
}

/** Chats the product has no ticket for: status updates, broadcast lists, newsletters. */
export const isIgnoredChat = (jid: string) =>
  isJidStatusBroadcast(jid) || Boolean(isJidBroadcast(jid)) || Boolean(isJidNewsletter(jid));

// ---- schemas ------------------------------------------------------------------------------------------------------

/** protobufjs' Long, a number or a numeric string -> number. */
const longSchema = z
  .union([z.number(), z.bigint(), z.string(), z.looseObject({ low: z.number(), high: z.number() })])
  .transform((v) => {
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint' || typeof v === 'string') return Number(v);
    const long = v as { low: number; high: number; unsigned?: boolean; toNumber?: () => number };
    if (typeof long.toNumber === 'function') return long.toNumber();
    return long.high * 2 ** 32 + (long.low >>> 0);
  });
/** Any object, protobuf class instances included (z.record accepts plain objects only). */
const objectSchema = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array),
);
const bytesSchema = z.union([z.instanceof(Uint8Array), z.string()]);
const str = z.string().nullish();

const keySchema = z.looseObject({
  remoteJid: z.string(),
  fromMe: z.boolean().nullish(),
  id: z.string(),
  participant: str,
  remoteJidAlt: str,
  participantAlt: str,
  senderPn: str,
  participantPn: str,
});
type Key = z.infer<typeof keySchema>;

const contextInfoSchema = z.looseObject({ stanzaId: str }).nullish();
const mediaSchema = z.looseObject({
  url: str,
  directPath: str,
  mediaKey: bytesSchema.nullish(),
  mimetype: str,
  fileName: str,
  caption: str,
  fileLength: longSchema.nullish(),
  ptt: z.boolean().nullish(),
  contextInfo: contextInfoSchema,
});
type Media = z.infer<typeof mediaSchema>;

const messageSchema = z.looseObject({
  key: keySchema,
  message: objectSchema.nullish(),
  messageTimestamp: longSchema.nullish(),
  pushName: str,
  participant: str,
  messageStubType: z.number().nullish(),
});
type Message = z.infer<typeof messageSchema>;

const protocolSchema = z.looseObject({
  type: z.union([z.number(), z.string()]).nullish(),
  key: z.looseObject({ id: z.string() }).nullish(),
  editedMessage: objectSchema.nullish(),
  timestampMs: longSchema.nullish(),
});
const reactionSchema = z.looseObject({
  key: z.looseObject({ id: z.string() }).nullish(),
  text: z.string().nullish(),
  senderTimestampMs: longSchema.nullish(),
});

/** proto.Message.ProtocolMessage.Type */
const PROTOCOL_REVOKE = 0;
const PROTOCOL_EDIT = 14;
const protocolType = (type: number | string | null | undefined) =>
  type === 'REVOKE' ? PROTOCOL_REVOKE : type === 'MESSAGE_EDIT' ? PROTOCOL_EDIT : type;

// ---- message content ----------------------------------------------------------------------------------------------

const WRAPPERS = [
  'ephemeralMessage',
  'viewOnceMessage',
  'viewOnceMessageV2',
  'viewOnceMessageV2Extension',
  'documentWithCaptionMessage',
  'deviceSentMessage',
] as const;

/** The message inside ephemeral, view-once, document-with-caption and device-sent wrappers. */
export function unwrapContent(content: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  let current = content ?? null;
  for (let depth = 0; current && depth < 5; depth++) {
    const wrapper = WRAPPERS.find((name) => current![name]);
    if (!wrapper) break;
    const inner = (current[wrapper] as { message?: Record<string, unknown> | null }).message;
    current = inner ?? null;
  }
  return current;
}

/** What a stateless download needs (baileys.driver.ts `downloadMedia` reads it back). */
export const mediaRefSchema = z.object({
  type: z.enum(['image', 'video', 'audio', 'document', 'sticker']),
  url: z.string().nullable(),
  directPath: z.string().nullable(),
  mediaKey: z.string().min(1),
  mimetype: z.string().nullable(),
  fileName: z.string().nullable(),
});
export type MediaRef = z.infer<typeof mediaRefSchema>;

function mediaOf(media: Media, type: MediaRef['type'], fallbackMime: string): InboundMedia | null {
  if (!media.mediaKey || (!media.url && !media.directPath)) return null;
  const key = typeof media.mediaKey === 'string' ? media.mediaKey : Buffer.from(media.mediaKey).toString('base64');
  const ref: MediaRef = {
    type,
    url: media.url ?? null,
    directPath: media.directPath ?? null,
    mediaKey: key,
    mimetype: media.mimetype ?? fallbackMime,
    fileName: media.fileName ?? null,
  };
  return {
    ref: JSON.stringify(ref),
    mime: ref.mimetype,
    name: ref.fileName,
    size: media.fileLength ?? null,
  };
}

interface Content {
  mediaType: MessageMediaType;
  body: string;
  media: InboundMedia | null;
  meta: string | null;
  isSticker: boolean;
  quoted: string | null;
}

const MEDIA_KINDS: readonly {
  field: string;
  type: MediaRef['type'];
  mime: string;
  mediaType: (m: Media) => MessageMediaType;
}[] = [
  { field: 'imageMessage', type: 'image', mime: 'image/jpeg', mediaType: () => 'image' },
  { field: 'videoMessage', type: 'video', mime: 'video/mp4', mediaType: () => 'video' },
  { field: 'ptvMessage', type: 'video', mime: 'video/mp4', mediaType: () => 'video' },
  { field: 'audioMessage', type: 'audio', mime: 'audio/ogg', mediaType: (m) => (m.ptt ? 'ptt' : 'audio') },
  { field: 'documentMessage', type: 'document', mime: 'application/octet-stream', mediaType: () => 'application' },
  { field: 'stickerMessage', type: 'sticker', mime: 'image/webp', mediaType: () => 'sticker' },
];

const quotedOf = (value: unknown): string | null => {
  const parsed = z.looseObject({ contextInfo: contextInfoSchema }).safeParse(value);
  return (parsed.success && parsed.data.contextInfo?.stanzaId) || null;
};

const vcardName = (vcard: string) => /^FN[^:]*:(.*)$/m.exec(vcard)?.[1]?.trim() ?? '';

/** Text, media or structured content of an unwrapped message; null for protocol and unknown kinds. */
export function contentOf(message: Record<string, unknown>): Content | null {
  const base = { media: null, meta: null, isSticker: false };
  if (typeof message.conversation === 'string' && message.conversation) {
    return { ...base, mediaType: 'chat', body: message.conversation, quoted: null };
  }
  const extended = z
    .looseObject({ text: z.string(), contextInfo: contextInfoSchema })
    .safeParse(message.extendedTextMessage);
  if (extended.success) {
    return {
      ...base,
      mediaType: 'chat',
      body: extended.data.text,
      quoted: extended.data.contextInfo?.stanzaId ?? null,
    };
  }
  for (const kind of MEDIA_KINDS) {
    if (!message[kind.field]) continue;
    const media = mediaSchema.safeParse(message[kind.field]);
    if (!media.success) return null;
    const mediaType = kind.mediaType(media.data);
    return {
      mediaType,
      body:
        mediaType === 'sticker'
          ? ''
          : (media.data.caption ?? (kind.type === 'document' ? (media.data.fileName ?? '') : '')),
      media: mediaOf(media.data, kind.type, kind.mime),
      meta: null,
      isSticker: mediaType === 'sticker',
      quoted: media.data.contextInfo?.stanzaId ?? null,
    };
  }
  const place = message.locationMessage ?? message.liveLocationMessage;
  if (place) {
    const location = z
      .looseObject({ degreesLatitude: z.number(), degreesLongitude: z.number(), name: str, address: str })
      .safeParse(place);
    if (!location.success) return null;
    const { degreesLatitude, degreesLongitude, name, address } = location.data;
    const label = [name, address].filter(Boolean).join(', ');
    const meta = JSON.stringify({
      latitude: degreesLatitude,
      longitude: degreesLongitude,
      ...(label ? { name: label } : {}),
    });
    return { ...base, mediaType: 'location', body: label, meta, quoted: quotedOf(place) };
  }
  const cardSchema = z.looseObject({ displayName: str, vcard: z.string() });
  if (message.contactMessage) {
    const card = cardSchema.safeParse(message.contactMessage);
    if (!card.success) return null;
    const name = card.data.displayName ?? vcardName(card.data.vcard);
    return { ...base, mediaType: 'vcard', body: name, meta: card.data.vcard, quoted: quotedOf(message.contactMessage) };
  }
  if (message.contactsArrayMessage) {
    const cards = z
      .looseObject({ displayName: str, contacts: z.array(cardSchema) })
      .safeParse(message.contactsArrayMessage);
    if (!cards.success || !cards.data.contacts.length) return null;
    const names = cards.data.contacts.map((c) => c.displayName ?? vcardName(c.vcard));
    return {
      ...base,
      mediaType: 'vcard',
      body: cards.data.displayName ?? names.join(', '),
      meta: cards.data.contacts.map((c) => c.vcard.trim()).join('\n'),
      quoted: quotedOf(message.contactsArrayMessage),
    };
  }
  // Answers to buttons and lists carry the text the customer chose.
  const choice = z
    .looseObject({ selectedDisplayText: str, title: str })
    .safeParse(message.buttonsResponseMessage ?? message.templateButtonReplyMessage ?? message.listResponseMessage);
  const chosen = choice.success ? (choice.data.selectedDisplayText ?? choice.data.title) : null;
  if (chosen) return { ...base, mediaType: 'chat', body: chosen, quoted: null };
  return null;
}

/** Text of an edited message's new content (text or a media caption). */
function editedText(content: Record<string, unknown> | null): string | null {
  const inner = unwrapContent(content);
  if (!inner) return null;
  const parsed = contentOf(inner);
  return parsed && (parsed.mediaType === 'chat' || parsed.body) ? parsed.body : null;
}

// ---- events -------------------------------------------------------------------------------------------------------

const secondsToMs = (seconds: number | null | undefined, fallback: number) => (seconds ? seconds * 1000 : fallback);

/** Who a message is from/with: the chat, and in a group the member who wrote (with the name they set). */
function partyOfMessage(msg: Message, ctx: ParseContext): InboundParty {
  const { key } = msg;
  if (isJidGroup(key.remoteJid)) {
    const party = groupParty(key.remoteJid, ctx);
    const participantJid = key.participant ?? msg.participant;
    if (participantJid && !key.fromMe) {
      const member = personParty(participantJid, [key.participantAlt, key.participantPn], msg.pushName, ctx);
      party.participant = { id: member.chatId, name: member.name, number: member.number, idField: 'number' };
    }
    return party;
  }
  // A message written on the phone (fromMe) carries the phone user's own pushName: not the customer's name.
  return personParty(key.remoteJid, [key.remoteJidAlt, key.senderPn], key.fromMe ? null : msg.pushName, ctx);
}

/** The events of one WAMessage (messages.upsert or history): a message, an edit, a delete or a reaction. */
export function parseMessage(raw: unknown, ctx: ParseContext = emptyContext, now = Date.now()): InboundEvent[] {
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success) return [];
  const msg = parsed.data;
  if (isIgnoredChat(msg.key.remoteJid)) return [];
  const content = unwrapContent(msg.message);
  if (!content) return [];
  const timestamp = secondsToMs(msg.messageTimestamp, now);

  if (content.protocolMessage) {
    const protocol = protocolSchema.safeParse(content.protocolMessage);
    if (!protocol.success || !protocol.data.key) return [];
    const type = protocolType(protocol.data.type);
    if (type === PROTOCOL_REVOKE) return [{ kind: 'delete', providerMessageId: protocol.data.key.id, timestamp }];
    if (type === PROTOCOL_EDIT) {
      const body = editedText(protocol.data.editedMessage ?? null);
      if (body === null) return [];
      const at = protocol.data.timestampMs ?? timestamp;
      return [
        { kind: 'edit', providerMessageId: protocol.data.key.id, party: partyOfMessage(msg, ctx), body, timestamp: at },
      ];
    }
    return []; // history sync notices, key shares, ephemeral settings: protocol noise
  }
  if (content.editedMessage) {
    // The edit wrapper holds the protocol message of the edit.
    const inner = z.looseObject({ message: objectSchema.nullish() }).safeParse(content.editedMessage);
    return inner.success ? parseMessage({ ...msg, message: inner.data.message }, ctx, now) : [];
  }
  if (content.reactionMessage) {
    const reaction = reactionSchema.safeParse(content.reactionMessage);
    if (!reaction.success || !reaction.data.key) return [];
    return [
      {
        kind: 'reaction',
        providerMessageId: reaction.data.key.id,
        party: partyOfMessage(msg, ctx),
        reaction: reaction.data.text ?? '',
        timestamp: reaction.data.senderTimestampMs ?? timestamp,
      },
    ];
  }
  const body = contentOf(content);
  if (!body) return [];
  return [
    {
      kind: 'message',
      providerMessageId: msg.key.id,
      party: partyOfMessage(msg, ctx),
      fromMe: Boolean(msg.key.fromMe),
      timestamp,
      mediaType: body.mediaType,
      body: body.body,
      media: body.media,
      isSticker: body.isSticker,
      meta: body.meta,
      quotedProviderMessageId: body.quoted,
    },
  ];
}

/** proto.WebMessageInfo.Status -> the product's ack (1 sent, 2 delivered, 3 read, 4 played); others none. */
export function ackOfStatus(status: number | null | undefined): 1 | 2 | 3 | 4 | null {
  switch (status) {
    case 2:
      return 1;
    case 3:
      return 2;
    case 4:
      return 3;
    case 5:
      return 4;
    default:
      return null;
  }
}

const updateSchema = z.looseObject({
  key: keySchema,
  update: z.looseObject({
    status: z.number().nullish(),
    message: objectSchema.nullish(),
    messageStubType: z.number().nullish(),
    messageTimestamp: longSchema.nullish(),
  }),
});
/** WAMessageStubType.REVOKE */
const STUB_REVOKE = 1;

/** `messages.update`: status -> ack, edits (editedMessage) and revokes (stub REVOKE). */
export function parseMessageUpdates(
  raw: unknown[],
  ctx: ParseContext = emptyContext,
  now = Date.now(),
): InboundEvent[] {
  const events: InboundEvent[] = [];
  for (const item of raw) {
    const parsed = updateSchema.safeParse(item);
    if (!parsed.success || isIgnoredChat(parsed.data.key.remoteJid)) continue;
    const { key, update } = parsed.data;
    const timestamp = secondsToMs(update.messageTimestamp, now);
    const ack = ackOfStatus(update.status);
    if (ack) events.push({ kind: 'ack', providerMessageId: key.id, ack, timestamp });
    if (update.messageStubType === STUB_REVOKE && !update.message) {
      events.push({ kind: 'delete', providerMessageId: key.id, timestamp });
    }
    const edited = update.message?.editedMessage;
    if (edited) {
      const inner = z.looseObject({ message: objectSchema.nullish() }).safeParse(edited);
      const body = inner.success ? editedText(inner.data.message ?? null) : null;
      if (body !== null) {
        const party = partyOfMessage({ key, message: null, pushName: null } as Message, ctx);
        events.push({ kind: 'edit', providerMessageId: key.id, party, body, timestamp });
      }
    }
  }
  return events;
}

const receiptSchema = z.looseObject({
  key: keySchema,
  receipt: z.looseObject({
    receiptTimestamp: longSchema.nullish(),
    readTimestamp: longSchema.nullish(),
    playedTimestamp: longSchema.nullish(),
  }),
});

/** `message-receipt.update` (per recipient, groups included): played 4, read 3, delivered 2. */
export function parseReceipts(raw: unknown[], now = Date.now()): InboundEvent[] {
  const events: InboundEvent[] = [];
  for (const item of raw) {
    const parsed = receiptSchema.safeParse(item);
    if (!parsed.success || isIgnoredChat(parsed.data.key.remoteJid)) continue;
    const { key, receipt } = parsed.data;
    const [ack, at] = receipt.playedTimestamp
      ? [4 as const, receipt.playedTimestamp]
      : receipt.readTimestamp
        ? [3 as const, receipt.readTimestamp]
        : receipt.receiptTimestamp
          ? [2 as const, receipt.receiptTimestamp]
          : [null, null];
    if (ack) events.push({ kind: 'ack', providerMessageId: key.id, ack, timestamp: secondsToMs(at, now) });
  }
  return events;
}

const reactionEventSchema = z.looseObject({
  key: keySchema,
  reaction: z.looseObject({
    key: keySchema.nullish(),
    text: z.string().nullish(),
    senderTimestampMs: longSchema.nullish(),
  }),
});

/** `messages.reaction`: `key` is the reacted message; `reaction.key` says who reacted; empty text = removed. */
export function parseReactions(raw: unknown[], ctx: ParseContext = emptyContext, now = Date.now()): InboundEvent[] {
  const events: InboundEvent[] = [];
  for (const item of raw) {
    const parsed = reactionEventSchema.safeParse(item);
    if (!parsed.success || isIgnoredChat(parsed.data.key.remoteJid)) continue;
    const { key, reaction } = parsed.data;
    const by: Key = reaction.key ?? { ...key, fromMe: false };
    events.push({
      kind: 'reaction',
      providerMessageId: key.id,
      party: partyOfMessage(
        { key: { ...by, remoteJid: key.remoteJid }, message: null, pushName: null } as Message,
        ctx,
      ),
      reaction: reaction.text ?? '',
      timestamp: reaction.senderTimestampMs ?? now,
    });
  }
  return events;
}

const contactSchema = z.looseObject({
  id: z.string(),
  lid: str,
  phoneNumber: str,
  name: str,
  notify: str,
  verifiedName: str,
});

/** `contacts.upsert` / `contacts.update`: people only (groups come from groups.upsert); the saved name first. */
export function parseContacts(raw: unknown[], ctx: ParseContext = emptyContext): InboundEvent[] {
  const events: InboundEvent[] = [];
  for (const item of raw) {
    const parsed = contactSchema.safeParse(item);
    if (!parsed.success) continue;
    const c = parsed.data;
    if (isJidGroup(c.id) || isIgnoredChat(c.id)) continue;
    const party = personParty(c.id, [c.phoneNumber], c.name ?? c.notify ?? c.verifiedName, ctx);
    // An unresolved LID is not worth a contact of its own: its messages will resolve it.
    if (!party.number) continue;
    // No picture: the library's imgUrl is 'changed'/'removed' (or a CDN link that expires and our CSP blocks); the
    // contacts module stores customers' pictures itself (contacts.avatars.ts).
    events.push({ kind: 'contact', party });
  }
  return events;
}

const groupSchema = z.looseObject({ id: z.string(), subject: z.string().nullish() });

/** `groups.upsert` / `groups.update`: a group contact named by its subject. */
export function parseGroups(raw: unknown[]): InboundEvent[] {
  const events: InboundEvent[] = [];
  for (const item of raw) {
    const parsed = groupSchema.safeParse(item);
    if (!parsed.success || !isJidGroup(parsed.data.id)) continue;
    const subject = parsed.data.subject;
    events.push({
      kind: 'contact',
      party: {
        chatId: parsed.data.id,
        isGroup: true,
        name: subject || jidUser(parsed.data.id),
        number: null,
        idField: 'number',
      },
    });
  }
  return events;
}

/** LID -> phone JID pairs a batch of messages or contacts reveals (alternative addresses in keys, contacts' numbers). */
export function lidPairsOf(messages: unknown[], contacts: unknown[] = []): [string, string][] {
  const pairs: [string, string][] = [];
  const add = (a: string | null | undefined, b: string | null | undefined) => {
    if (a && b && isLidUser(a) && isPhoneJid(b)) pairs.push([bareLid(a), `${jidUser(b)}@s.whatsapp.net`]);
    if (a && b && isLidUser(b) && isPhoneJid(a)) pairs.push([bareLid(b), `${jidUser(a)}@s.whatsapp.net`]);
  };
  for (const item of messages) {
    const parsed = z.looseObject({ key: keySchema }).safeParse(item);
    if (!parsed.success) continue;
    const { key } = parsed.data;
    add(key.remoteJid, key.remoteJidAlt ?? key.senderPn);
    add(key.participant, key.participantAlt ?? key.participantPn);
  }
  for (const item of contacts) {
    const parsed = contactSchema.safeParse(item);
    if (!parsed.success) continue;
    add(parsed.data.lid ?? parsed.data.id, parsed.data.phoneNumber ?? parsed.data.id);
  }
  return pairs;
}

/** The LID JIDs of a batch that nothing in it resolves (the driver asks the library's LID map for them). */
export function lidsOf(messages: unknown[]): string[] {
  const lids = new Set<string>();
  for (const item of messages) {
    const parsed = z.looseObject({ key: keySchema.partial({ id: true }) }).safeParse(item);
    if (!parsed.success) continue;
    const { key } = parsed.data;
    if (isLidUser(key.remoteJid)) lids.add(bareLid(key.remoteJid));
    if (key.participant && isLidUser(key.participant)) lids.add(bareLid(key.participant));
  }
  return [...lids];
}
