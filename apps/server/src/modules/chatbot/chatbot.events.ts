/** The chatbot module's domain events, published after commit by the flows and auto-reply services. */

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    /**
     * A chat flow or a legacy auto-reply of the tenant was created, changed or deleted: the engine's routing
     * configuration of the tenant is read again.
     */
    'chatbot.changed': { tenantId: number };
  }
}

export {};
