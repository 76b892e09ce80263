/**
 * NotificaMe hub channels (`hub` = WhatsApp through the hub, `hub_facebook`, `hub_instagram`, `hub_email`): one adapter
 * per type over the same client. The channel's `wabaId` is the hub channel's id (the `from` of its sends and the
 * `criteria.channel` of its subscription); the API token is the channel's `tokenAPI` when set, else the tenant's
 * `hubToken`, read at each call so a new tenant token reaches every hub channel at once.
 *
 * The hub signs nothing: the webhook URL registered in the subscription carries `?token=`, a value derived from the
 * channel's webhook secret (never the secret itself), and the intake compares it in constant time. Every call names
 * its subscription (`subscriptionId`): one that is not the channel's current subscription is refused like a wrong
 * token.
 */
import crypto from 'node:crypto';
import type { HUB_CHANNEL_TYPES } from '@conversa/shared';
import { hubChannelNameOf, type ChannelType, type OutboundPayload } from '@conversa/shared';
import {
  ProviderError,
  type ChannelAdapter,
  type ChannelCredentials,
  type OutboundMessage,
} from '../../channels.adapter.js';
import type { HubClient } from './hub.client.js';
import { decodeHubMediaRef, hubSubscriptionIdOf, parseHubWebhook } from './hub.parse.js';

/** The header the hub webhook route fills from the URL's `token` (the hub itself sends no header of its own). */
export const HUB_WEBHOOK_TOKEN_HEADER = 'x-conversa-hub-token';

/** The `token` of a channel's webhook URL: derived from its secret, so rotating the secret changes it. */
export function hubWebhookTokenOf(webhookSecret: string): string {
  return crypto.createHmac('sha256', webhookSecret).update('hub-webhook-token').digest('hex').slice(0, 40);
}

