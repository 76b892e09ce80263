/** The kanban module's domain events, published by its service after commit. */
import type { KanbanLaneEvent } from '@conversa/shared';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    /** A lane created, renamed, moved or deleted, or the lanes reordered. */
    'kanban.lanes_changed': { tenantId: number; change: KanbanLaneEvent };
  }
}

export {};
