/**
 * Messenger (`object: page`) and Instagram (`object: instagram`) webhooks to normalised InboundEvents. One call
 * carries entries (one per page / Instagram account), each with `messaging[]` items: a message (or its echo, or an
 * Instagram unsend), an edit (`message_edit`), a reaction, a read, a delivery or a postback. Items of kinds we do not handle (optins,
 * referrals, handovers) yield nothing; the call is still acknowledged so Meta does not resend it.
 *
 * Names: the webhook carries only ids (PSID / IGSID); the adapter's `enrichInbound` fills names and pictures from the
 * User Profile API, so the party's name here is the id (the fallback when the lookup fails).
 */
import type { MessageMediaType } from '@conversa/shared';
import type { ChannelCredentials, InboundEvent, InboundMedia, InboundParty } from '../../channels.adapter.js';
import {
  metaWebhookSchema,
  type MetaAttachment,
  type MetaMessage,
  type MetaMessaging,
} from './meta-messaging.schemas.js';

export type MetaMessagingType = 'messenger' | 'instagram';

/** The webhook `object` each channel type receives. */
export const META_OBJECT_OF: Record<MetaMessagingType, string> = { messenger: 'page', instagram: 'instagram' };

/**
 * The `metadata` our sends carry (`conversa:<client message id>`): Meta echoes it back on the message's echo, which
 * tells our own sends (stored by the send job under the id the Send API answered) from messages an agent wrote in
 * Meta's inbox (stored here, fromMe).
 */
export const OUR_METADATA_PREFIX = 'conversa:';

/** Reaction names Meta sends without an emoji (older payloads) to the emoji a bubble shows. */
const REACTION_EMOJI: Record<string, string> = {
  love: '❤️',
  like: '👍',
  haha: '😆',
  wow: '😮',
  sad: '😢',
  angry: '😠',
  smile: '😊',
};

/** An Instagram story mention (the tenant flag ignoreIgStories drops them). */
export function isStoryMention(event: InboundEvent): boolean {
  return event.kind === 'message' && event.meta?.startsWith('{"storyMention":true') === true;
}

export function partyOf(type: MetaMessagingType, userId: string): InboundParty {
  return {
    chatId: userId,
    isGroup: false,
    name: userId,
    number: null,
    idField: type === 'messenger' ? 'messengerId' : 'instagramPK',
  };
}

interface Content {
  mediaType: MessageMediaType;
  media: InboundMedia | null;
  body: string;
  meta: string | null;
  isSticker: boolean;
}

const FILE_KINDS: Record<string, { mediaType: MessageMediaType; mime: string | null }> = {
  image: { mediaType: 'image', mime: 'image/jpeg' },
  video: { mediaType: 'video', mime: 'video/mp4' },
  audio: { mediaType: 'audio', mime: 'audio/mpeg' },
  file: { mediaType: 'application', mime: null },
};

