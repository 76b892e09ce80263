/**
 * The WhatsApp Cloud API channel (`waba`): Meta's Graph API with the channel's access token (decisions.md field
 * mapping: `tokenAPI` token, `wabaId` phone number id, `bmToken` business account id, `wabaVersion`). Webhooks are
 * signed with the Meta app's secret (`X-Hub-Signature-256` over the raw body; the channel's `metaAppSecret` or the
 * installation's META_APP_SECRET). Meta registers the webhook URL in its dashboard, not through the API, so `start`
 * only verifies that the token owns the number (and the number the business account) and `stop` has nothing remote
 * to undo. The Cloud API cannot edit or delete a sent message.
 */
import { type MessageMediaType, type OutboundPayload } from '@conversa/shared';
import {
  captionOf,
  ProviderError,
  type ChannelAdapter,
  type OutboundMessage,
  type SendResult,
} from '../../channels.adapter.js';
import { verifyMetaSignature } from '../../providers/meta/meta.signature.js';
import { createWabaClient, wabaCredsOf, type WabaClient, type WabaCreds } from './waba.client.js';
import { BSUID_PATTERN, parseWabaWebhook } from './waba.parse.js';

/** Cloud API limits: a text body, a media caption. */
export const WABA_TEXT_MAX = 4096;
export const WABA_CAPTION_MAX = 1024;

/** Cloud API message type of each media kind we send. */
const MEDIA_TYPES: Partial<Record<MessageMediaType, 'image' | 'video' | 'audio' | 'document' | 'sticker'>> = {
  image: 'image',
  video: 'video',
  audio: 'audio',
  ptt: 'audio',
  sticker: 'sticker',
  application: 'document',
};

const LINK = /\bhttps?:\/\/\S/i;

/**
 * The address of a recipient: a phone number goes as `to` (digits), a business-scoped user id (a customer who hid
 * the number behind a username) as `recipient`, a group (Groups API: its `group_id`, not digits) as `to` with
 * `recipient_type: group`.
 */
export function addressOf(to: string, group = false): Record<string, string> {
  if (group) return { recipient_type: 'group', to };
  if (BSUID_PATTERN.test(to)) return { recipient: to };
  const digits = to.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) throw new ProviderError('waba: the contact has no valid number', true);
  return { to: digits };
}

/** The Cloud API body of an interactive/template/link payload (the send job's `payload`). */
export function payloadBody(payload: OutboundPayload): Record<string, unknown> {
  switch (payload.kind) {
    case 'template':
      return {
        type: 'template',
        template: {
          name: payload.name,
          language: { code: payload.language },
          ...(payload.components.length ? { components: payload.components } : {}),
        },
      };
    case 'buttons':
      return {
        type: 'interactive',
        interactive: {
          type: 'button',
          ...(payload.header ? { header: { type: 'text', text: payload.header } } : {}),
          body: { text: payload.body },
          ...(payload.footer ? { footer: { text: payload.footer } } : {}),
          action: { buttons: payload.buttons.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.title } })) },
        },
      };
    case 'list':
      return {
        type: 'interactive',
        interactive: {
          type: 'list',
          ...(payload.header ? { header: { type: 'text', text: payload.header } } : {}),
          body: { text: payload.body },
          ...(payload.footer ? { footer: { text: payload.footer } } : {}),
          action: {
            button: payload.button,
            sections: payload.sections.map((section) => ({
              title: section.title,
              rows: section.rows.map((row) => ({
                id: row.id,
                title: row.title,
                ...(row.description ? { description: row.description } : {}),
              })),
            })),
          },
        },
      };
    case 'media-url': {
      const type = MEDIA_TYPES[payload.mediaType] ?? 'document';
      const object: Record<string, unknown> = { link: payload.url };
      if (payload.caption && type !== 'audio' && type !== 'sticker') object.caption = payload.caption;
      if (type === 'document' && payload.filename) object.filename = payload.filename;
      return { type, [type]: object };
    }
  }
}

