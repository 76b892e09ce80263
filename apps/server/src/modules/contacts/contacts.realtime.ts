/**
 * Contacts domain events to socket emits: list changes go to the whole tenant (`{T}:contactList`), import progress
 * only to the user who started the import (`{T}:contactImport`).
 */
import { tenantEvent } from '@conversa/shared';
import type { EventBus } from '../../platform/events/bus.js';
import { rooms, type Realtime } from '../../platform/realtime/server.js';
import './contacts.events.js';

export function registerContactsRealtime(events: EventBus, realtime: Realtime): void {
  const list = (tenantId: number) => [rooms.tenant(tenantId), tenantEvent(tenantId, 'contactList')] as const;
  events.subscribe('contacts.created', ({ tenantId, contact }) => {
    realtime.publish(...list(tenantId), { type: 'contact:create', payload: contact });
  });
  events.subscribe('contacts.updated', ({ tenantId, contact }) => {
    realtime.publish(...list(tenantId), { type: 'contact:update', payload: contact });
  });
  events.subscribe('contacts.deleted', ({ tenantId, contactId }) => {
    realtime.publish(...list(tenantId), { type: 'contact:delete', payload: { id: contactId } });
  });
  events.subscribe('contacts.import_progressed', ({ tenantId, userId, progress }) => {
    realtime.publish(rooms.user(userId), tenantEvent(tenantId, 'contactImport'), progress);
  });
}
