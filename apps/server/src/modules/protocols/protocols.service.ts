/**
 * Ticket protocols: whoever may see a ticket reads its protocols and records one; the author or an admin changes or
 * deletes it. `sendProtocol` sends the customer the ticket's protocol ("Protocolo de atendimento: …", sendType
 * 'protocol') through the message pipeline and records the row in the same transaction.
 */
import { protocolMessageText, type MessageEventDto, type TicketDto, type TicketProtocolDto } from '@conversa/shared';
import type { Database, Tx } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { loadMessageDto, publishMessage, queueOutboundMessage, type MediaLinks } from '../messages/index.js';
import { findVisibleTicket, loadTicketDto } from '../tickets/index.js';
import * as repo from './protocols.repository.js';

export function toProtocolDto(row: repo.ProtocolWithNames): TicketProtocolDto {
  return {
    id: row.id,
    protocol: row.protocol,
    ticketId: row.ticketId,
    userId: row.userId,
    createdAt: row.createdAt.toISOString(),
    user: row.userName === null ? null : { name: row.userName },
    ticket: { id: row.ticketId, contact: { name: row.contactName, number: row.contactNumber } },
  };
}

const isAdmin = (ctx: AuthedContext) => ctx.profile === 'admin' || ctx.profile === 'superadmin';

export function createProtocolsService(deps: { db: Database; events: EventBus; jobs: JobQueue; links: MediaLinks }) {
  const { db, events } = deps;

  async function loadDto(tx: Tx, ctx: AuthedContext, id: number): Promise<TicketProtocolDto> {
    const row = await repo.loadProtocol(tx, ctx.tenantId, id);
    if (!row) throw fail('ERR_NO_PROTOCOL_FOUND');
    return toProtocolDto(row);
  }

  async function lockOwnProtocol(tx: Tx, ctx: AuthedContext, id: number) {
    const row = await repo.lockVisibleProtocol(tx, ctx, id);
    if (!row) throw fail('ERR_NO_PROTOCOL_FOUND');
    if (row.userId !== ctx.userId && !isAdmin(ctx)) throw fail('ERR_NO_PERMISSION');
    return row;
  }

  return {
    async listProtocols(
      ctx: AuthedContext,
      query: { pageNumber: number; rowsPerPage: number; searchParam?: string; date?: string },
    ) {
      const limit = query.rowsPerPage;
      const offset = (query.pageNumber - 1) * limit;
      const { rows, count } = await withTenant(db, ctx, (tx) =>
        repo.listVisibleProtocols(tx, ctx, { limit, offset, search: query.searchParam, date: query.date }),
      );
      return { ticketProtocols: rows.map(toProtocolDto), count, hasMore: offset + rows.length < count };
    },

    async ticketProtocols(ctx: AuthedContext, ticketId: number): Promise<TicketProtocolDto[]> {
      return withTenant(db, ctx, async (tx) => {
        if (!(await findVisibleTicket(tx, ctx, ticketId))) throw fail('ERR_NO_TICKET_FOUND');
        return (await repo.listTicketProtocols(tx, ctx.tenantId, ticketId)).map(toProtocolDto);
      });
    },

    /** The contract's record after a client-side send: `userId` and `tenantId` of the body are never read. */
    async createProtocol(ctx: AuthedContext, input: { protocol: string; ticketId: number }) {
      return withTenant(db, ctx, async (tx) => {
        if (!(await findVisibleTicket(tx, ctx, input.ticketId))) throw fail('ERR_NO_TICKET_FOUND');
        const values = {
          tenantId: ctx.tenantId,
          ticketId: input.ticketId,
          userId: ctx.userId,
          protocol: input.protocol,
        };
        const row = await repo.insertProtocol(tx, values);
        return loadDto(tx, ctx, row.id);
      });
    },

    async sendProtocol(ctx: AuthedContext, ticketId: number): Promise<TicketProtocolDto> {
      const sent = await withTenant(
        db,
        ctx,
        async (tx): Promise<{ protocol: TicketProtocolDto; message: MessageEventDto; ticket: TicketDto | null }> => {
          const ticket = await findVisibleTicket(tx, ctx, ticketId);
          if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
          if (ticket.status === 'closed') throw fail('ERR_TICKET_CLOSED');
          const body = protocolMessageText(ticket.protocol);
          const values = { body, quotedMsgId: null, idFront: null, sendType: 'protocol', media: null };
          const { row: message } = await queueOutboundMessage(tx, deps.jobs, ctx, ticket, values);
          const values2 = { tenantId: ctx.tenantId, ticketId, userId: ctx.userId, protocol: ticket.protocol };
          const row = await repo.insertProtocol(tx, values2);
          const dto = await loadTicketDto(tx, ticketId);
          return {
            protocol: await loadDto(tx, ctx, row.id),
            message: await loadMessageDto(tx, message, deps.links, dto),
            ticket: dto,
          };
        },
      );
      // As an agent's send: the message now, its ticket's new last message with it.
      publishMessage(events, ctx.tenantId, 'chat:create', sent.message);
      if (sent.ticket) {
        events.publish('tickets.changed', { tenantId: ctx.tenantId, type: 'ticket:update', ticket: sent.ticket });
      }
      return sent.protocol;
    },

    async updateProtocol(ctx: AuthedContext, id: number, protocol: string): Promise<TicketProtocolDto> {
      return withTenant(db, ctx, async (tx) => {
        await lockOwnProtocol(tx, ctx, id);
        await repo.updateProtocol(tx, ctx.tenantId, id, protocol);
        return loadDto(tx, ctx, id);
      });
    },

    async deleteProtocol(ctx: AuthedContext, id: number): Promise<void> {
      await withTenant(db, ctx, async (tx) => {
        await lockOwnProtocol(tx, ctx, id);
        await repo.deleteProtocol(tx, ctx.tenantId, id);
      });
    },
  };
}

export type ProtocolsService = ReturnType<typeof createProtocolsService>;
