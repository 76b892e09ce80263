/**
 * Ticket operations on one ticket: read, logs, and every transition of the state machine (tickets.transitions.ts).
 * Each change locks the ticket row (`select ... for update`, so concurrent transitions serialise), writes its log in
 * the same transaction, and publishes `tickets.changed` after commit.
 */
import {
  ENABLED,
  FAREWELL_CLOSE_DELAY_MS,
  isAdminProfile,
  TICKET_INTEGRATION_FIELDS,
  type TicketDto,
  type TicketLogDto,
  type ticketUpdateSchema,
} from '@conversa/shared';
import type { z } from 'zod';
import type { Database, Tx } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { findVisibleTicket, lockVisibleTicket } from './tickets.access.js';
import { loadTicketDto } from './tickets.dto.js';
import type { TicketsJobs } from './tickets.jobs.js';
import { contractLogType } from './tickets.log-types.js';
import type { TicketChatbotPort, TicketMessagingPort } from './tickets.port.js';
import * as repo from './tickets.repository.js';
import type { TicketPatch, TicketRow } from './tickets.repository.js';
import * as plan from './tickets.transitions.js';
import { readTransitionRules } from './tickets.rules.js';
import type { Step } from './tickets.transitions.js';
import { pendingScheduledMessages } from './tickets.scheduled.js';
import { customerWindowOf, hasCustomerWindow } from './tickets.window.js';
import './tickets.events.js';
import { findTenantChannel } from '../channels/index.js';
import { findReason } from '../reasons/index.js';
import { findSetting } from '../settings/index.js';

export type TicketUpdate = z.output<typeof ticketUpdateSchema>;

export interface TicketsServiceDeps {
  db: Database;
  events: EventBus;
  queue: JobQueue;
  port: TicketMessagingPort;
  jobs: TicketsJobs;
  /** Starts a flow on a ticket handed to it (`PUT /ticketsChatBot/{id}`); absent: the ticket only takes the flow's id. */
  chatbot?: TicketChatbotPort;
}

/** What a change did: the ticket it ended on (an admin's reopen may end on another ticket) and its former state. */
interface Outcome {
  ticketId: number;
  previous: TicketRow;
  changed: boolean;
  /** Humans must be alerted (`notification:new`): a flow handed the ticket over at once. */
  notify?: boolean;
}

/** The unique "one active ticket per contact and channel" index answers a race the checks could not see. */
export function rethrowActiveConflict(error: unknown): never {
  for (const candidate of [error, (error as { cause?: unknown } | null)?.cause]) {
    const pgError = candidate as { code?: string; constraint?: string; message?: string } | null;
    const name = 'tickets_one_active_per_contact_channel';
    if (pgError?.code === '23505' && (pgError.constraint === name || pgError.message?.includes(name))) {
      throw fail('ERR_OTHER_OPEN_TICKET');
    }
  }
  throw error;
}

export async function applyStep(tx: Tx, ctx: AuthedContext, ticket: TicketRow, s: Step | null): Promise<boolean> {
  if (!s) return false;
  await repo.updateTicket(tx, ctx.tenantId, ticket.id, s.patch);
  if (s.log) await repo.insertLog(tx, ctx.tenantId, { ticketId: ticket.id, userId: ctx.userId, ...s.log });
  return true;
}

/**
 * The agent's resolve needs a reason when the tenant's `reasonRequired` setting is on: the body's or one the ticket
 * already has. Force close, silent close, auto-close and the close after a rating are exempt.
 */
async function assertReasonGiven(tx: Tx, ctx: AuthedContext, ticket: TicketRow, input: TicketUpdate): Promise<void> {
  const reason = input.reasons === undefined ? ticket.reasonId : input.reasons;
  if (reason !== null) return;
  if ((await findSetting(tx, ctx.tenantId, 'reasonRequired')) === ENABLED) throw fail('ERR_REASON_REQUIRED');
}

