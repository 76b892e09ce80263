/**
 * Wuzapi webhooks -> InboundEvents. A chat is addressed by the phone number (E.164 digits) when WhatsApp gives one:
 * with LID addressing the phone JID comes in SenderAlt (RecipientAlt on our own messages), so a contact is the same
 * whether a message came by LID or by phone JID. Groups are addressed by their full JID (`...@g.us`), which is also
 * what Wuzapi's `Phone` accepts to send to them.
 */
import type { ChannelStatus } from '@conversa/shared';
import type { InboundEvent, InboundMedia, InboundParty } from '../../channels.adapter.js';
import {
  wuzapiFormBodySchema,
  wuzapiMessageEventSchema,
  wuzapiPairSuccessSchema,
  wuzapiReceiptEventSchema,
  wuzapiWebhookSchema,
  type WuzapiMedia,
  type WuzapiMediaRef,
  type WuzapiMessageContent,
} from './wuzapi.schemas.js';
import { z } from 'zod';
import { normalizeWhatsAppNumber } from '../whatsapp-number.js';

type MessageInfo = z.infer<typeof wuzapiMessageEventSchema>['Info'];
type MessageEvent = Extract<InboundEvent, { kind: 'message' }>;

const PHONE_SERVERS = new Set(['s.whatsapp.net', 'c.us']);

/** `5511999990000:12@s.whatsapp.net` -> { user: '5511999990000', server: 's.whatsapp.net' }. */
export function splitJid(jid: string): { user: string; server: string } {
  const at = jid.indexOf('@');
  const local = at < 0 ? jid : jid.slice(0, at);
  const server = at < 0 ? 's.whatsapp.net' : jid.slice(at + 1);
  return { user: local.split(':')[0]!.split('.')[0]!, server };
}

/** The phone digits of the first JID that is a phone JID (the ninth-digit rule of ../whatsapp-number.ts applied). */
export function phoneOf(...jids: (string | undefined)[]): string | null {
  for (const jid of jids) {
    if (!jid) continue;
    const { user, server } = splitJid(jid);
    if (PHONE_SERVERS.has(server) && /^\d{5,20}$/.test(user)) return normalizeWhatsAppNumber(user);
  }
  return null;
}

const isGroupJid = (jid: string) => jid.endsWith('@g.us');

/** The chat (ticket contact) and, in groups, the member who wrote. */
export function partyOf(info: MessageInfo): InboundParty {
  const fromMe = info.IsFromMe;
  if (info.IsGroup || isGroupJid(info.Chat)) {
    const memberPhone = phoneOf(info.Sender, info.SenderAlt);
    const memberId = memberPhone ?? splitJid(info.Sender || info.SenderAlt).user;
    return {
      chatId: info.Chat,
      isGroup: true,
      name: splitJid(info.Chat).user,
      number: null,
      idField: 'number',
      participant:
        fromMe || !memberId
          ? null
          : { id: memberId, name: info.PushName || memberId, number: memberPhone, idField: 'number' },
    };
  }
  // Our own messages (written on the phone) name the partner in Chat / RecipientAlt; theirs in Chat / SenderAlt.
  const phone = fromMe ? phoneOf(info.Chat, info.RecipientAlt) : phoneOf(info.Chat, info.SenderAlt, info.Sender);
  // A LID chat without its phone JID (rare): the LID digits keep the conversation together until the phone is known.
  const chatId = phone ?? splitJid(info.Chat).user;
  return {
    chatId,
    isGroup: false,
    name: (!fromMe && info.PushName) || chatId,
    number: phone,
    idField: 'number',
  };
}

/** Unwraps the containers whatsmeow may leave around a message (ephemeral, view once, captioned document, edit). */
export function unwrapContent(message: WuzapiMessageContent): WuzapiMessageContent {
  let current = message;
  for (let depth = 0; depth < 5; depth += 1) {
    const inner =
      current.ephemeralMessage?.message ??
      current.viewOnceMessage?.message ??
      current.viewOnceMessageV2?.message ??
      current.viewOnceMessageV2Extension?.message ??
      current.documentWithCaptionMessage?.message ??
      current.editedMessage?.message;
    if (!inner) return current;
    current = inner;
  }
  return current;
}

