/**
 * The tickets module's domain events, published after commit by the tickets service and by ingestion. The tickets
 * realtime listener (tickets.realtime.ts) fans them out to the sockets whose user may see the ticket, with the one
 * visibility policy.
 */
import type { TicketDto } from '@conversa/shared';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    /** A ticket was created or changed. `previousUserId`/`previousQueueId` let the fan-out tell users who lost sight of it. */
    'tickets.changed': {
      tenantId: number;
      type: 'ticket:create' | 'ticket:update';
      ticket: TicketDto;
      previousUserId?: number | null;
      previousQueueId?: number | null;
      /** A new pending ticket from a customer: also `notification:new`. */
      notify?: boolean;
    };
  }
}

export {};
