/**
 * `POST /tickets`: an agent opens a conversation with a contact on a channel. A contact has at most one open or
 * pending ticket per channel: the existing one is answered as a conflict, or, for an admin it does not belong to,
 * assigned to the admin and answered (product-spec §5 "Ticket rules").
 */
import { and, eq } from 'drizzle-orm';
import {
  contactAddressOn,
  isAdminProfile,
  type ContactAddressFields,
  type TicketDto,
  type ticketCreateSchema,
} from '@conversa/shared';
import type { z } from 'zod';
import type { Database, Tx } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { findVisibleTicket } from './tickets.access.js';
import { loadTicketDto } from './tickets.dto.js';
import { allocateProtocol } from './tickets.protocol.js';
import * as repo from './tickets.repository.js';
import type { TicketRow } from './tickets.repository.js';
import { mayUseChannel } from './tickets.rules.js';
import { applyStep } from './tickets.service.js';
import { planOpen } from './tickets.transitions.js';
import './tickets.events.js';
import { findDefaultChannel, findTenantChannel, type ChannelRow } from '../channels/index.js';
import { contacts } from '../contacts/contacts.tables.js';

export type TicketCreate = z.output<typeof ticketCreateSchema>;

export type CreateOutcome =
  | { kind: 'created' | 'taken'; ticket: TicketDto }
  /** The contact's active ticket on that channel, answered with 409 ERR_OTHER_OPEN_TICKET. */
  | { kind: 'conflict'; ticket: TicketDto }
  /** As conflict, for a ticket the caller may not see: only the code is answered, never the ticket. */
  | { kind: 'hiddenConflict' };

async function resolveChannel(tx: Tx, ctx: AuthedContext, input: TicketCreate) {
  const id = input.channelId ?? input.whatsappId;
  const channel = id ? await findTenantChannel(tx, ctx.tenantId, id) : await findDefaultChannel(tx, ctx.tenantId);
  if (!channel) throw fail(id ? 'ERR_NO_WAPP_FOUND' : 'ERR_NO_DEF_WAPP_FOUND');
  // A user limited to some channels (`whatsappAllowed`) opens tickets only there.
  if (!(await mayUseChannel(tx, ctx, channel.id))) throw fail('ERR_NO_PERMISSION');
  return channel;
}

async function contactAddressFields(tx: Tx, ctx: AuthedContext, id: number): Promise<ContactAddressFields> {
  const [row] = await tx
    .select({
      number: contacts.number,
      telegramId: contacts.telegramId,
      messengerId: contacts.messengerId,
      instagramPK: contacts.instagramPK,
    })
    .from(contacts)
    .where(and(eq(contacts.tenantId, ctx.tenantId), eq(contacts.id, id)));
  return row ?? { number: null, telegramId: null, messengerId: null, instagramPK: null };
}

async function insertNew(
  tx: Tx,
  ctx: AuthedContext,
  input: TicketCreate,
  channel: ChannelRow,
): Promise<TicketRow | undefined> {
  const contact = await repo.findContactRef(tx, ctx.tenantId, input.contactId);
  if (!contact) throw fail('ERR_NO_CONTACT_FOUND');
  // A contact without an id on this channel (a phone-only contact on Telegram) could never be written to there.
  if (!contactAddressOn(channel.type, await contactAddressFields(tx, ctx, contact.id))) {
    throw fail('ERR_CONTACT_NO_CHANNEL_ID', 'channelId');
  }
  const queueId = input.queueId ?? null;
  if (queueId !== null && !(await repo.queueExists(tx, ctx.tenantId, queueId))) throw fail('ERR_NO_QUEUE_FOUND');
  const pending = input.status === 'pending';
  const row = await repo.insertTicket(tx, {
    tenantId: ctx.tenantId,
    status: pending ? 'pending' : 'open',
    contactId: contact.id,
    channelId: channel.id,
    channel: channel.type,
    userId: pending ? null : ctx.userId,
    queueId,
    isGroup: contact.isGroup,
    isActiveDemand: input.isActiveDemand ?? false,
    protocol: await allocateProtocol(tx, ctx.tenantId),
  });
  if (!row) return undefined;
  const to = { status: row.status, userId: row.userId, queueId: row.queueId };
  await repo.insertLog(tx, ctx.tenantId, { ticketId: row.id, userId: ctx.userId, type: 'create', details: { to } });
  if (!pending) await repo.insertLog(tx, ctx.tenantId, { ticketId: row.id, userId: ctx.userId, type: 'open' });
  return row;
}

/**
 * The existing active ticket: taken by an admin it does not belong to, else a conflict. Whether the caller may see it
 * is the one policy's answer ("may see at all"): a hidden ticket is neither shown nor taken.
 */
async function meetExisting(tx: Tx, ctx: AuthedContext, existing: TicketRow): Promise<CreateOutcome> {
  if (!(await findVisibleTicket(tx, ctx, existing.id))) return { kind: 'hiddenConflict' };
  if (isAdminProfile(ctx.profile) && existing.userId !== ctx.userId) {
    await applyStep(tx, ctx, existing, await planOpen(tx, ctx, existing, undefined));
    return { kind: 'taken', ticket: (await loadTicketDto(tx, existing.id))! };
  }
  return { kind: 'conflict', ticket: (await loadTicketDto(tx, existing.id))! };
}

export function createTicketCreation(deps: { db: Database; events: EventBus }) {
  return async function createTicket(ctx: AuthedContext, input: TicketCreate): Promise<CreateOutcome> {
    const { outcome, previous } = await withTenant(deps.db, ctx, async (tx) => {
      const channel = await resolveChannel(tx, ctx, input);
      const existing = await repo.findActiveTicket(tx, ctx.tenantId, input.contactId, channel.id, true);
      if (existing) return { outcome: await meetExisting(tx, ctx, existing), previous: existing };
      const row = await insertNew(tx, ctx, input, channel);
      if (row)
        return { outcome: { kind: 'created', ticket: (await loadTicketDto(tx, row.id))! } as const, previous: row };
      // A concurrent create won the unique index: meet its ticket like any existing one.
      const raced = await repo.findActiveTicket(tx, ctx.tenantId, input.contactId, channel.id, true);
      if (!raced) throw fail('ERR_CREATING_TICKET');
      return { outcome: await meetExisting(tx, ctx, raced), previous: raced };
    });
    if (outcome.kind === 'created' || outcome.kind === 'taken') {
      deps.events.publish('tickets.changed', {
        tenantId: ctx.tenantId,
        type: outcome.kind === 'created' ? 'ticket:create' : 'ticket:update',
        ticket: outcome.ticket,
        previousUserId: outcome.kind === 'created' ? null : previous.userId,
        previousQueueId: previous.queueId,
      });
    }
    return outcome;
  };
}
