/** The queues module's domain events, published by its service after commit. */
import type { QueueDto } from '@conversa/shared';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    'queues.changed': { tenantId: number; action: 'create' | 'update' | 'delete'; queue: QueueDto };
  }
}

export {};