const httpUrl = (value: string | undefined): string | null => (value && /^https?:\/\//i.test(value) ? value : null);

/** A file downloaded later by the media job: the ref is the CDN URL Meta gave (it expires: downloaded at once). */
const mediaAt = (link: string, mime: string | null): InboundMedia => ({ ref: link, mime, name: null, size: null });

const textContent = (body: string, meta: Record<string, unknown> | null = null): Content => ({
  mediaType: 'chat',
  media: null,
  body,
  meta: meta ? JSON.stringify(meta) : null,
  isSticker: false,
});

/**
 * One attachment's content. Story mentions are not downloaded: Meta's terms forbid storing a story's media, so the
 * message keeps the story's CDN link (it stops working when the story expires).
 */
function attachmentContent(attachment: MetaAttachment, text: string): Content {
  const link = httpUrl(attachment.payload?.url ?? attachment.url);
  if (isStickerAttachment(attachment) && link) {
    return { mediaType: 'sticker', media: mediaAt(link, 'image/png'), body: '', meta: null, isSticker: true };
  }
  const file = FILE_KINDS[attachment.type];
  if (file && link)
    return { mediaType: file.mediaType, media: mediaAt(link, file.mime), body: text, meta: null, isSticker: false };
  if (attachment.type === 'story_mention') {
    return textContent(link ?? '', { storyMention: true, url: link });
  }
  if (attachment.type === 'location' && attachment.payload?.coordinates) {
    const { lat, long } = attachment.payload.coordinates;
    const meta = { latitude: lat, longitude: long, ...(attachment.title ? { name: attachment.title } : {}) };
    return {
      mediaType: 'location',
      media: null,
      body: attachment.title ?? '',
      meta: JSON.stringify(meta),
      isSticker: false,
    };
  }
  // Shares (a post, a reel, a link: `fallback`): the link, titled when Meta gives a title.
  const title = attachment.title ?? attachment.payload?.title ?? '';
  const shared = [text, title, link ?? ''].filter(Boolean).join('\n');
  if (shared) return textContent(shared, { share: attachment.type, url: link });
  return { ...textContent(text || attachment.type), mediaType: 'unsupported' };
}

/** A sticker: Meta's `sticker` attachment, or the `image` one carrying a `sticker_id` (its older form). */
const isStickerAttachment = (attachment: MetaAttachment): boolean =>
  attachment.type === 'sticker' || (attachment.type === 'image' && attachment.payload?.sticker_id !== undefined);

/**
 * The attachments that are distinct things. Meta sends one sticker as a `sticker` attachment and an `image` twin
 * (both during its 2026 transition, then the sticker alone): a message with a sticker is that one sticker, its link
 * the first either gives. The same file listed twice is one file.
 */
function distinctAttachments(attachments: readonly MetaAttachment[]): MetaAttachment[] {
  const stickers = attachments.filter(isStickerAttachment);
  if (stickers.length > 0) {
    const withLink = stickers.find((a) => httpUrl(a.payload?.url ?? a.url)) ?? stickers[0]!;
    return [{ ...withLink, type: 'sticker' }];
  }
  const seen = new Set<string>();
  return attachments.filter((attachment) => {
    const link = httpUrl(attachment.payload?.url ?? attachment.url);
    if (!link) return true;
    if (seen.has(link)) return false;
    seen.add(link);
    return true;
  });
}

/**
 * The contents of one message: its text, or one per distinct attachment. A message row holds one file, so the
 * several photos Messenger sends as one message stay one row each (the first keeps the mid), while the twins Meta
 * sends for one thing (a sticker) are one content: one row, unread +1.
 */
function contentsOf(message: MetaMessage): Content[] {
  const text = message.text ?? '';
  const story = message.reply_to?.story;
  const storyMeta = story ? { storyReply: true, storyId: story.id ?? null, url: httpUrl(story.url) } : null;
  if (message.attachments?.length) {
    return distinctAttachments(message.attachments).map((attachment, index) => {
      const content = attachmentContent(attachment, index === 0 ? text : '');
      return storyMeta && !content.meta ? { ...content, meta: JSON.stringify(storyMeta) } : content;
    });
  }
  if (message.quick_reply) {
    return [{ ...textContent(text, { payload: message.quick_reply.payload }), mediaType: 'button_reply' }];
  }
  if (message.is_unsupported && !text) return [{ ...textContent('unsupported'), mediaType: 'unsupported' }];
  return [textContent(text, storyMeta)];
}

/** The customer of an item: the sender, or the recipient of our page's own messages (echoes). */
function customerOf(item: MetaMessaging): string {
  return item.message?.is_echo ? item.recipient.id : item.sender.id;
}

function messageEvents(type: MetaMessagingType, item: MetaMessaging, message: MetaMessage): InboundEvent[] {
  const timestamp = item.timestamp ?? Date.now();
  if (message.is_deleted) return [{ kind: 'delete', providerMessageId: message.mid, timestamp }];
  // Our own send: the send job stores it under the id the Send API answered.
  if (message.is_echo && message.metadata?.startsWith(OUR_METADATA_PREFIX)) return [];
  const party = partyOf(type, customerOf(item));
  return contentsOf(message).map((content, index) => ({
    kind: 'message' as const,
    // Messenger's several attachments share one mid: the first keeps it (reactions and acks name it).
    providerMessageId: index === 0 ? message.mid : `${message.mid}#${index}`,
    party,
    fromMe: message.is_echo === true,
    timestamp,
    ...content,
    quotedProviderMessageId: message.reply_to?.mid ?? null,
  }));
}

function itemEvents(type: MetaMessagingType, item: MetaMessaging): InboundEvent[] {
  const timestamp = item.timestamp ?? Date.now();
  if (item.message) return messageEvents(type, item, item.message);
  // The customer edited a message (its new text): the stored body is updated and the message marked edited.
  if (item.message_edit) {
    const { mid, text } = item.message_edit;
    return [{ kind: 'edit', providerMessageId: mid, party: partyOf(type, item.sender.id), body: text, timestamp }];
  }
  if (item.reaction) {
    const { mid, action, emoji, reaction } = item.reaction;
    const shown = action === 'unreact' ? '' : (emoji ?? REACTION_EMOJI[reaction ?? ''] ?? reaction ?? '');
    return [
      { kind: 'reaction', providerMessageId: mid, party: partyOf(type, item.sender.id), reaction: shown, timestamp },
    ];
  }
  if (item.delivery) {
    return (item.delivery.mids ?? []).map((mid) => ({
      kind: 'ack' as const,
      providerMessageId: mid,
      ack: 2 as const,
      timestamp,
    }));
  }
  // A read names the message read (Instagram); a Messenger read carries only a watermark time: everything we sent the
  // customer until then was read.
  if (item.read) {
    if (item.read.mid) return [{ kind: 'ack', providerMessageId: item.read.mid, ack: 3, timestamp }];
    const watermark = item.read.watermark;
    return watermark === undefined ? [] : [{ kind: 'read-up-to', party: partyOf(type, item.sender.id), watermark }];
  }
  if (item.postback) {
    const { title, payload, mid } = item.postback;
    return [
      {
        kind: 'message',
        // A postback without a mid (older Messenger payloads) is keyed by its sender and time: a replay is one row.
        providerMessageId: mid ?? `postback:${item.sender.id}:${timestamp}`,
        party: partyOf(type, item.sender.id),
        fromMe: false,
        timestamp,
        mediaType: 'button_reply',
        media: null,
        body: title ?? payload ?? '',
        meta: JSON.stringify({ payload: payload ?? null }),
        isSticker: false,
        quotedProviderMessageId: null,
      },
    ];
  }
  return [];
}

/**
 * The events of one webhook call for a channel. Entries of another page / account than the channel's (its `wabaId`)
 * and calls of the other object are ignored: a signed call meant for another channel must not write into this one.
 * Throws a ZodError on a malformed body.
 */
export function parseMetaMessagingWebhook(
  type: MetaMessagingType,
  channel: Pick<ChannelCredentials, 'wabaId'>,
  body: unknown,
): InboundEvent[] {
  const webhook = metaWebhookSchema.parse(body);
  if (webhook.object !== META_OBJECT_OF[type]) return [];
  const events: InboundEvent[] = [];
  for (const entry of webhook.entry) {
    if (channel.wabaId && entry.id !== channel.wabaId) continue;
    for (const item of entry.messaging ?? []) events.push(...itemEvents(type, item));
  }
  return events;
}
