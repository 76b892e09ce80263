/** The schedules module's domain events, published after commit; schedules.realtime.ts tells the sockets. */
declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    /** A scheduled message was created, edited, canceled or sent (ids only: the screens re-read what they may see). */
    'schedules.changed': {
      tenantId: number;
      action: 'create' | 'update' | 'delete';
      id: number;
      ticketId: number | null;
      /** The author (not in the socket payload: it picks the audience, schedules.realtime.ts). */
      userId: number | null;
    };
  }
}

export {};
