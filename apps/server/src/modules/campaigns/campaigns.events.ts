/** The campaigns module's domain events, published after commit; campaigns.realtime.ts tells the sockets. */
declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    /** A campaign or one of its recipients changed (ids only: the screens re-read the campaign). */
    'campaigns.changed': { tenantId: number; campaignId: number; action?: 'create' | 'update' | 'delete' };
  }
}

export {};
