/** The tags module's domain events, published by its service after commit. */
import type { TagDto } from '@conversa/shared';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    'tags.changed': { tenantId: number; action: 'create' | 'update' | 'delete'; tag: TagDto };
  }
}

export {};
