/**
 * A group ticket's live side (client-contract §6): finding the group ticket a caller names (our id, or the group's
 * number) and listing the group's participants through its session, each with the tenant's contact of its number.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { ChannelRow } from '../channels/index.js';
import { channels } from '../channels/channels.tables.js';
import type { ContactRow } from '../contacts/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import { findVisibleTicket, type TicketRow } from '../tickets/index.js';
import { tickets } from '../tickets/tickets.tables.js';
import { isLiveType, onSession, type LiveDeps } from './messages.live-session.js';

export interface Participant {
  id: string;
  number: string;
  name: string | null;
  isAdmin: boolean;
  /** The tenant's contact with this number, when there is one (the contract's `userId`). */
  userId: number | null;
}

export interface GroupTicket {
  ticket: TicketRow;
  contact: ContactRow;
  channel: ChannelRow;
}

/** How listParticipants names its ticket: our id (a number or an echoed object), or the group's number. */
export type TicketRef = { id: number } | { groupNumber: string; channelId: number | null };

/** The ticket, visible to the caller, open or pending, of a group, on a channel with live operations. */
export async function groupTicket(tx: Tx, ctx: AuthedContext, ref: TicketRef): Promise<GroupTicket> {
  let ticket: TicketRow | null = null;
  if ('id' in ref) {
    ticket = await findVisibleTicket(tx, ctx, ref.id);
  } else {
    // The group's number as clients send it (with or without `@g.us`): its newest visible ticket on that channel.
    const bare = ref.groupNumber.replace(/@g\.us$/, '');
    const candidates = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.tenantId, ctx.tenantId), inArray(contacts.number, [bare, `${bare}@g.us`])));
    const rows = candidates.length
      ? await tx
          .select({ id: tickets.id, channelId: tickets.channelId })
          .from(tickets)
          .where(
            and(
              eq(tickets.tenantId, ctx.tenantId),
              inArray(
                tickets.contactId,
                candidates.map((c) => c.id),
              ),
            ),
          )
          .orderBy(desc(tickets.id))
          .limit(50)
      : [];
    let closed: TicketRow | null = null;
    for (const row of rows) {
      if (ref.channelId !== null && row.channelId !== ref.channelId) continue;
      const visible = await findVisibleTicket(tx, ctx, row.id);
      if (!visible) continue;
      if (visible.status !== 'closed') {
        ticket = visible;
        break;
      }
      closed ??= visible;
    }
    ticket ??= closed;
  }
  if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
  if (ticket.status === 'closed') throw fail('ERR_VALIDATION', 'ticket');
  const [contact] = await tx.select().from(contacts).where(eq(contacts.id, ticket.contactId)).limit(1);
  if (!contact?.isGroup || !contact.number) throw fail('ERR_VALIDATION', 'ticket');
  const [channel] = ticket.channelId
    ? await tx.select().from(channels).where(eq(channels.id, ticket.channelId)).limit(1)
    : [];
  if (!channel || !isLiveType(channel.type)) throw fail('ERR_CHANNEL_TYPE_UNSUPPORTED');
  return { ticket, contact, channel };
}

export async function participantsOf(deps: LiveDeps, channelId: number, groupId: string) {
  return onSession(() => deps.ops().run({ op: 'groupParticipants', channelId, groupId }));
}

/** The numbers' contacts of the tenant (people, not groups): number -> contact id. */
async function contactIdsByNumber(tx: Tx, ctx: TenantContext, numbers: string[]): Promise<Map<string, number>> {
  if (numbers.length === 0) return new Map();
  const rows = await tx
    .select({ id: contacts.id, number: contacts.number })
    .from(contacts)
    .where(and(eq(contacts.tenantId, ctx.tenantId), eq(contacts.isGroup, false), inArray(contacts.number, numbers)));
  return new Map(rows.map((r) => [r.number!, r.id]));
}

/** A group's participants, each with the tenant's contact of its number. */
export async function listParticipants(
  deps: LiveDeps,
  ctx: AuthedContext,
  ref: TicketRef,
): Promise<{ participants: Participant[] }> {
  const db = deps.pipeline.db;
  const target = await withTenant(db, ctx, (tx) => groupTicket(tx, ctx, ref));
  const members = await participantsOf(deps, target.channel.id, target.contact.number!);
  const ids = await withTenant(db, ctx, (tx) =>
    contactIdsByNumber(
      tx,
      ctx,
      members.map((m) => m.number),
    ),
  );
  return {
    participants: members.map((m) => ({
      id: `${m.number}@c.us`,
      number: m.number,
      name: m.name,
      isAdmin: m.isAdmin,
      userId: ids.get(m.number) ?? null,
    })),
  };
}
