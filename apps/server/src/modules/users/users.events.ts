/** The users module's domain events, published by its services after commit. */
declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    'users.created': { tenantId: number; userId: number };
    /**
     * `roomsChanged`: the profile or queues changed (the user's sockets must rejoin). `passwordChanged`: every session
     * of the user ended, except `keptSessionId` (the caller's own, renewed by their password change).
     */
    'users.updated': {
      tenantId: number;
      userId: number;
      roomsChanged?: boolean;
      passwordChanged?: boolean;
      keptSessionId?: string | undefined;
    };
    'users.deleted': { tenantId: number; userId: number };
    'users.presence_changed': { tenantId: number; userId: number; name: string; isOnline: boolean };
  }
}

export {};
