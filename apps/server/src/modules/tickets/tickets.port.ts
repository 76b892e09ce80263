/**
 * What the tickets module needs from the messages module. Messages imports tickets (not the other way round), so the
 * composition root hands the tickets module an implementation of this port.
 */
import type { Tx } from '../../platform/db/client.js';
import type { TenantContext } from '../../platform/db/tenancy.js';

export interface TicketMessagingPort {
  /** Queues a message the system sends on the ticket (the farewell on resolve), in the caller's transaction. */
  queueSystemMessage(
    tx: Tx,
    ctx: TenantContext,
    ticketId: number,
    body: string,
    sendType: 'farewell' | 'evaluation',
    /** Higher is sent first among the messages queued in one transaction. */
    options?: { priority?: number },
  ): Promise<void>;
  /** Re-enqueues the sends of the tenant's messages stuck pending or undelivered; answers how many. */
  requeueStuckSends(tx: Tx, ctx: TenantContext): Promise<number>;
}
