/** The auth module's domain events, published after commit. */
declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    /** A login session ended: logout, or its refresh family revoked (a rotated token reused, a stale version). */
    'auth.session_ended': { tenantId: number; userId: number; sessionId: string };
    /** Every session of a user ended (a password reset). */
    'auth.sessions_revoked': { tenantId: number; userId: number };
  }
}

export {};
