/**
 * A ChannelAdapter over a SessionDriver, so the registry, the send job and the message actions keep one interface for
 * stateful channels too. There are no webhooks (events come from the socket through the host). A send runs only on
 * the session's owner (the send job is in the session's queue): elsewhere, or while the session reconnects, it fails
 * with a transient ERR_WAPP_NOT_INITIALIZED and is retried. Edits, deletes and reactions asked for on another node
 * run on the owner (session-actions.ts); media downloads run anywhere, except for a driver that can only download
 * through its live session (`mediaNeedsSession`): its media jobs run in the session's queue, on the owner.
 */
import { ProviderError, type ChannelAdapter } from '../channels.adapter.js';
import { SessionNotRunningError } from './session-actions.js';
import type { SessionDriver } from './session-driver.js';
import type { SessionHost } from './session-host.js';

export const STATEFUL_CHANNEL_TYPES = ['baileys', 'whatsapp'] as const;

/** Gateways that hold the session themselves and offer its live operations over their API (ChannelAdapter.live). */
export const GATEWAY_CHANNEL_TYPES = ['evo', 'meow'] as const;

/** The channel types with the live operations of a WhatsApp session (groups, phone book, history, mentions). */
export const LIVE_CHANNEL_TYPES = [...STATEFUL_CHANNEL_TYPES, ...GATEWAY_CHANNEL_TYPES] as const;

export function createSessionAdapter(driver: SessionDriver, host: SessionHost): ChannelAdapter {
  return {
    type: driver.type,
    capabilities: {
      edit: true,
      delete: true,
      react: true,
      qrcode: true,
      media: ['chat', 'image', 'video', 'audio', 'ptt', 'application', 'sticker'],
      mediaOnOwner: driver.mediaNeedsSession === true,
    },
    verifyInbound: () => false,
    parseInbound: () => {
      throw new ProviderError('stateful sessions receive no webhooks', true);
    },
    async send(channel, message) {
      const live = host.live(channel.id);
      if (!live) throw new SessionNotRunningError(channel.id);
      return live.send(message);
    },
    async edit(channel, to, providerMessageId, body) {
      await host.act({ op: 'edit', channelId: channel.id, to, providerMessageId, body });
    },
    async delete(channel, to, providerMessageId) {
      await host.act({ op: 'delete', channelId: channel.id, to, providerMessageId });
    },
    async react(channel, to, providerMessageId, emoji) {
      await host.act({ op: 'react', channelId: channel.id, to, providerMessageId, emoji });
    },
    async downloadMedia(channel, ref, maxBytes) {
      if (!driver.mediaNeedsSession) return driver.downloadMedia(ref, maxBytes);
      const live = host.live(channel.id);
      if (!live) throw new SessionNotRunningError(channel.id);
      return live.downloadMedia(ref, maxBytes);
    },
    // The sessions service starts and stops stateful sessions through their lease, never through the adapter.
    start: async () => ({ number: null, providerState: {}, status: 'OPENING' }),
    stop: async () => undefined,
  };
}
