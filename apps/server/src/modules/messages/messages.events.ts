/** The messages module's domain events (published after commit by ingestion, sends, edits, acks, deletes). */
import type { MessageEventDto } from '@conversa/shared';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    'messages.changed': {
      tenantId: number;
      ticketId: number;
      type: 'chat:create' | 'chat:update' | 'chat:ack' | 'chat:delete';
      /** With its whole ticket: clients merge it into their list row. */
      message: MessageEventDto;
    };
  }
}

export {};