export function createWabaAdapter(options: {
  graphUrl: string;
  appSecret?: string | null;
  client?: WabaClient;
  /** The tenant's Cloud API token (`tenants.waba_token`), used when a channel has none of its own. */
  tenantToken?: (tenantId: number) => Promise<string | null>;
}): ChannelAdapter {
  const client = options.client ?? createWabaClient({ graphUrl: options.graphUrl });

  /** The channel's token, else the tenant's `wabaToken` (read only when the channel has none). */
  async function credsOf(channel: Parameters<ChannelAdapter['send']>[0]): Promise<WabaCreds> {
    if (channel.tokenAPI?.trim() || !options.tenantToken) return wabaCredsOf(channel);
    return wabaCredsOf(channel, await options.tenantToken(channel.tenantId));
  }

  async function sendBody(
    creds: WabaCreds,
    message: OutboundMessage,
    body: Record<string, unknown>,
  ): Promise<SendResult> {
    const context = message.replyToProviderMessageId
      ? { context: { message_id: message.replyToProviderMessageId } }
      : {};
    const sent = await client.sendMessage(creds, { ...addressOf(message.to, message.toGroup), ...context, ...body });
    // Graph accepted it: ack 1 (sent); delivery and read arrive as statuses.
    return { providerMessageId: sent.id, ack: 1, timestamp: Date.now() };
  }

  async function sendMedia(creds: WabaCreds, message: OutboundMessage): Promise<SendResult> {
    const file = message.media!;
    const type = MEDIA_TYPES[message.mediaType] ?? 'document';
    const id = await client.uploadMedia(creds, file);
    const object: Record<string, unknown> = { id };
    const caption = captionOf(message);
    const inCaption = type !== 'audio' && type !== 'sticker' && caption.length <= WABA_CAPTION_MAX;
    if (inCaption && caption) object.caption = caption;
    if (type === 'document') object.filename = file.name;
    const result = await sendBody(creds, message, { type, [type]: object });
    // Audio and stickers take no caption (and a long text does not fit one): the text follows as its own message.
    if (!inCaption && caption) await sendText(creds, { ...message, replyToProviderMessageId: null });
    return result;
  }

  async function sendText(creds: WabaCreds, message: OutboundMessage): Promise<SendResult> {
    const body = message.body;
    if (!body.trim()) throw new ProviderError('waba: empty message', true);
    let first: SendResult | null = null;
    for (let offset = 0; offset < body.length; offset += WABA_TEXT_MAX) {
      const part = body.slice(offset, offset + WABA_TEXT_MAX);
      // Only the first part replies to the quoted message.
      const replying = offset === 0 ? message : { ...message, replyToProviderMessageId: null };
      const result = await sendBody(creds, replying, {
        type: 'text',
        text: { body: part, preview_url: LINK.test(part) },
      });
      first ??= result;
    }
    return first!;
  }

  return {
    type: 'waba',
    capabilities: {
      edit: false,
      delete: false,
      react: true,
      qrcode: false,
      media: [
        'chat',
        'image',
        'video',
        'audio',
        'ptt',
        'application',
        'sticker',
        'templates',
        'button',
        'list',
        'interactive',
      ],
    },

    verifyInbound(channel, request) {
      return verifyMetaSignature(request.rawBody, request.headers['x-hub-signature-256'], [
        channel.metaAppSecret,
        options.appSecret,
      ]);
    },

    parseInbound: (channel, body) => parseWabaWebhook(body, channel.wabaId),

    async send(channel, message) {
      const creds = await credsOf(channel);
      if (message.payload) return sendBody(creds, message, payloadBody(message.payload));
      if (message.media) return sendMedia(creds, message);
      return sendText(creds, message);
    },

    edit() {
      return Promise.reject(new ProviderError('waba: the Cloud API cannot edit a sent message', true));
    },

    delete() {
      return Promise.reject(new ProviderError('waba: the Cloud API cannot delete a sent message', true));
    },

    async react(channel, to, providerMessageId, emoji) {
      // An empty emoji removes our reaction.
      await client.sendMessage(await credsOf(channel), {
        ...addressOf(to),
        type: 'reaction',
        reaction: { message_id: providerMessageId, emoji },
      });
    },

    async downloadMedia(channel, ref, maxBytes) {
      const { data, mime } = await client.downloadMedia(await credsOf(channel), ref, maxBytes);
      return { data, mime, name: null };
    },

    async start(channel, webhookUrl) {
      const creds = await credsOf(channel);
      // Ownership: Graph answers the number only to a token that reaches its business account, and the business
      // account the channel names (templates are listed under it) must be the one that lists the number.
      const phone = await client.verifyPhone(creds);
      if (creds.businessAccountId && !(await client.accountHasPhone(creds))) {
        throw new ProviderError('waba: the phone number is not one of the business account’s', true);
      }
      return {
        number: phone.number,
        ...(phone.verifiedName ? { name: phone.verifiedName } : {}),
        status: 'CONNECTED',
        providerState: { verifiedName: phone.verifiedName, webhookUrl },
      };
    },

    // The webhook subscription lives in Meta's app dashboard: nothing to undo remotely.
    stop: () => Promise.resolve(),
  };
}
