/**
 * The send of a due scheduled message, exactly once whatever the nodes or restarts. In ONE tenant transaction:
 * claim the row (`pending` and due, `update ... returning`: of two runners one gets it, the other waits for that
 * commit and gets nothing), find or open the contact's active ticket on the channel, store the outgoing message and
 * enqueue `messages.send` (the messages module's send path), mark the row `sent` with its message, and make the next
 * row of a recurrence with its job. A failure rolls all of it back and pg-boss retries; a row that can no longer be
 * sent (its channel deleted, or the author may no longer write there: schedules.rules.ts, checked again here with
 * the author as stored now) ends `failed` with the reason in `error`, and no next repetition.
 */
import { addDaysOnWallClock, type MessageEventDto, type TicketDto } from '@conversa/shared';
import type { Database, Tx } from '../../platform/db/client.js';
import { systemContext, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { findTenantChannel } from '../channels/index.js';
import {
  loadMessageDto,
  publishMessage,
  queueOutboundMessage,
  renderForTicket,
  type MediaLinks,
} from '../messages/index.js';
import { findOrCreateActiveTicket, loadTicketDto } from '../tickets/index.js';
import { findContact } from './schedules.contacts.js';
import { authorSees, findAuthor, targetRefusal } from './schedules.rules.js';
import { mediaKindOf } from './schedules.upload.js';
import * as repo from './schedules.repository.js';
import type { ScheduleRow } from './schedules.repository.js';
import { enqueueSend } from './schedules.enqueue.js';
import type { SchedulesJobs } from './schedules.jobs.types.js';
import './schedules.events.js';

export interface ScheduleSendDeps {
  db: Database;
  events: EventBus;
  queue: JobQueue;
  links: MediaLinks;
  jobs: Pick<SchedulesJobs, 'send'>;
}

export type SendOutcome = 'sent' | 'skipped' | 'failed';

interface Sent {
  outcome: SendOutcome;
  row?: ScheduleRow;
  next?: ScheduleRow | null;
  message?: MessageEventDto;
  ticket?: TicketDto | null;
  ticketCreated?: boolean;
}

/** A row that can no longer be sent: `failed` with the reason (an error code, read back in the DTO's `error`). */
async function failRow(tx: Tx, row: ScheduleRow, error: string): Promise<Sent> {
  return { outcome: 'failed', row: await repo.updateSchedule(tx, row.id, { status: 'failed', error }) };
}

async function sendInTenant(deps: ScheduleSendDeps, tenantId: number, scheduleId: number): Promise<Sent> {
  const system = systemContext(tenantId);
  return withTenant(deps.db, system, async (tx) => {
    const row = await repo.claimDueSchedule(tx, scheduleId);
    if (!row) return { outcome: 'skipped' };
    const channel = row.channelId ? await findTenantChannel(tx, system.tenantId, row.channelId) : undefined;
    const contact = await findContact(tx, row.contactId);
    if (!channel || !contact) return failRow(tx, row, channel ? 'ERR_NO_CONTACT_FOUND' : 'ERR_NO_WAPP_FOUND');
    // The agent who scheduled it is the author; a new ticket is theirs, as when an agent opens a conversation. What
    // the author may no longer do now (gone, a hidden ticket, a channel no longer allowed) fails the row: nothing sent.
    const author = await findAuthor(tx, system.tenantId, row.userId);
    const { refusal } = author
      ? await targetRefusal(tx, author, contact.id, channel.id)
      : { refusal: 'ERR_NO_USER_FOUND' as const };
    if (!author || refusal) return failRow(tx, row, refusal ?? 'ERR_NO_USER_FOUND');
    const ctx: TenantContext = { ...system, userId: author.userId };
    const { ticket, created } = await findOrCreateActiveTicket(tx, system.tenantId, {
      contactId: contact.id,
      channelId: channel.id,
      channelType: channel.type,
      isGroup: contact.isGroup,
      status: 'open',
      userId: author.userId,
      queueId: null,
      actorUserId: author.userId,
    });
    // Another transaction opened the contact's ticket between the check and the insert: the same rule for it.
    if (!created && !(await authorSees(tx, author, ticket.id))) return failRow(tx, row, 'ERR_OTHER_OPEN_TICKET');
    const { row: message } = await queueOutboundMessage(tx, deps.queue, ctx, ticket, {
      // Placeholders ({{name}}, {{greeting}}...) are rendered when it goes out, for the ticket it goes to.
      body: await renderForTicket(tx, ticket, row.body),
      quotedMsgId: null,
      idFront: `schedule-${row.id}`,
      sendType: null,
      // A scheduled file is the stored upload; the repetitions of a recurrence send the same key.
      media:
        row.mediaKey && row.mediaType
          ? {
              key: row.mediaKey,
              name: row.mediaName ?? 'file',
              mime: row.mediaType,
              size: row.mediaBytes ?? 0,
              mediaType: mediaKindOf(row.mediaType),
              isSticker: false,
            }
          : null,
    });
    const sent = await repo.updateSchedule(tx, row.id, { status: 'sent', messageId: message.id, ticketId: ticket.id });
    let next: ScheduleRow | null = null;
    if (row.recurrenceDays && row.repetitionsLeft > 1) {
      const timeZone = await repo.tenantTimezone(tx, system.tenantId);
      next = await repo.insertSchedule(tx, {
        tenantId: row.tenantId,
        contactId: row.contactId,
        channelId: row.channelId,
        ticketId: ticket.id,
        userId: row.userId,
        body: row.body,
        mediaKey: row.mediaKey,
        mediaName: row.mediaName,
        mediaType: row.mediaType,
        mediaBytes: row.mediaBytes,
        scheduleAt: addDaysOnWallClock(row.scheduleAt, row.recurrenceDays, timeZone),
        recurrenceDays: row.recurrenceDays,
        repetitionsLeft: row.repetitionsLeft - 1,
        status: 'pending',
      });
      await enqueueSend(tx, deps, next);
    }
    const ticketDto = await loadTicketDto(tx, ticket.id);
    return {
      outcome: 'sent',
      row: sent,
      next,
      message: await loadMessageDto(tx, message, deps.links, ticketDto),
      ticket: ticketDto,
      ticketCreated: created,
    };
  });
}

/** Sends one scheduled message if it is still pending and due; answers what happened. Events after commit. */
export async function sendScheduled(
  deps: ScheduleSendDeps,
  tenantId: number,
  scheduleId: number,
): Promise<SendOutcome> {
  const result = await sendInTenant(deps, tenantId, scheduleId);
  if (result.row) {
    deps.events.publish('schedules.changed', {
      tenantId,
      action: 'update',
      id: result.row.id,
      ticketId: result.row.ticketId,
      userId: result.row.userId,
    });
  }
  if (result.next) {
    deps.events.publish('schedules.changed', {
      tenantId,
      action: 'create',
      id: result.next.id,
      ticketId: result.next.ticketId,
      userId: result.next.userId,
    });
  }
  if (result.message) publishMessage(deps.events, tenantId, 'chat:create', result.message);
  if (result.ticket) {
    deps.events.publish('tickets.changed', {
      tenantId,
      type: result.ticketCreated ? 'ticket:create' : 'ticket:update',
      ticket: result.ticket,
    });
  }
  return result.outcome;
}
