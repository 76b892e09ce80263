/** The contacts module's domain events, published by its services and jobs after commit. */
import type { ContactDto, ContactImportProgress } from '@conversa/shared';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    'contacts.created': { tenantId: number; contact: ContactDto };
    'contacts.updated': { tenantId: number; contact: ContactDto };
    'contacts.deleted': { tenantId: number; contactId: number };
    /** Progress of one import, for the user who started it. */
    'contacts.import_progressed': { tenantId: number; userId: number; progress: ContactImportProgress };
  }
}

export {};