/** The URL registered with the hub: ours, plus the channel's token. */
export function hubWebhookUrl(webhookUrl: string, webhookSecret: string): string {
  const url = new URL(webhookUrl);
  url.searchParams.set('token', hubWebhookTokenOf(webhookSecret));
  return url.toString();
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

export interface HubAdapterOptions {
  type: (typeof HUB_CHANNEL_TYPES)[number];
  client: HubClient;
  /** The tenant's hub token (tenants.hub_token); absent in registries built without a database (tools). */
  tenantToken?: (tenantId: number) => Promise<string | null>;
}

/** The MIME type the hub is told for a file we send (it fetches the file itself). */
function mimeOfPayload(payload: Extract<OutboundPayload, { kind: 'media-url' }>): string {
  const byType = { image: 'image/jpeg', video: 'video/mp4', audio: 'audio/mpeg', sticker: 'image/webp' } as const;
  return payload.mediaType === 'application' ? 'application/octet-stream' : byType[payload.mediaType];
}

export function createHubAdapter(options: HubAdapterOptions): ChannelAdapter {
  const { client, type } = options;
  const channelName = hubChannelNameOf(type as ChannelType)!;

  async function tokenOf(channel: ChannelCredentials): Promise<string> {
    const token = channel.tokenAPI || (await options.tenantToken?.(channel.tenantId)) || null;
    if (!token) throw new ProviderError('hub: no API token (tenant hubToken)', true);
    return token;
  }

  function hubChannelId(channel: ChannelCredentials): string {
    if (!channel.wabaId) throw new ProviderError('hub: the channel names no hub channel', true);
    return channel.wabaId;
  }

  /** The hub's `contents` of one outbound message. */
  function contentsOf(message: OutboundMessage): Record<string, unknown>[] {
    const payload = message.payload;
    if (payload?.kind === 'template') {
      if (type !== 'hub') throw new ProviderError('hub: templates exist only on WhatsApp channels', true);
      const template = { name: payload.name, language: { code: payload.language }, components: payload.components };
      return [{ type: 'template', template }];
    }
    if (payload?.kind === 'media-url') {
      const caption = payload.caption ?? (message.body || undefined);
      return [{ type: 'file', fileUrl: payload.url, fileMimeType: mimeOfPayload(payload), fileCaption: caption }];
    }
    if (message.media) {
      // The hub fetches files itself: it gets the message's signed media link.
      if (!message.mediaUrl) throw new ProviderError('hub: the file has no public link to send', true);
      const caption = message.body && message.body !== message.media.name ? message.body : undefined;
      return [
        {
          type: 'file',
          fileUrl: message.mediaUrl,
          fileMimeType: message.media.mime,
          fileName: message.media.name,
          ...(caption ? { fileCaption: caption } : {}),
        },
      ];
    }
    // Buttons and lists are not offered on hub channels (the /wabameta* routes are WABA's): their text goes.
    const text = payload && 'body' in payload ? payload.body : message.body;
    if (!text) throw new ProviderError('hub: empty message', true);
    return [{ type: 'text', text }];
  }

  const unsupported = (what: string) => Promise.reject(new ProviderError(`hub: ${what} is not supported`, true));

  return {
    type,
    capabilities: {
      edit: false,
      delete: false,
      react: false,
      qrcode: false,
      media: ['chat', 'image', 'video', 'audio', 'ptt', 'application', 'templates'],
    },

    verifyInbound(channel, request) {
      const given = request.headers[HUB_WEBHOOK_TOKEN_HEADER];
      if (typeof given !== 'string' || !sameToken(given, hubWebhookTokenOf(channel.webhookSecret))) return false;
      // The token proves the URL; the call must also come from the channel's own subscription (not one replaced by a
      // restart that the hub still serves, nor another account's subscription of the same hub channel).
      const expected = channel.providerState.subscriptionId;
      return typeof expected === 'string' && expected !== '' && hubSubscriptionIdOf(request.body) === expected;
    },

    parseInbound: (channel, body) => parseHubWebhook(channel.type, body),

    async send(channel, message) {
      const token = await tokenOf(channel);
      const body = { from: hubChannelId(channel), to: message.to, contents: contentsOf(message) };
      const id = await client.sendMessage(token, channelName, body);
      // Accepted by the hub; its SENT status (ack 1) and the later ones arrive as webhooks.
      return { providerMessageId: id, ack: 1, timestamp: Date.now() };
    },

    edit: () => unsupported('editing'),
    delete: () => unsupported('deleting'),
    react: () => unsupported('reacting'),

    async downloadMedia(channel, ref, maxBytes) {
      const media = decodeHubMediaRef(ref);
      if (!media) throw new ProviderError('hub download: not a hub media reference', true);
      const file =
        type === 'hub'
          ? await client.whatsappMedia(
              await tokenOf(channel),
              hubChannelId(channel),
              { type: media.type, fileMimeType: media.mime ?? undefined, fileUrl: media.url },
              maxBytes,
            )
          : await client.download(media.url, maxBytes);
      return { data: file.data, mime: media.mime ?? file.mime, name: null };
    },

    async start(channel, webhookUrl) {
      const token = await tokenOf(channel);
      const id = hubChannelId(channel);
      const found = (await client.listChannels(token)).find((c) => c.id === id);
      if (!found) throw new ProviderError('hub: the account has no such channel', true);
      // A restart (or /hub-channel-setagain/) replaces the subscription instead of adding a second one.
      const previous = channel.providerState.subscriptionId;
      if (typeof previous === 'string') await client.unsubscribe(token, previous).catch(() => undefined);
      const subscriptionId = await client.subscribe(token, id, hubWebhookUrl(webhookUrl, channel.webhookSecret));
      return {
        number: type === 'hub' ? channel.number : null,
        providerState: { subscriptionId, hubChannel: found.channel, hubName: found.name, webhookUrl },
      };
    },

    async stop(channel) {
      const subscriptionId = channel.providerState.subscriptionId;
      if (typeof subscriptionId !== 'string') return;
      await client.unsubscribe(await tokenOf(channel), subscriptionId);
    },
  };
}
