/** What the message pipeline's services and jobs share: narrow dependencies and the after-commit publisher. */
import type { MessageEventDto, TicketDto } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { OutboundFetch } from '../../platform/net/safe-fetch.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import type { AdapterLookup } from './messages.adapters.js';
import type { MediaLinks } from './messages.media-links.js';
import './messages.events.js';

export interface PipelineDeps {
  db: Database;
  jobs: JobQueue;
  events: EventBus;
  adapters: AdapterLookup;
  store: MediaStore;
  links: MediaLinks;
  /** The checked fetch (platform/net) for files sent by a tenant's address. */
  outbound: OutboundFetch;
}

export type MessageChange = 'chat:create' | 'chat:update' | 'chat:ack' | 'chat:delete';

/** Call only after the transaction that made the change committed. */
export function publishMessage(
  events: EventBus,
  tenantId: number,
  type: MessageChange,
  message: MessageEventDto,
): void {
  events.publish('messages.changed', { tenantId, ticketId: message.ticketId, type, message });
}

/** After a send is stored: the new message (chat:create) and, when the send touched it, its ticket (ticket:update). */
export function publishSent(
  events: EventBus,
  tenantId: number,
  message: MessageEventDto,
  ticket: TicketDto | null | undefined,
): void {
  publishMessage(events, tenantId, 'chat:create', message);
  if (ticket) events.publish('tickets.changed', { tenantId, type: 'ticket:update', ticket });
}

/** Provider error texts can be long (HTML error pages): keep what fits a log line. */
export const shortError = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500);
