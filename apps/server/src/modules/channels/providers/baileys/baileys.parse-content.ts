/**
 * A message's content, for the parser (baileys.parse.ts): the message inside WhatsApp's wrappers (ephemeral,
 * view-once, document-with-caption, device-sent), then its text, media, location, contact cards or the choice a
 * customer made on buttons and lists. Media is not downloaded here: it becomes a `MediaRef` (the URL or direct path
 * and the media key), enough for any node to download and decrypt it later (baileys.driver-content.ts).
 */
import { z } from 'zod';
import type { MessageMediaType } from '@conversa/shared';
import type { InboundMedia } from '../../channels.adapter.js';
import { contextInfoSchema, mediaSchema, str, type Media } from './baileys.schemas.js';

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

/** What a stateless download needs (baileys.driver-content.ts `downloadBaileysMedia` reads it back). */
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
export function editedText(content: Record<string, unknown> | null): string | null {
  const inner = unwrapContent(content);
  if (!inner) return null;
  const parsed = contentOf(inner);
  return parsed && (parsed.mediaType === 'chat' || parsed.body) ? parsed.body : null;
}
