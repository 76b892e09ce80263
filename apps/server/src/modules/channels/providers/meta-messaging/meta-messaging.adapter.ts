/**
 * Messenger and Instagram channels: a Facebook page (and its linked Instagram professional account) reached through
 * the Graph Send API with the page's access token. Webhooks are Meta's (signed with the app secret, see
 * providers/meta/meta.signature.ts); the chat id is the user's page-scoped id (PSID, `messengerId`) or Instagram-scoped
 * id (IGSID, `instagramPK`). Meta keeps no edit or delete of a sent message on these APIs.
 *
 * Channel fields (decisions of issue 15): `wabaId` = the page id (messenger) or the Instagram account id (instagram),
 * `tokenAPI` = the page access token, `metaAppSecret` = the webhook signature's app secret (else META_APP_SECRET).
 * `providerState.pageId` is the page a channel's token belongs to (written by start and /fb/register-pages).
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import type { MessageMediaType, TenantFlags } from '@conversa/shared';
import {
  captionOf,
  ProviderError,
  type ChannelAdapter,
  type ChannelCredentials,
  type InboundEvent,
  type OutboundMessage,
  type SendResult,
} from '../../channels.adapter.js';
import type { OutboundFetch } from '../../../../platform/net/safe-fetch.js';
import { verifyMetaSignature } from '../../providers/meta/meta.signature.js';
import { createGraphClient, graphId, type GraphClient } from './meta-messaging.client.js';
import {
  isStoryMention,
  OUR_METADATA_PREFIX,
  parseMetaMessagingWebhook,
  type MetaMessagingType,
} from './meta-messaging.parse.js';
import { createProfileLookup, type ProfileCacheOptions } from './meta-messaging.profiles.js';
import { graphNodeSchema, sendAnswerSchema, SUBSCRIBED_FIELDS, successSchema } from './meta-messaging.schemas.js';

export const META_SIGNATURE_HEADER = 'x-hub-signature-256';

/** Text per message: Messenger takes 2,000 characters, Instagram 1,000 bytes of UTF-8. */
const TEXT_LIMIT: Record<MetaMessagingType, { max: number; size: (char: string) => number }> = {
  messenger: { max: 2_000, size: (char) => char.length },
  instagram: { max: 1_000, size: (char) => Buffer.byteLength(char) },
};

/** Our media kinds to the Send API's attachment types (a sticker goes as an image, voice as audio). */
const ATTACHMENT_TYPE: Partial<Record<MessageMediaType, string>> = {
  image: 'image',
  sticker: 'image',
  video: 'video',
  audio: 'audio',
  ptt: 'audio',
};

/** Emojis Meta names in `sender_action: react` payloads; any other emoji is sent as itself. */
const REACTION_NAMES: Record<string, string> = {
  '❤️': 'love',
  '❤': 'love',
  '👍': 'like',
  '😆': 'haha',
  '😮': 'wow',
  '😢': 'sad',
  '😠': 'angry',
};

export interface MetaMessagingAdapterOptions {
  type: MetaMessagingType;
  /** META_GRAPH_URL. */
  graphUrl: string;
  /** META_APP_SECRET: accepted for every channel besides the channel's own `metaAppSecret`. */
  appSecret?: string | null;
  profiles?: ProfileCacheOptions;
  /** Whether the tenant's flag `ignoreIgStories` is enabled (story mentions are then not stored); absent: kept. */
  storiesIgnored?: (tenantId: number) => Promise<boolean>;
  /** The checked fetch (platform/net) for attachment links; absent: the strict default. */
  outbound?: OutboundFetch;
}

export type MetaMessagingAdapter = ChannelAdapter & {
  /** Names and pictures of the events' users from the User Profile API (cached; failures leave the id as name). */
  enrichInbound(channel: ChannelCredentials, events: InboundEvent[]): Promise<InboundEvent[]>;
  /** The Graph client of a channel (its version): /fb/register-pages uses the same one. */
  graph(channel: Pick<ChannelCredentials, 'wabaVersion'>): GraphClient;
  subscribe(pageId: string, token: string, version: string): Promise<void>;
  unsubscribe(pageId: string, token: string, version: string): Promise<void>;
};

