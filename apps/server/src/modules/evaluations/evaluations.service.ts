/**
 * Ratings (client-contract §4.3 resolve flow, §15 `/ticketEvaluations`; product-spec §4, §9). Resolving with a rating
 * sends the customer the rating menu built from the tenant's labels, stores a `waiting` row and flags the ticket
 * (`awaiting_rating`), which stays open. Ingestion enqueues the answer job for the customer's messages on a flagged
 * ticket; the job reads the answers not yet counted (a waiting row's `attempts` is how many were): a number 0-5 or a
 * label rates and closes, anything else counts an attempt, and the configured number of attempts fails and closes.
 */
import {
  ENABLED,
  parseRatingAnswer,
  RATING_QUESTION,
  ratingMenuText,
  type EvaluationDto,
  type evaluationCreateSchema,
  type evaluationListQuerySchema,
  type evaluationSendSchema,
  type evaluationUpdateSchema,
  type TicketDto,
} from '@conversa/shared';
import type { z } from 'zod';
import type { Database, Tx } from '../../platform/db/client.js';
import { systemContext, withTenant, type TenantContext, type TenantId } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { findTenantChannel } from '../channels/index.js';
import { findReason } from '../reasons/index.js';
import { findSetting } from '../settings/index.js';
import { readRatingConfig } from '../settings/index.js';
import {
  findVisibleTicket,
  loadTicketDto,
  lockVisibleTicket,
  type TicketMessagingPort,
  type TicketRow,
} from '../tickets/index.js';
import * as repo from './evaluations.repository.js';

