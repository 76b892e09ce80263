/**
 * What a scheduled message may write into: the rules of `POST /tickets` (tickets.create.ts) and of a send, for the
 * conversation the send will use (the contact's active ticket on the channel), checked with the AUTHOR as the actor
 * at create and again at send (a profile, queue or allowed-channels change in between counts):
 * - the contact's active ticket on the channel (one per contact and channel) must be one the author may see (the one
 *   visibility policy, "may see at all"); a hidden one refuses with the bare `ERR_OTHER_OPEN_TICKET`, as `POST
 *   /tickets` answers it, naming nothing of that ticket;
 * - with no active ticket the send opens one (open, the author's, no queue): only on a channel the author may use
 *   (`whatsappAllowed`), else `ERR_NO_PERMISSION`.
 * A schedule has no queue, so the queue rule of `POST /tickets` (the queue must be the tenant's) has nothing to check.
 */
import { eq } from 'drizzle-orm';
import type { Profile } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { asTenantId } from '../../platform/db/tenancy.js';
import { findActiveTicket, findVisibleTicket, mayUseChannel, type TicketRow } from '../tickets/index.js';
import { users } from '../users/users.tables.js';

export interface ScheduleAuthor {
  tenantId: number;
  userId: number;
  profile: Profile;
}

export type TargetRefusal = 'ERR_OTHER_OPEN_TICKET' | 'ERR_NO_PERMISSION';

/** The author as stored now (profile included), or null when the user is gone or no longer the tenant's. */
export async function findAuthor(tx: Tx, tenantId: number, userId: number | null): Promise<ScheduleAuthor | null> {
  if (userId === null) return null;
  const [row] = await tx.select({ id: users.id, profile: users.profile }).from(users).where(eq(users.id, userId));
  return row ? { tenantId, userId: row.id, profile: row.profile } : null;
}

/** Whether the author may see this ticket (the one policy, "may see at all"). */
export async function authorSees(tx: Tx, author: ScheduleAuthor, ticketId: number): Promise<boolean> {
  const ctx = { tenantId: asTenantId(author.tenantId), userId: author.userId, profile: author.profile };
  return (await findVisibleTicket(tx, ctx, ticketId)) !== null;
}

/**
 * Why the author may not write to the contact on the channel now, or null when it may; with it, the active ticket
 * the send would use (undefined: the send opens one).
 */
export async function targetRefusal(
  tx: Tx,
  author: ScheduleAuthor,
  contactId: number,
  channelId: number,
): Promise<{ refusal: TargetRefusal | null; active: TicketRow | undefined }> {
  const active = await findActiveTicket(tx, asTenantId(author.tenantId), contactId, channelId);
  if (active) {
    return { refusal: (await authorSees(tx, author, active.id)) ? null : 'ERR_OTHER_OPEN_TICKET', active };
  }
  return { refusal: (await mayUseChannel(tx, author, channelId)) ? null : 'ERR_NO_PERMISSION', active };
}