/** A page token's own node, with the page's Instagram business account when asked for (`GET /me?fields=...`). */
const pageNodeSchema = graphNodeSchema.extend({
  instagram_business_account: z.object({ id: z.union([z.string(), z.number()]).transform(String) }).nullish(),
});

/** Splits text into parts of at most `max` (measured by `size` per character), never inside a surrogate pair. */
export function splitText(text: string, max: number, size: (char: string) => number = (char) => char.length): string[] {
  const parts: string[] = [];
  let current = '';
  let used = 0;
  for (const char of text) {
    if (used + size(char) > max) {
      parts.push(current);
      current = '';
      used = 0;
    }
    current += char;
    used += size(char);
  }
  if (current) parts.push(current);
  return parts;
}

function tokenOf(channel: ChannelCredentials): string {
  if (!channel.tokenAPI) throw new ProviderError('meta: the channel has no page access token', true);
  return channel.tokenAPI;
}

/** Where sends go: `/{page-id}/messages` (messenger), `/{ig-id}/messages` (instagram), else `/me/messages`. */
const senderOf = (channel: ChannelCredentials) => graphId(channel.wabaId ?? 'me', 'page id');

/** The page a channel's token belongs to: stored at connect time; a messenger channel's own id otherwise. */
function pageOf(type: MetaMessagingType, channel: ChannelCredentials): string {
  const stored = channel.providerState.pageId;
  if (typeof stored === 'string' && stored) return graphId(stored, 'page id');
  return graphId(type === 'messenger' ? (channel.wabaId ?? 'me') : 'me', 'page id');
}

