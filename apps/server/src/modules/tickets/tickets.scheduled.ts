/**
 * The ticket detail's `scheduledMessages` (client-contract §20.2): the pending scheduled messages of the ticket, or of
 * its contact on its channel, shaped like messages (§20.3: `scheduleDate`, `status 'pending'`). Only `GET /tickets/{id}`
 * fills it; the list (a benchmarked hot path) and the realtime DTOs keep `[]`, and the chat reads the same rows from
 * `GET /scheduleMessages?ticketId=`. The table is the schedules module's, read by name: importing that module would
 * make a cycle (it imports tickets to send).
 */
import { sql } from 'drizzle-orm';
import { queryRows, type Queryable } from '../../platform/db/client.js';
import type { TicketRow } from './tickets.repository.js';

interface PendingRow {
  id: number;
  ticket_id: number | null;
  contact_id: number;
  body: string;
  media_name: string | null;
  media_type: string | null;
  schedule_at: Date | string;
  recurrence_days: number | null;
  repetitions_left: number;
  created_at: Date | string;
}

const iso = (value: Date | string) => new Date(value).toISOString();

export async function pendingScheduledMessages(
  tx: Queryable,
  ticket: Pick<TicketRow, 'id' | 'contactId' | 'channelId'>,
): Promise<Record<string, unknown>[]> {
  const rows = await queryRows<PendingRow>(
    tx,
    sql`select id, ticket_id, contact_id, body, media_name, media_type, schedule_at, recurrence_days,
          repetitions_left, created_at
        from scheduled_messages
        where status = 'pending'
          and (ticket_id = ${ticket.id}
            or (contact_id = ${ticket.contactId} and channel_id = ${ticket.channelId ?? -1}))
        order by schedule_at, id
        limit 50`,
  );
  return rows.map((r) => ({
    id: Number(r.id),
    ticketId: r.ticket_id === null ? ticket.id : Number(r.ticket_id),
    contactId: Number(r.contact_id),
    body: r.body,
    mediaName: r.media_name,
    mediaType: r.media_type ?? 'chat',
    fromMe: true,
    read: true,
    ack: 0,
    status: 'pending',
    scheduleDate: iso(r.schedule_at),
    recurrenceDays: r.recurrence_days,
    repetitionsLeft: r.repetitions_left,
    createdAt: iso(r.created_at),
  }));
}
