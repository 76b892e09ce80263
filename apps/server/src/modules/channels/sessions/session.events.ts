/** Domain events of stateful sessions (published after commit by the sessions service). */
import type { ChannelSessionState } from '@conversa/shared';

declare module '../../../platform/events/bus.js' {
  interface DomainEvents {
    /** History sync after a login (0..100). */
    'channels.session_sync': { tenantId: number; session: ChannelSessionState; percent: number };
    'channels.battery': { tenantId: number; sessionName: string; battery: number };
  }
}

export {};