export function createMetaMessagingAdapter(options: MetaMessagingAdapterOptions): MetaMessagingAdapter {
  const { type } = options;
  const root = createGraphClient(options.graphUrl, { fetch: options.outbound });
  const graph = (channel: Pick<ChannelCredentials, 'wabaVersion'>) => root.versioned(channel.wabaVersion);
  const profiles = createProfileLookup(type, graph, options.profiles);

  /** Story mentions go when the tenant ignores them; the flag is read only when a call carries one. */
  async function withoutIgnoredStories(channel: ChannelCredentials, events: InboundEvent[]) {
    if (!options.storiesIgnored || !events.some(isStoryMention)) return events;
    const ignored = await options.storiesIgnored(channel.tenantId).catch(() => false);
    return ignored ? events.filter((event) => !isStoryMention(event)) : events;
  }

  /** The app receives the page's messaging webhooks (Instagram's too: they flow through the linked page). */
  async function subscribe(pageId: string, token: string, version: string): Promise<void> {
    const query = { subscribed_fields: SUBSCRIBED_FIELDS.join(',') };
    const path = `${graphId(pageId, 'page id')}/subscribed_apps`;
    await root.versioned(version).call('POST', path, { token, query }, successSchema);
  }

  async function unsubscribe(pageId: string, token: string, version: string): Promise<void> {
    await root
      .versioned(version)
      .call('DELETE', `${graphId(pageId, 'page id')}/subscribed_apps`, { token }, successSchema);
  }

  /**
   * The fields every send carries: the recipient, the window's messaging type (outside the 24-hour window only the
   * HUMAN_AGENT tag may reach the customer, up to 7 days after their last message) and the reply.
   */
  function envelope(message: OutboundMessage, replyTo: string | null): Record<string, unknown> {
    return {
      recipient: { id: graphId(message.to, 'recipient') },
      ...(message.windowOpen === false
        ? { messaging_type: 'MESSAGE_TAG', tag: 'HUMAN_AGENT' }
        : { messaging_type: 'RESPONSE' }),
      ...(replyTo ? { reply_to: { mid: replyTo } } : {}),
    };
  }

  async function post(channel: ChannelCredentials, body: Record<string, unknown> | FormData): Promise<SendResult> {
    const call = body instanceof FormData ? { form: body } : { json: body };
    const answer = await graph(channel).call(
      'POST',
      `${senderOf(channel)}/messages`,
      { token: tokenOf(channel), ...call },
      sendAnswerSchema,
    );
    return { providerMessageId: answer.message_id, ack: 1, timestamp: Date.now() };
  }

  async function sendText(channel: ChannelCredentials, message: OutboundMessage, marker: string, reply: string | null) {
    const parts = splitText(message.body, TEXT_LIMIT[type].max, TEXT_LIMIT[type].size);
    if (parts.length === 0) throw new ProviderError('meta: empty message', true);
    let first: SendResult | null = null;
    for (const [index, text] of parts.entries()) {
      const metadata = index === 0 ? marker : `${marker}:${index}`;
      const body = { ...envelope(message, index === 0 ? reply : null), message: { text, metadata } };
      const sent = await post(channel, body);
      first ??= sent;
    }
    return first!;
  }

  /**
   * A stored file: Messenger takes it as multipart `filedata` (the Send API's upload); Instagram's Send API takes
   * attachments by URL, so it gets the file's signed link (valid 1 h: Meta fetches it at once). The text follows as its
   * own message.
   */
  async function sendFile(channel: ChannelCredentials, message: OutboundMessage, marker: string, reply: string | null) {
    const media = message.media!;
    const attachmentType = ATTACHMENT_TYPE[message.mediaType] ?? 'file';
    if (type === 'instagram' && message.mediaUrl) {
      const attachment = { type: attachmentType, payload: { url: message.mediaUrl } };
      return post(channel, { ...envelope(message, reply), message: { attachment, metadata: marker } });
    }
    const form = new FormData();
    for (const [key, value] of Object.entries(envelope(message, reply))) {
      form.set(key, typeof value === 'string' ? value : JSON.stringify(value));
    }
    const attachment = { type: attachmentType, payload: { is_reusable: false } };
    form.set('message', JSON.stringify({ attachment, metadata: marker }));
    form.set('filedata', new Blob([new Uint8Array(media.data)], { type: media.mime }), media.name);
    return post(channel, form);
  }

  async function sendPayload(
    channel: ChannelCredentials,
    message: OutboundMessage,
    marker: string,
    reply: string | null,
  ) {
    const payload = message.payload!;
    if (payload.kind === 'media-url') {
      const attachment = {
        type: ATTACHMENT_TYPE[payload.mediaType] ?? 'file',
        payload: { url: payload.url, is_reusable: false },
      };
      const result = await post(channel, { ...envelope(message, reply), message: { attachment, metadata: marker } });
      if (payload.caption) await sendText(channel, { ...message, body: payload.caption }, `${marker}:caption`, null);
      return result;
    }
    if (payload.kind === 'buttons') {
      // Messenger and Instagram show choices as quick replies; the customer's pick comes back as its payload.
      const quick_replies = payload.buttons.map((b) => ({ content_type: 'text', title: b.title, payload: b.id }));
      const text = [payload.header, payload.body, payload.footer].filter(Boolean).join('\n\n');
      return post(channel, { ...envelope(message, reply), message: { text, quick_replies, metadata: marker } });
    }
    throw new ProviderError(`meta: ${payload.kind} messages are WhatsApp's only`, true);
  }

  return {
    type,
    capabilities: {
      edit: false,
      delete: false,
      react: true,
      qrcode: false,
      media: ['chat', 'image', 'video', 'audio', 'ptt', 'application', 'sticker'],
    },

    verifyInbound(channel, request) {
      const header = request.headers[META_SIGNATURE_HEADER];
      return verifyMetaSignature(request.rawBody, header, [channel.metaAppSecret, options.appSecret]);
    },

    parseInbound: (channel, body) => parseMetaMessagingWebhook(type, channel, body),

    enrichInbound: async (channel, events) => profiles.enrich(channel, await withoutIgnoredStories(channel, events)),

    graph,

    async send(channel, message) {
      // Meta echoes our sends with this metadata: parse skips those echoes (the send job stores the answered id).
      const marker = `${OUR_METADATA_PREFIX}${message.clientMessageId ?? crypto.randomUUID()}`;
      const reply = message.replyToProviderMessageId;
      if (message.payload) return sendPayload(channel, message, marker, reply);
      if (!message.media) return sendText(channel, message, marker, reply);
      const result = await sendFile(channel, message, marker, reply);
      // Attachments carry no caption on these APIs: the text follows as its own message.
      if (captionOf(message)) await sendText(channel, message, `${marker}:caption`, null);
      return result;
    },

    async edit() {
      throw new ProviderError(`${type}: sent messages cannot be edited`, true);
    },

    async delete() {
      throw new ProviderError(`${type}: sent messages cannot be deleted`, true);
    },

    async react(channel, to, providerMessageId, emoji) {
      const body = {
        recipient: { id: graphId(to, 'recipient') },
        sender_action: emoji ? 'react' : 'unreact',
        payload: { message_id: providerMessageId, ...(emoji ? { reaction: REACTION_NAMES[emoji] ?? emoji } : {}) },
      };
      await graph(channel).call(
        'POST',
        `${senderOf(channel)}/messages`,
        { token: tokenOf(channel), json: body },
        graphNodeSchema.partial(),
      );
    },

    async downloadMedia(channel, ref, maxBytes) {
      const { data, mime } = await graph(channel).download(ref, maxBytes);
      return { data, mime, name: null };
    },

    subscribe,
    unsubscribe,

    async start(channel) {
      const token = tokenOf(channel);
      // The page token's own node is the page: a bad or expired token fails here (Graph code 190, permanent).
      // Ownership (issue 22): a messenger channel's id must be that page; an instagram channel's the page's
      // Instagram business account, which Graph names only to the page's token.
      const fields = type === 'instagram' ? 'id,name,instagram_business_account' : 'id,name';
      const page = await graph(channel).call('GET', 'me', { token, query: { fields } }, pageNodeSchema);
      if (type === 'messenger' && channel.wabaId && channel.wabaId !== page.id) {
        throw new ProviderError('meta: the token belongs to another page', true);
      }
      const instagramId = page.instagram_business_account?.id ?? null;
      if (type === 'instagram' && (!instagramId || (channel.wabaId && channel.wabaId !== instagramId))) {
        throw new ProviderError("meta: the Instagram account is not the token's page's", true);
      }
      await subscribe(page.id, token, channel.wabaVersion);
      return {
        number: null,
        name: page.name,
        status: 'CONNECTED',
        providerState: {
          ...channel.providerState,
          pageId: page.id,
          pageName: page.name ?? null,
          ...(type === 'instagram' ? { instagramId } : {}),
        },
      };
    },

    async stop(channel) {
      await unsubscribe(pageOf(type, channel), tokenOf(channel), channel.wabaVersion);
    },
  };
}

/** The two adapters of this provider, for the registry; `tenantFlags` reads a tenant's toggles (client-contract §10). */
export function metaMessagingAdapters(
  config: { metaGraphUrl: string; metaAppSecret?: string | null | undefined },
  tenantFlags?: (tenantId: number) => Promise<Pick<TenantFlags, 'ignoreIgStories'>>,
  outbound?: OutboundFetch,
) {
  const storiesIgnored =
    tenantFlags && (async (tenantId: number) => (await tenantFlags(tenantId)).ignoreIgStories === 'enabled');
  const make = (type: MetaMessagingType) =>
    [
      type,
      createMetaMessagingAdapter({
        type,
        graphUrl: config.metaGraphUrl,
        appSecret: config.metaAppSecret,
        storiesIgnored,
        outbound,
      }),
    ] as const;
  return [make('messenger'), make('instagram')];
}
