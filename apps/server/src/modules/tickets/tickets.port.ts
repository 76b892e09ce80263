/**
 * What the tickets module needs from the modules that import it: the messages module (system sends) and the chatbot
 * engine (a ticket handed to a flow starts it). Both import tickets (not the other way round), so the composition
 * root hands the tickets module implementations of these ports.
 */
import type { Tx } from '../../platform/db/client.js';
import type { TenantContext } from '../../platform/db/tenancy.js';
import type { TicketRow } from './tickets.repository.js';

/** Who sends a system message: the farewell on resolve, the rating texts, the chatbot's steps, the absence message. */
export type SystemSendType = 'farewell' | 'evaluation' | 'chatbot' | 'absence';

/** A file a system message sends by address (a chat flow's MediaField). */
export interface SystemMedia {
  /** An absolute http(s) URL (a path of this server is made absolute with PUBLIC_URL by the caller). */
  url: string;
  type: 'image' | 'video' | 'audio' | 'document';
  name?: string | null;
  caption?: string | null;
  /**
   * The file is already in the media store (a flow's own upload): the message names that key (the bytes are shared,
   * never copied; nothing deletes a message's file) instead of fetching the address.
   */
  stored?: { key: string; mime: string } | null;
}

export interface TicketMessagingPort {
  /** Queues a message the system sends on the ticket (the farewell on resolve), in the caller's transaction. */
  queueSystemMessage(
    tx: Tx,
    ctx: TenantContext,
    ticketId: number,
    body: string,
    sendType: SystemSendType,
    /** Higher is sent first among the messages queued in one transaction. */
    options?: { priority?: number },
  ): Promise<void>;
  /** Queues a file the system sends by address (the send fetches it), in the caller's transaction. */
  queueSystemMedia(
    tx: Tx,
    ctx: TenantContext,
    ticketId: number,
    media: SystemMedia,
    sendType: SystemSendType,
    options?: { priority?: number },
  ): Promise<void>;
  /** Re-enqueues the sends of the tenant's messages stuck pending or undelivered; answers how many. */
  requeueStuckSends(tx: Tx, ctx: TenantContext): Promise<number>;
}

/** What handing a ticket to a chat flow asks of the chatbot engine. */
export interface TicketChatbotPort {
  /**
   * Runs flow `chatFlowId` from its start on the locked ticket the caller just handed to it (as the system: welcome,
   * first step, ... in the caller's transaction). Answers whether the ticket ended with the humans (the flow handed
   * it over or ended at once), so the caller announces it with `notify`.
   */
  startFlow(tx: Tx, ctx: TenantContext, ticket: TicketRow, chatFlowId: number): Promise<{ notify: boolean }>;
}
