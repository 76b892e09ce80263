/**
 * The customer-service window of Meta's official channels (waba, messenger, instagram): Meta lets a business write
 * freely for 24 hours after the customer's last message. The customer's last message counts on any ticket of theirs
 * on that channel, so a new ticket opened by the agent (or a closed one reopened) carries the window of the
 * conversation, not only its own. Other channel types have no window (null: the DTO leaves it out).
 */
import { and, eq, max } from 'drizzle-orm';
import { CUSTOMER_WINDOW_MS, META_CHANNEL_TYPES } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import { tickets } from './tickets.tables.js';

export interface CustomerWindow {
  open: boolean;
  /** ISO instant the window closes (the customer's last message + 24 h); null when they never wrote. */
  until: string | null;
}

export const hasCustomerWindow = (channelType: string): boolean =>
  (META_CHANNEL_TYPES as readonly string[]).includes(channelType);

/** The window from the customer's last message time (pure: tests pin `now`). */
export function windowFrom(lastReceivedAt: Date | null, now: number = Date.now()): CustomerWindow {
  if (!lastReceivedAt) return { open: false, until: null };
  const until = lastReceivedAt.getTime() + CUSTOMER_WINDOW_MS;
  return { open: now < until, until: new Date(until).toISOString() };
}

/**
 * The window of a ticket's conversation: the newest `last_message_received_at` over the tickets of its contact on
 * its channel (index `tickets_tenant_contact_idx`); null for a channel type without one. Runs in the caller's tenant
 * transaction (RLS).
 */
export async function customerWindowOf(
  tx: Queryable,
  ticket: { contactId: number; channelId: number | null; channel: string },
  now: number = Date.now(),
): Promise<CustomerWindow | null> {
  if (!hasCustomerWindow(ticket.channel) || ticket.channelId === null) return null;
  const [row] = await tx
    .select({ last: max(tickets.lastMessageReceivedAt) })
    .from(tickets)
    .where(and(eq(tickets.contactId, ticket.contactId), eq(tickets.channelId, ticket.channelId)));
  return windowFrom(row?.last ?? null, now);
}