function mediaOf(kind: WuzapiMediaRef['kind'], media: WuzapiMedia, name: string | null): InboundMedia | null {
  const length = Number(media.fileLength ?? 0);
  if (!media.mediaKey || !media.fileSHA256 || !(media.URL || media.directPath)) return null;
  const ref: WuzapiMediaRef = {
    kind,
    ...(media.URL ? { Url: media.URL } : {}),
    ...(media.directPath ? { DirectPath: media.directPath } : {}),
    MediaKey: media.mediaKey,
    Mimetype: media.mimetype ?? 'application/octet-stream',
    ...(media.fileEncSHA256 ? { FileEncSHA256: media.fileEncSHA256 } : {}),
    FileSHA256: media.fileSHA256,
    FileLength: Number.isSafeInteger(length) && length >= 0 ? length : 0,
  };
  return { ref: JSON.stringify(ref), mime: media.mimetype ?? null, name, size: length || null };
}

type Body = Pick<MessageEvent, 'mediaType' | 'body' | 'media' | 'meta' | 'isSticker' | 'quotedProviderMessageId'>;

const plain = (mediaType: MessageEvent['mediaType'], body: string, quoted?: string): Body => ({
  mediaType,
  body,
  media: null,
  meta: null,
  isSticker: false,
  quotedProviderMessageId: quoted || null,
});

/** The stored shape of a message's content; null for kinds the inbox does not show (polls, calls, system). */
export function contentOf(content: WuzapiMessageContent): Body | null {
  if (content.conversation !== undefined) return plain('chat', content.conversation);
  if (content.extendedTextMessage) {
    const { text, contextInfo } = content.extendedTextMessage;
    return plain('chat', text ?? '', contextInfo?.stanzaID);
  }
  const visual: [keyof WuzapiMessageContent, MessageEvent['mediaType'], WuzapiMediaRef['kind']][] = [
    ['imageMessage', 'image', 'image'],
    ['videoMessage', 'video', 'video'],
    ['stickerMessage', 'sticker', 'image'],
  ];
  for (const [field, mediaType, kind] of visual) {
    const media = content[field] as WuzapiMedia | undefined;
    if (!media) continue;
    return {
      ...plain(mediaType, media.caption ?? '', media.contextInfo?.stanzaID),
      media: mediaOf(kind, media, null),
      isSticker: mediaType === 'sticker',
    };
  }
  if (content.audioMessage) {
    const audio = content.audioMessage;
    return {
      ...plain(audio.PTT ? 'ptt' : 'audio', '', audio.contextInfo?.stanzaID),
      media: mediaOf('audio', audio, null),
    };
  }
  if (content.documentMessage) {
    const doc = content.documentMessage;
    const name = doc.fileName ?? doc.title ?? null;
    return {
      ...plain('application', doc.caption ?? '', doc.contextInfo?.stanzaID),
      media: mediaOf('document', doc, name),
    };
  }
  const place = content.locationMessage ?? content.liveLocationMessage;
  if (place && place.degreesLatitude !== undefined && place.degreesLongitude !== undefined) {
    const name =
      content.locationMessage?.name ?? content.locationMessage?.address ?? content.liveLocationMessage?.caption;
    const meta = JSON.stringify({
      latitude: place.degreesLatitude,
      longitude: place.degreesLongitude,
      ...(name ? { name } : {}),
    });
    return { ...plain('location', name ?? ''), meta };
  }
  const cards = content.contactMessage ? [content.contactMessage] : (content.contactsArrayMessage?.contacts ?? []);
  if (cards.length > 0) {
    const body = cards.map((card) => card.displayName ?? '').join(', ');
    const meta = cards.map((card) => card.vcard ?? '').join('\n');
    return { ...plain('vcard', body), meta };
  }
  return null;
}

const REVOKE = new Set<number | string>([0, 'REVOKE']);
const MESSAGE_EDIT = new Set<number | string>([14, 'MESSAGE_EDIT']);

function textOf(content: WuzapiMessageContent | undefined): string | null {
  if (!content) return null;
  const inner = unwrapContent(content);
  return (
    inner.conversation ??
    inner.extendedTextMessage?.text ??
    inner.imageMessage?.caption ??
    inner.videoMessage?.caption ??
    inner.documentMessage?.caption ??
    null
  );
}

