/** The users module's domain events, published by its services after commit. */
declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    'users.created': { tenantId: number; userId: number };
    'users.updated': { tenantId: number; userId: number };
    'users.deleted': { tenantId: number; userId: number };
    'users.presence_changed': { tenantId: number; userId: number; name: string; isOnline: boolean };
  }
}

export {};