/** A reason named by the body must be one of the tenant's. */
async function assertReasonExists(tx: Tx, ctx: AuthedContext, input: TicketUpdate): Promise<void> {
  if (input.reasons && !(await findReason(tx, ctx.tenantId, input.reasons))) throw fail('ERR_NO_REASON_FOUND');
}

/** The single fields of `PUT /tickets/{id}` (client-contract §4.3); they write no log. */
function fieldPatch(input: TicketUpdate): TicketPatch {
  const patch: TicketPatch = {};
  for (const field of TICKET_INTEGRATION_FIELDS) {
    const value = input[field];
    if (value !== undefined) patch[field] = value;
  }
  if (input.unreadMessages !== undefined) patch.unreadMessages = input.unreadMessages;
  if (input.value !== undefined) patch.value = input.value;
  if (input.reasons !== undefined) patch.reasonId = input.reasons;
  if (input.isFarewellMessage !== undefined) patch.isFarewellMessage = input.isFarewellMessage;
  return patch;
}

const isTransfer = (input: TicketUpdate) => !!input.isTransference || input.queueId !== undefined;

export function createTicketsService(deps: TicketsServiceDeps) {
  const { db, events } = deps;

  function publish(
    tenantId: number,
    dto: TicketDto,
    previous: TicketRow,
    type: 'ticket:update' | 'ticket:create',
    notify = false,
  ) {
    events.publish('tickets.changed', {
      tenantId,
      type,
      ticket: dto,
      previousUserId: previous.userId,
      previousQueueId: previous.queueId,
      ...(notify ? { notify } : {}),
    });
  }

  /** Locks a ticket the caller can see, runs fn, answers the resulting DTO and publishes it when it changed. */
  async function change(
    ctx: AuthedContext,
    id: number,
    fn: (tx: Tx, ticket: TicketRow) => Promise<Outcome>,
  ): Promise<TicketDto> {
    const { dto, outcome } = await withTenant(db, ctx, async (tx) => {
      const ticket = await lockVisibleTicket(tx, ctx, id);
      if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
      const result = await fn(tx, ticket);
      return { dto: (await loadTicketDto(tx, result.ticketId))!, outcome: result };
    }).catch(rethrowActiveConflict);
    if (outcome.changed) publish(ctx.tenantId, dto, outcome.previous, 'ticket:update', outcome.notify);
    return dto;
  }

  const same = (ticket: TicketRow, changed: boolean): Outcome => ({ ticketId: ticket.id, previous: ticket, changed });

  /**
   * The farewell text: the one the body carries (a closing message picked on resolve), else the channel's; none when
   * the body says no or a farewell was already sent for this resolve.
   */
  async function farewellText(tx: Tx, ctx: AuthedContext, ticket: TicketRow, send: boolean | undefined, text?: string) {
    if (send === false || ticket.isFarewellMessage || ticket.closingAt || ticket.channelId === null) return null;
    if (text?.trim()) return text.trim();
    const channel = await findTenantChannel(tx, ctx.tenantId, ticket.channelId);
    return channel?.farewellMessage?.trim() || null;
  }

  /** Resolve: with a farewell the text is queued and a job closes the ticket 30 s later; without, it closes now. */
  async function planResolve(tx: Tx, ctx: AuthedContext, ticket: TicketRow, input: TicketUpdate) {
    plan.assertMayHandle(ctx, ticket);
    await assertReasonGiven(tx, ctx, ticket, input);
    const farewell = await farewellText(tx, ctx, ticket, input.sendFarewell, input.farewellMessage);
    if (!farewell) return plan.planClose(ticket, 'closed');
    await deps.port.queueSystemMessage(tx, ctx, ticket.id, farewell, 'farewell');
    const closingAt = new Date(Date.now() + FAREWELL_CLOSE_DELAY_MS);
    const payload = {
      tenantId: ctx.tenantId,
      ticketId: ticket.id,
      userId: ctx.userId,
      closingAt: closingAt.toISOString(),
    };
    await deps.queue.enqueue(deps.jobs.closeAfterFarewell, payload, {
      tx,
      startAfterSeconds: FAREWELL_CLOSE_DELAY_MS / 1000,
    });
    return { patch: { closingAt, isFarewellMessage: true } } satisfies Step;
  }

  /**
   * closed -> open. When the contact already has another active ticket on that channel, an agent is refused
   * (ERR_OTHER_OPEN_TICKET) and an admin takes that other ticket instead (the closed one stays closed).
   */
  async function reopen(tx: Tx, ctx: AuthedContext, ticket: TicketRow): Promise<Outcome> {
    const other = await repo.findActiveTicket(tx, ctx.tenantId, ticket.contactId, ticket.channelId, true);
    if (!other)
      return same(
        ticket,
        await applyStep(tx, ctx, ticket, plan.planReopen(ctx, ticket, await readTransitionRules(tx, ctx.tenantId))),
      );
    if (!isAdminProfile(ctx.profile)) throw fail('ERR_OTHER_OPEN_TICKET');
    const changed = await applyStep(tx, ctx, other, await plan.planOpen(tx, ctx, other, undefined));
    return { ticketId: other.id, previous: other, changed };
  }

  /** The status/user/queue part of `PUT /tickets/{id}`. */
  async function planStatus(tx: Tx, ctx: AuthedContext, ticket: TicketRow, input: TicketUpdate) {
    if (input.status === 'closed') return planResolve(tx, ctx, ticket, input);
    if (isTransfer(input)) return plan.planTransfer(tx, ctx, ticket, input);
    if (input.status === 'open') return plan.planOpen(tx, ctx, ticket, input.userId);
    if (input.status === 'pending') {
      return plan.planReturnToQueue(ctx, ticket, await readTransitionRules(tx, ctx.tenantId));
    }
    return null;
  }

  /** `{ whatsapp }`: gives a ticket without a channel (the 409 case of client-contract §4.3) its channel. */
  async function channelFix(tx: Tx, ctx: AuthedContext, ticket: TicketRow, channelId: number | null | undefined) {
    if (!channelId || ticket.channelId !== null) return {};
    const channel = await findTenantChannel(tx, ctx.tenantId, channelId);
    if (!channel) throw fail('ERR_NO_WAPP_FOUND');
    return { channelId: channel.id, channel: channel.type };
  }

  async function updateClosed(tx: Tx, ctx: AuthedContext, ticket: TicketRow, input: TicketUpdate) {
    if (isTransfer(input)) throw fail('ERR_TICKET_CLOSED');
    if (input.status === 'open') return reopen(tx, ctx, ticket);
    const { unreadMessages, ...rest } = fieldPatch(input);
    const asksMore = Object.keys(rest).length > 0 || isTransfer(input) || input.status === 'pending' || input.whatsapp;
    if (asksMore) throw fail('ERR_TICKET_CLOSED');
    // Reading a resolved conversation is no change of the attendance.
    if (unreadMessages === undefined || unreadMessages === ticket.unreadMessages) return same(ticket, false);
    await repo.updateTicket(tx, ctx.tenantId, ticket.id, { unreadMessages });
    return same(ticket, true);
  }

  return {
    async getTicket(ctx: AuthedContext, id: number): Promise<TicketDto> {
      const { dto, reset } = await withTenant(db, ctx, async (tx) => {
        const ticket = await findVisibleTicket(tx, ctx, id);
        if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
        // The assignee opening the ticket has read it.
        const read = ticket.userId === ctx.userId && ticket.unreadMessages > 0;
        if (read) await repo.updateTicket(tx, ctx.tenantId, id, { unreadMessages: 0 });
        const dto = {
          ...(await loadTicketDto(tx, id))!,
          scheduledMessages: await pendingScheduledMessages(tx, ticket),
          // Official channels only (one indexed read); the list leaves it out: it is the hot path.
          ...(hasCustomerWindow(ticket.channel) ? { customerWindow: await customerWindowOf(tx, ticket) } : {}),
        };
        return { dto, reset: read ? ticket : null };
      });
      if (reset) publish(ctx.tenantId, dto, reset, 'ticket:update');
      return dto;
    },

    async listLogs(ctx: AuthedContext, id: number): Promise<TicketLogDto[]> {
      const rows = await withTenant(db, ctx, async (tx) => {
        if (!(await findVisibleTicket(tx, ctx, id))) throw fail('ERR_NO_TICKET_FOUND');
        return repo.listLogs(tx, ctx.tenantId, id);
      });
      return rows.map((r) => ({
        id: r.id,
        type: contractLogType(r.type),
        createdAt: r.createdAt.toISOString(),
        user: r.userId !== null && r.userName !== null ? { id: r.userId, name: r.userName } : null,
        details: r.details,
      }));
    },

    updateTicket: (ctx: AuthedContext, id: number, input: TicketUpdate): Promise<TicketDto> =>
      change(ctx, id, async (tx, ticket) => {
        if (ticket.status === 'closed') return updateClosed(tx, ctx, ticket, input);
        await assertReasonExists(tx, ctx, input);
        const moved = await applyStep(tx, ctx, ticket, await planStatus(tx, ctx, ticket, input));
        const fields = { ...fieldPatch(input), ...(await channelFix(tx, ctx, ticket, input.whatsapp)) };
        if (Object.keys(fields).length > 0) await repo.updateTicket(tx, ctx.tenantId, ticket.id, fields);
        return same(ticket, moved || Object.keys(fields).length > 0);
      }),

    /** Close without farewell or rating; a closed ticket stays as it is. */
    forceClose: (ctx: AuthedContext, id: number): Promise<TicketDto> =>
      change(ctx, id, async (tx, ticket) => {
        if (ticket.status !== 'closed') plan.assertMayHandle(ctx, ticket);
        return same(ticket, await applyStep(tx, ctx, ticket, plan.planClose(ticket, 'closed', { force: true })));
      }),

    /** The silent close of duplicate clean-up: idempotent, repeated calls answer the closed ticket. */
    closeSilently: (ctx: AuthedContext, id: number): Promise<TicketDto> =>
      change(ctx, id, async (tx, ticket) => {
        if (ticket.status !== 'closed') plan.assertMayHandle(ctx, ticket);
        return same(ticket, await applyStep(tx, ctx, ticket, plan.planClose(ticket, 'closed', { silent: true })));
      }),

    /** Hands the ticket to a flow, which starts at once as the system (its welcome and first step are queued). */
    handToChatBot: (ctx: AuthedContext, id: number, chatFlowId: number | null): Promise<TicketDto> =>
      change(ctx, id, async (tx, ticket) => {
        if (ticket.status === 'closed') throw fail('ERR_TICKET_CLOSED');
        plan.assertMayHandle(ctx, ticket);
        const handing = plan.planChatBot(ticket, chatFlowId);
        const changed = await applyStep(tx, ctx, ticket, handing);
        if (!chatFlowId || !deps.chatbot) return same(ticket, changed);
        const { notify } = await deps.chatbot.startFlow(
          tx,
          ctx,
          { ...ticket, ...handing.patch } as TicketRow,
          chatFlowId,
        );
        return { ticketId: ticket.id, previous: ticket, changed: true, notify };
      }),

    moveToChannel: (ctx: AuthedContext, id: number, channelId: number): Promise<TicketDto> =>
      change(ctx, id, async (tx, ticket) => {
        if (ticket.status === 'closed') throw fail('ERR_TICKET_CLOSED');
        plan.assertMayHandle(ctx, ticket);
        const channel = await findTenantChannel(tx, ctx.tenantId, channelId);
        if (!channel) throw fail('ERR_NO_WAPP_FOUND');
        const other = await repo.findActiveTicket(tx, ctx.tenantId, ticket.contactId, channel.id);
        if (other && other.id !== ticket.id) throw fail('ERR_OTHER_OPEN_TICKET');
        return same(ticket, await applyStep(tx, ctx, ticket, plan.planChannelMove(ticket, channel)));
      }),
  };
}

export type TicketsService = ReturnType<typeof createTicketsService>;
