/** A scheduled message as the wire's row (client-contract §5.1 `/scheduleMessages`, shared scheduledMessageDtoSchema). */
import { toWallClock, type ScheduledMessageDto } from '@conversa/shared';
import type { ScheduleListRow } from './schedules.repository.js';

export function toScheduleDto({ row, contactName, userName }: ScheduleListRow, timeZone: string): ScheduledMessageDto {
  return {
    id: row.id,
    ticketId: row.ticketId,
    contactId: row.contactId,
    contactName: contactName ?? '',
    channelId: row.channelId,
    body: row.body,
    scheduleDate: row.scheduleAt.toISOString(),
    scheduleLocal: toWallClock(row.scheduleAt, timeZone),
    isDeleted: row.status === 'canceled',
    status: row.status,
    mediaName: row.mediaName,
    mediaType: row.mediaType,
    recurrenceDays: row.recurrenceDays,
    repetitionsLeft: row.repetitionsLeft,
    messageId: row.messageId,
    error: row.error,
    user: row.userId !== null && userName !== null ? { id: row.userId, name: userName } : null,
    createdAt: row.createdAt.toISOString(),
  };
}
