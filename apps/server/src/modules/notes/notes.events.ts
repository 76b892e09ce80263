/** The notes module's domain events, published after commit; notes.realtime.ts sends them to the ticket's viewers. */
import type { TicketNoteEvent } from '@conversa/shared';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    'notes.changed': { tenantId: number; ticketId: number; event: TicketNoteEvent };
  }
}

export {};