/** The events of one whatsmeow events.Message (`{Info, Message}`): a webhook's, or a stored one (history). */
export function messageEvents(raw: unknown): InboundEvent[] {
  const { Info: info, Message: message } = wuzapiMessageEventSchema.parse(raw);
  if (!message) return [];
  const timestamp = Date.parse(info.Timestamp);
  if (Number.isNaN(timestamp))
    throw new z.ZodError([{ code: 'custom', path: ['Info', 'Timestamp'], message: 'bad time', input: info.Timestamp }]);
  const party = partyOf(info);
  const content = unwrapContent(message);

  const protocol = content.protocolMessage;
  if (protocol?.key?.ID) {
    if (MESSAGE_EDIT.has(protocol.type ?? '')) {
      const body = textOf(protocol.editedMessage);
      return body === null ? [] : [{ kind: 'edit', providerMessageId: protocol.key.ID, party, body, timestamp }];
    }
    if (REVOKE.has(protocol.type ?? -1)) return [{ kind: 'delete', providerMessageId: protocol.key.ID, timestamp }];
    return [];
  }
  if (content.reactionMessage?.key?.ID) {
    const reaction = content.reactionMessage.text ?? '';
    return [{ kind: 'reaction', providerMessageId: content.reactionMessage.key.ID, party, reaction, timestamp }];
  }
  const body = contentOf(content);
  if (!body) return [];
  return [{ kind: 'message', providerMessageId: info.ID, party, fromMe: info.IsFromMe, timestamp, ...body }];
}

const RECEIPT_ACKS: Record<string, 2 | 3 | 4> = { Delivered: 2, Read: 3, Played: 4 };
const RECEIPT_TYPE_ACKS: Record<string, 2 | 3 | 4> = { '': 2, read: 3, played: 4 };

function receiptEvents(raw: unknown, state: string | undefined): InboundEvent[] {
  const receipt = wuzapiReceiptEventSchema.parse(raw);
  // ReadSelf (our other device read their message) and receipts of our own devices move nothing.
  if (receipt.IsFromMe) return [];
  const ack = state !== undefined ? RECEIPT_ACKS[state] : RECEIPT_TYPE_ACKS[receipt.Type ?? ''];
  if (!ack) return [];
  const parsed = receipt.Timestamp ? Date.parse(receipt.Timestamp) : NaN;
  const timestamp = Number.isNaN(parsed) ? Date.now() : parsed;
  return receipt.MessageIDs.map((providerMessageId) => ({ kind: 'ack', providerMessageId, ack, timestamp }));
}

const session = (status: ChannelStatus, extra: object = {}): InboundEvent[] => [{ kind: 'session', status, ...extra }];

/** The event JSON of a webhook body: the form's `jsonData`, or the JSON body itself. */
export function webhookPayload(body: unknown): z.infer<typeof wuzapiWebhookSchema> {
  const form = wuzapiFormBodySchema.safeParse(body);
  if (form.success) {
    let json: unknown;
    try {
      json = JSON.parse(form.data.jsonData);
    } catch {
      throw new z.ZodError([{ code: 'custom', path: ['jsonData'], message: 'not JSON', input: form.data.jsonData }]);
    }
    return wuzapiWebhookSchema.parse(json);
  }
  return wuzapiWebhookSchema.parse(body);
}

/** Normalised events of one webhook call; throws a ZodError on a malformed body. */
export function parseWuzapiWebhook(body: unknown): InboundEvent[] {
  return parseWuzapiPayload(webhookPayload(body));
}

/** The events of a webhook's event JSON (HistorySync is the adapter's: it depends on the channel's options). */
export function parseWuzapiPayload(payload: z.infer<typeof wuzapiWebhookSchema>): InboundEvent[] {
  switch (payload.type) {
    case 'Message':
      return messageEvents(payload.event);
    case 'ReadReceipt':
      return receiptEvents(payload.event, payload.state);
    case 'QR':
      return payload.qrCodeBase64 ? session('qrcode', { qrcode: payload.qrCodeBase64 }) : [];
    case 'QRTimeout':
      return session('TIMEOUT');
    case 'PairSuccess': {
      const jid = wuzapiPairSuccessSchema.parse(payload.event ?? {}).ID;
      const number = jid ? phoneOf(jid) : null;
      return session('CONNECTED', number ? { number } : {});
    }
    case 'Connected':
      return session('CONNECTED');
    // whatsmeow reconnects by itself after these: the channel is on its way back, not switched off.
    case 'Disconnected':
    case 'ConnectFailure':
      return session('OPENING');
    case 'StreamReplaced':
      return session('CONFLICT');
    case 'LoggedOut':
    case 'ClientOutdated':
    case 'TemporaryBan':
      return session('DISCONNECTED');
    default:
      return [];
  }
}