export interface EvaluationsDeps {
  db: Database;
  events: EventBus;
  port: TicketMessagingPort;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function toDto(row: repo.EvaluationListRow): EvaluationDto {
  const e = row.evaluation;
  return {
    id: e.id,
    evaluation: e.evaluation,
    value: e.value,
    // A rating whose ticket was closed another way (force close, auto-close...) before an answer is not rated.
    status: e.status === 'waiting' && row.ticketStatus === 'closed' ? 'failed' : e.status,
    attempts: e.attempts,
    ticketId: e.ticketId,
    userId: e.userId,
    user: e.userId !== null && row.userName !== null ? { id: e.userId, name: row.userName } : null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
    ticket: {
      id: e.ticketId,
      status: row.ticketStatus,
      contactId: row.contactId,
      contact: { id: row.contactId, name: row.contactName },
    },
  };
}

/** An agent acts on its own or unassigned tickets; supervisors and admins on any ticket they can see. */
function assertMayHandle(ctx: AuthedContext, ticket: TicketRow): void {
  if (ticket.userId === null || ticket.userId === ctx.userId || ctx.profile !== 'user') return;
  throw fail('ERR_NO_PERMISSION');
}

/** A rating can be asked on an active private ticket whose channel sends ratings. */
async function assertRatingAvailable(tx: Tx, tenantId: TenantId, ticket: TicketRow) {
  if (ticket.status === 'closed' || ticket.isGroup || ticket.channelId === null) {
    throw fail('ERR_EVALUATION_NOT_AVAILABLE');
  }
  const channel = await findTenantChannel(tx, tenantId, ticket.channelId);
  if (!channel || channel.sendEvaluation !== ENABLED) throw fail('ERR_EVALUATION_NOT_AVAILABLE');
  return channel;
}

/**
 * The ticket's waiting rating, if it still waits: one left by a rating abandoned by a close (the ticket's flag cleared,
 * the ticket reopened since) is settled as failed and answers undefined.
 */
async function settleAbandoned(tx: Tx, tenantId: TenantId, ticket: TicketRow) {
  const waiting = await repo.lockWaitingEvaluation(tx, tenantId, ticket.id);
  if (!waiting || ticket.awaitingRating) return waiting;
  await repo.updateEvaluation(tx, tenantId, waiting.id, { status: 'failed' });
  return undefined;
}

export function createEvaluationsService(deps: EvaluationsDeps) {
  const { db, events } = deps;

  function publishTicket(tenantId: number, dto: TicketDto | null, previous: TicketRow): void {
    if (!dto) return;
    events.publish('tickets.changed', {
      tenantId,
      type: 'ticket:update',
      ticket: dto,
      previousUserId: previous.userId,
      previousQueueId: previous.queueId,
    });
  }

  /**
   * Reads the oldest answer not yet counted of a waiting rating: rated (closed), failed (closed), one more attempt
   * (`counted`: another answer may follow), or `none` left. One answer per transaction, so the replies go out in order.
   */
  async function readAnswer(tx: Tx, tenantId: TenantId, ticket: TicketRow): Promise<'closed' | 'counted' | 'none'> {
    // The flag is cleared by any close: a rating abandoned that way reads no answer.
    const waiting = ticket.awaitingRating ? await repo.lockWaitingEvaluation(tx, tenantId, ticket.id) : undefined;
    if (!waiting) {
      // Nothing waits (deleted, or already settled): the flag must not keep sending jobs.
      if (ticket.awaitingRating) await repo.setAwaitingRating(tx, tenantId, ticket.id, false);
      return 'none';
    }
    const texts = await repo.customerTextsSince(tx, tenantId, ticket.id, waiting.createdAt);
    // Every answer before this one was invalid and counted in `attempts`: a retried job reads none twice.
    const answer = texts[waiting.attempts];
    if (!answer) return 'none';
    const config = await readRatingConfig(tx, tenantId);
    const ctx = systemContext(tenantId);
    const value = parseRatingAnswer(answer.body ?? '', config.rating);
    if (value !== null) {
      await repo.updateEvaluation(tx, tenantId, waiting.id, { value, status: 'rated', evaluation: String(value) });
      await deps.port.queueSystemMessage(tx, ctx, ticket.id, config.ratingStore, 'evaluation');
      await repo.closeRatedTicket(tx, tenantId, ticket, waiting.userId, { rating: value });
      return 'closed';
    }
    const attempts = waiting.attempts + 1;
    if (attempts >= config.ratingAttempts) {
      await repo.updateEvaluation(tx, tenantId, waiting.id, { status: 'failed', attempts });
      await deps.port.queueSystemMessage(tx, ctx, ticket.id, config.ratingStoreError, 'evaluation');
      await repo.closeRatedTicket(tx, tenantId, ticket, waiting.userId, { rating: null });
      return 'closed';
    }
    await repo.updateEvaluation(tx, tenantId, waiting.id, { attempts });
    await deps.port.queueSystemMessage(tx, ctx, ticket.id, config.ratingStoreAttemp, 'evaluation');
    return 'counted';
  }

  return {
    async list(ctx: TenantContext, query: z.output<typeof evaluationListQuerySchema>): Promise<EvaluationDto[]> {
      const rows = await withTenant(db, ctx, (tx) =>
        repo.listEvaluations(tx, ctx.tenantId, {
          from: query.dateStart ? new Date(`${query.dateStart}T00:00:00.000Z`) : undefined,
          to: query.dateEnd ? new Date(Date.parse(`${query.dateEnd}T00:00:00.000Z`) + DAY_MS) : undefined,
          userId: query.userId,
          status: query.status,
        }),
      );
      return rows.map(toDto);
    },

    /** The reference client's call after it sent the rating menu itself: the waiting row and the ticket's flag. */
    async create(ctx: AuthedContext, input: z.output<typeof evaluationCreateSchema>): Promise<EvaluationDto> {
      const { row, dto, ticket } = await withTenant(db, ctx, async (tx) => {
        const ticket = await lockVisibleTicket(tx, ctx, input.ticketId);
        if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
        assertMayHandle(ctx, ticket);
        await assertRatingAvailable(tx, ctx.tenantId, ticket);
        const waiting = await settleAbandoned(tx, ctx.tenantId, ticket);
        const row = waiting
          ? await repo.updateEvaluation(tx, ctx.tenantId, waiting.id, { evaluation: input.evaluation, attempts: 0 })
          : await repo.insertEvaluation(tx, {
              tenantId: ctx.tenantId,
              ticketId: ticket.id,
              userId: ctx.userId,
              evaluation: input.evaluation,
            });
        await repo.setAwaitingRating(tx, ctx.tenantId, ticket.id, true);
        return {
          row: (await repo.findEvaluationRow(tx, ctx.tenantId, row!.id))!,
          dto: await loadTicketDto(tx, ticket.id),
          ticket,
        };
      });
      publishTicket(ctx.tenantId, dto, ticket);
      return toDto(row);
    },

    /**
     * Our client's resolve with a rating, in one transaction: the reason (required when the tenant says so), the
     * closing message when one is given, the rating menu, the waiting row and the ticket's flag. The ticket stays open.
     */
    async send(ctx: AuthedContext, input: z.output<typeof evaluationSendSchema>): Promise<EvaluationDto> {
      const { row, dto, ticket } = await withTenant(db, ctx, async (tx) => {
        const ticket = await lockVisibleTicket(tx, ctx, input.ticketId);
        if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
        assertMayHandle(ctx, ticket);
        const channel = await assertRatingAvailable(tx, ctx.tenantId, ticket);
        const reasonId = input.reasons === undefined ? ticket.reasonId : input.reasons;
        if (reasonId !== null && !(await findReason(tx, ctx.tenantId, reasonId))) throw fail('ERR_NO_REASON_FOUND');
        if (reasonId === null && (await findSetting(tx, ctx.tenantId, 'reasonRequired')) === ENABLED) {
          throw fail('ERR_REASON_REQUIRED');
        }
        if (await settleAbandoned(tx, ctx.tenantId, ticket)) throw fail('ERR_EVALUATION_NOT_AVAILABLE');
        // The dialog's text, else the channel's farewell when asked for (product-spec §4: the farewell goes first).
        const farewell =
          input.farewellMessage?.trim() || (input.sendFarewell ? channel.farewellMessage?.trim() : undefined);
        // Both are sent in this order (one transaction gives them one creation time: the priority orders them).
        if (farewell) await deps.port.queueSystemMessage(tx, ctx, ticket.id, farewell, 'farewell', { priority: 2 });
        const config = await readRatingConfig(tx, ctx.tenantId);
        const menu = ratingMenuText(RATING_QUESTION, config.rating);
        await deps.port.queueSystemMessage(tx, ctx, ticket.id, menu, 'evaluation');
        const inserted = await repo.insertEvaluation(tx, {
          tenantId: ctx.tenantId,
          ticketId: ticket.id,
          userId: ctx.userId,
          evaluation: menu,
        });
        await repo.setAwaitingRating(tx, ctx.tenantId, ticket.id, true, reasonId);
        return {
          row: (await repo.findEvaluationRow(tx, ctx.tenantId, inserted.id))!,
          dto: await loadTicketDto(tx, ticket.id),
          ticket,
        };
      });
      publishTicket(ctx.tenantId, dto, ticket);
      return toDto(row);
    },

    /** `PUT /ticketEvaluations/{id}`: supervisors and admins correct a rating (text, attempts, value). */
    async update(
      ctx: AuthedContext,
      id: number,
      input: z.output<typeof evaluationUpdateSchema>,
    ): Promise<EvaluationDto> {
      return withTenant(db, ctx, async (tx) => {
        const current = await repo.lockEvaluation(tx, ctx.tenantId, id);
        if (!current) throw fail('ERR_NO_EVALUATION_FOUND');
        const patch: Parameters<typeof repo.updateEvaluation>[3] = {};
        if (input.evaluation !== undefined) patch.evaluation = input.evaluation;
        if (input.attempts !== undefined) patch.attempts = input.attempts;
        if (input.value !== undefined) {
          patch.value = input.value;
          if (input.value !== null && current.status !== 'waiting') patch.status = 'rated';
        }
        await repo.updateEvaluation(tx, ctx.tenantId, id, patch);
        return toDto((await repo.findEvaluationRow(tx, ctx.tenantId, id))!);
      });
    },

    /** Deleting a waiting rating lets the ticket go on as a normal open ticket. */
    async remove(ctx: AuthedContext, id: number): Promise<void> {
      await withTenant(db, ctx, async (tx) => {
        const row = await repo.deleteEvaluation(tx, ctx.tenantId, id);
        if (!row) throw fail('ERR_NO_EVALUATION_FOUND');
        if (row.status === 'waiting') await repo.setAwaitingRating(tx, ctx.tenantId, row.ticketId, false);
      });
    },

    async logs(ctx: AuthedContext, ticketId: number) {
      return withTenant(db, ctx, async (tx) => {
        if (!(await findVisibleTicket(tx, ctx, ticketId))) throw fail('ERR_NO_TICKET_FOUND');
        const rows = await repo.listTicketRatings(tx, ctx.tenantId, ticketId);
        return rows.map((r) => ({
          id: r.id,
          evaluation: r.value,
          createdAt: r.createdAt.toISOString(),
          user: r.userName !== null ? { name: r.userName } : null,
        }));
      });
    },

    /** The answer job: idempotent (a retried job finds its answers counted or the rating settled). */
    async handleAnswers(tenantId: number, ticketId: number): Promise<boolean> {
      const ctx = systemContext(tenantId);
      for (;;) {
        const outcome = await withTenant(db, ctx, async (tx) => {
          const ticket = await lockVisibleTicket(tx, ctx, ticketId);
          if (!ticket) return { result: 'none' as const };
          const result = await readAnswer(tx, ctx.tenantId, ticket);
          return { result, ticket, dto: result === 'closed' ? await loadTicketDto(tx, ticket.id) : null };
        });
        if (outcome.result === 'none') return false;
        if (outcome.result === 'closed') {
          publishTicket(tenantId, outcome.dto, outcome.ticket);
          return true;
        }
      }
    },
  };
}

export type EvaluationsService = ReturnType<typeof createEvaluationsService>;
