/** The channels module's domain events, published after commit by the channels service and the webhook intake. */
import type { ChannelDto, ChannelSessionState } from '@conversa/shared';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    'channels.changed': { tenantId: number; channel: ChannelDto };
    'channels.deleted': { tenantId: number; channelId: number };
    /** Connection state moved (connecting, connected, disconnected, QR code). */
    'channels.session_changed': { tenantId: number; session: ChannelSessionState };
  }
}

export {};
