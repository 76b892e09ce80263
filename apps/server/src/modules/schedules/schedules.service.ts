/**
 * Scheduled messages: create, list, edit and cancel (client-contract §5.1; our PUT/DELETE). Each create or edit of the
 * date enqueues `schedules.send` to start at the row's time, in the same transaction; the send job decides by the row
 * (schedules.send.ts), so an old job of an edited row does nothing.
 *
 * Who sees what: admins and supervisors every row of the tenant; an agent its own rows, and the rows of a ticket it
 * may see when it lists that ticket's (`?ticketId=`). Only the author, supervisors and admins edit or cancel (the
 * message goes out under the author's name). A create applies POST /tickets' rules (schedules.rules.ts) to the
 * conversation the send will use; the send applies them again.
 */
import {
  isAdminProfile,
  parseScheduleDate,
  type ScheduleCreateInput,
  type ScheduledMessageDto,
  type ScheduleListResponse,
  type ScheduleUpdateInput,
  type ScheduleStatus,
} from '@conversa/shared';
import type { Database, Tx } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { MediaStore } from '../../platform/storage/media-store.js';
import { findDefaultChannel, findTenantChannel } from '../channels/index.js';
import { findVisibleTicket } from '../tickets/index.js';
import { toScheduleDto } from './schedules.dto.js';
import { enqueueSend } from './schedules.enqueue.js';
import type { SchedulesJobs } from './schedules.jobs.types.js';
import * as repo from './schedules.repository.js';
import type { ScheduleRow } from './schedules.repository.js';
import { findContact } from './schedules.contacts.js';
import { targetRefusal } from './schedules.rules.js';
import type { ScheduleMedia } from './schedules.upload.js';
import './schedules.events.js';

export interface SchedulesServiceDeps {
  db: Database;
  events: EventBus;
  queue: JobQueue;
  jobs: Pick<SchedulesJobs, 'send'>;
  /** Where a scheduled file waits (the media store, under the tenant's quota). */
  store?: MediaStore;
}

const managesAll = (ctx: AuthedContext) => ctx.profile === 'super' || isAdminProfile(ctx.profile);

/** The instant of a `scheduleDate`, refused unless readable and in the future. */
export function futureDate(value: string, timeZone: string, now = new Date()): Date {
  const date = parseScheduleDate(value, timeZone);
  if (!date || date.getTime() <= now.getTime()) throw fail('ERR_SCHEDULE_DATE_NOT_VALID');
  return date;
}

