/**
 * The events of messages, for the parser (baileys.parse.ts): a WAMessage (`messages.upsert`, history) becomes a
 * message, an edit, a delete or a reaction; `messages.update` carries acks, edits and revokes;
 * `message-receipt.update` the per-recipient acks; `messages.reaction` reactions with who reacted. Each party is
 * resolved through the addressing rules of baileys.parse-addresses.ts.
 */
import { z } from 'zod';
import { isJidGroup } from 'baileys';
import type { InboundEvent, InboundParty } from '../../channels.adapter.js';
import { emptyContext, groupParty, isIgnoredChat, personParty, type ParseContext } from './baileys.parse-addresses.js';
import { contentOf, editedText, unwrapContent } from './baileys.parse-content.js';
import {
  messageSchema,
  objectSchema,
  protocolSchema,
  reactionEventSchema,
  reactionSchema,
  receiptSchema,
  updateSchema,
  type Key,
  type Message,
} from './baileys.schemas.js';

/** proto.Message.ProtocolMessage.Type */
const PROTOCOL_REVOKE = 0;
const PROTOCOL_EDIT = 14;
const protocolType = (type: number | string | null | undefined) =>
  type === 'REVOKE' ? PROTOCOL_REVOKE : type === 'MESSAGE_EDIT' ? PROTOCOL_EDIT : type;

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