export function createSchedulesService(deps: SchedulesServiceDeps) {
  const { db, events } = deps;

  const publish = (ctx: AuthedContext, action: 'create' | 'update' | 'delete', row: ScheduleRow) =>
    events.publish('schedules.changed', {
      tenantId: ctx.tenantId,
      action,
      id: row.id,
      ticketId: row.ticketId,
      userId: row.userId,
    });

  /**
   * A row the caller may edit or cancel, locked: the author's, or any for supervisors and admins (the send goes out
   * under the author's name). A row the caller sees through a visible ticket answers 403; others (and other
   * tenants') are not found.
   */
  async function lockActionable(tx: Tx, ctx: AuthedContext, id: number): Promise<ScheduleRow> {
    const row = await repo.findSchedule(tx, id, true);
    if (!row) throw fail('ERR_NO_SCHEDULE_FOUND');
    if (managesAll(ctx) || row.userId === ctx.userId) return row;
    if (row.ticketId !== null && (await findVisibleTicket(tx, ctx, row.ticketId))) throw fail('ERR_NO_PERMISSION');
    throw fail('ERR_NO_SCHEDULE_FOUND');
  }

  async function dtoOf(tx: Tx, ctx: AuthedContext, row: ScheduleRow): Promise<ScheduledMessageDto> {
    return toScheduleDto(await repo.namesOf(tx, row), await repo.tenantTimezone(tx, ctx.tenantId));
  }

  /** The insert of a new schedule (or the one its idFront already made), in one tenant transaction. */
  async function createRow(ctx: AuthedContext, input: ScheduleCreateInput, media: ScheduleMedia | null) {
    return withTenant(db, ctx, async (tx) => {
      if (input.idFront) {
        const existing = await repo.findScheduleByIdFront(tx, input.idFront, ctx.userId);
        if (existing) return { dto: await dtoOf(tx, ctx, existing), row: existing, created: false };
      }
      const timeZone = await repo.tenantTimezone(tx, ctx.tenantId);
      const scheduleAt = futureDate(input.scheduleDate, timeZone);
      const contact = await findContact(tx, input.contactId);
      if (!contact) throw fail('ERR_NO_CONTACT_FOUND');
      let ticketId: number | null = null;
      let channelId = input.channelId ?? input.whatsappId;
      if (input.ticketId !== null) {
        const ticket = await findVisibleTicket(tx, ctx, input.ticketId);
        if (!ticket || ticket.contactId !== contact.id) throw fail('ERR_NO_TICKET_FOUND');
        ticketId = ticket.id;
        channelId ??= ticket.channelId;
      }
      const channel = channelId
        ? await findTenantChannel(tx, ctx.tenantId, channelId)
        : await findDefaultChannel(tx, ctx.tenantId);
      if (!channel) throw fail('ERR_NO_WAPP_FOUND');
      if (!input.body.trim() && !media) throw fail('ERR_VALIDATION', 'body');
      // POST /tickets' rules for the conversation the send will write into (checked again at send).
      const { refusal } = await targetRefusal(tx, ctx, contact.id, channel.id);
      if (refusal) throw fail(refusal);
      const inserted = await repo.insertSchedule(tx, {
        tenantId: ctx.tenantId,
        contactId: contact.id,
        channelId: channel.id,
        ticketId,
        userId: ctx.userId,
        body: input.body,
        scheduleAt,
        recurrenceDays: input.recurrenceDays,
        repetitionsLeft: input.recurrenceDays ? input.repetitions : 1,
        status: 'pending',
        idFront: input.idFront ?? null,
        ...(media ? { mediaKey: media.key, mediaName: media.name, mediaType: media.mime, mediaBytes: media.size } : {}),
      });
      await enqueueSend(tx, deps, inserted);
      return { dto: toScheduleDto(await repo.namesOf(tx, inserted), timeZone), row: inserted, created: true };
    });
  }

  const service = {
    /** A schedule; with `media`, the file already stored is removed again if nothing is created. */
    async create(ctx: AuthedContext, input: ScheduleCreateInput, media?: ScheduleMedia): Promise<ScheduledMessageDto> {
      let outcome: { dto: ScheduledMessageDto; row: ScheduleRow; created: boolean };
      try {
        outcome = await createRow(ctx, input, media ?? null);
      } catch (error) {
        if (media) await deps.store?.delete(media.key);
        throw error;
      }
      if (!outcome.created && media) await deps.store?.delete(media.key);
      if (outcome.created) publish(ctx, 'create', outcome.row);
      return outcome.dto;
    },

    /**
     * POST /messages/{ticketId} with a `scheduleDate` (client-contract §5.2): a schedule to the ticket's contact on the
     * ticket's channel, under the same rules as POST /messagesSchedule with that ticket.
     */
    async scheduleOnTicket(
      ctx: AuthedContext,
      ticketId: number,
      input: { body: string; scheduleDate: string; idFront: string | null },
      media?: ScheduleMedia,
    ): Promise<ScheduledMessageDto> {
      let ticket: Awaited<ReturnType<typeof findVisibleTicket>>;
      try {
        ticket = await withTenant(db, ctx, (tx) => findVisibleTicket(tx, ctx, ticketId));
        if (!ticket) throw fail('ERR_NO_TICKET_FOUND');
      } catch (error) {
        if (media) await deps.store?.delete(media.key);
        throw error;
      }
      const create: ScheduleCreateInput = {
        contactId: ticket.contactId,
        channelId: ticket.channelId,
        whatsappId: null,
        ticketId: ticket.id,
        body: input.body,
        scheduleDate: input.scheduleDate,
        idFront: input.idFront,
        recurrenceDays: null,
        repetitions: 1,
      };
      return service.create(ctx, create, media);
    },

    async list(
      ctx: AuthedContext,
      query: { page: number; rowsPerPage: number; ticketId?: number | undefined; status?: ScheduleStatus | undefined },
    ): Promise<ScheduleListResponse> {
      return withTenant(db, ctx, async (tx) => {
        let ownerOrTickets: repo.ScheduleListFilter['ownerOrTickets'];
        if (!managesAll(ctx)) {
          const visible = query.ticketId !== undefined && (await findVisibleTicket(tx, ctx, query.ticketId));
          ownerOrTickets = { userId: ctx.userId, ticketIds: visible ? [query.ticketId!] : [] };
        }
        const offset = (query.page - 1) * query.rowsPerPage;
        const filter = { ownerOrTickets, ticketId: query.ticketId, status: query.status };
        const { rows, total } = await repo.listSchedules(tx, filter, query.rowsPerPage, offset);
        const timezone = await repo.tenantTimezone(tx, ctx.tenantId);
        return {
          messages: rows.map((r) => toScheduleDto(r, timezone)),
          total,
          page: query.page,
          totalPages: Math.ceil(total / query.rowsPerPage),
          timezone,
        };
      });
    },

    async update(ctx: AuthedContext, id: number, input: ScheduleUpdateInput): Promise<ScheduledMessageDto> {
      const { dto, row } = await withTenant(db, ctx, async (tx) => {
        const current = await lockActionable(tx, ctx, id);
        if (current.status !== 'pending') throw fail('ERR_SCHEDULE_NOT_PENDING');
        const timeZone = await repo.tenantTimezone(tx, ctx.tenantId);
        const patch: repo.SchedulePatch = {};
        if (input.body !== undefined) {
          if (!input.body.trim() && !current.mediaKey) throw fail('ERR_VALIDATION', 'body');
          patch.body = input.body;
        }
        if (input.scheduleDate !== undefined) patch.scheduleAt = futureDate(input.scheduleDate, timeZone);
        if (input.recurrenceDays !== undefined) patch.recurrenceDays = input.recurrenceDays;
        if (input.repetitions !== undefined) patch.repetitionsLeft = input.repetitions;
        const updated = await repo.updateSchedule(tx, id, patch);
        // A new time needs a job at that time; the old job finds the row not due (or changed) and does nothing.
        if (patch.scheduleAt) await enqueueSend(tx, deps, updated);
        return { dto: toScheduleDto(await repo.namesOf(tx, updated), timeZone), row: updated };
      });
      publish(ctx, 'update', row);
      return dto;
    },

    async cancel(ctx: AuthedContext, id: number): Promise<ScheduledMessageDto> {
      const { dto, row } = await withTenant(db, ctx, async (tx) => {
        const current = await lockActionable(tx, ctx, id);
        if (current.status !== 'pending') throw fail('ERR_SCHEDULE_NOT_PENDING');
        const updated = await repo.updateSchedule(tx, id, { status: 'canceled' });
        return { dto: await dtoOf(tx, ctx, updated), row: updated };
      });
      publish(ctx, 'delete', row);
      return dto;
    },
  };
  return service;
}

export type SchedulesService = ReturnType<typeof createSchedulesService>;
