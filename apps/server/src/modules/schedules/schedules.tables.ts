/**
 * Scheduled messages (agendamentos; client-contract §5.1 `/messagesSchedule`, `/scheduleMessages`, the ticket's
 * `scheduledMessages`). A row waits as `pending` until `scheduleAt`; the `schedules.send-due` job claims it (status
 * `sending` in the same transaction that stores and enqueues the outgoing message), so it is sent once whatever the
 * nodes or restarts. A recurrence makes the next row when one is sent.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { channels } from '../channels/channels.tables.js';
import { contacts } from '../contacts/contacts.tables.js';
import { messages } from '../messages/messages.tables.js';
import { tenants } from '../tenants/tenants.tables.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';

export type ScheduledMessageStatus = 'pending' | 'sending' | 'sent' | 'canceled' | 'failed';

export const scheduledMessages = pgTable(
  'scheduled_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    contactId: bigint('contact_id', { mode: 'number' })
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    channelId: bigint('channel_id', { mode: 'number' }).references(() => channels.id, { onDelete: 'set null' }),
    /** The ticket it was scheduled from (or the one it was sent on). */
    ticketId: bigint('ticket_id', { mode: 'number' }).references(() => tickets.id, { onDelete: 'set null' }),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    body: text('body').notNull().default(''),
    mediaKey: text('media_key'),
    mediaName: text('media_name'),
    mediaType: text('media_type'),
    mediaBytes: bigint('media_bytes', { mode: 'number' }),
    scheduleAt: timestamp('schedule_at', { withTimezone: true }).notNull(),
    /** Repeat every N days (product-spec §9: 5, 10, ... 60); null = once. */
    recurrenceDays: integer('recurrence_days'),
    /** Sends still to make, this one included (product-spec §9: repetitions default 1). */
    repetitionsLeft: integer('repetitions_left').notNull().default(1),
    status: text('status').$type<ScheduledMessageStatus>().notNull().default('pending'),
    /** The stored outgoing message once sent. */
    messageId: bigint('message_id', { mode: 'number' }).references(() => messages.id, { onDelete: 'set null' }),
    error: text('error'),
    idFront: text('id_front'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The due scan: pending rows by time, across tenants (the job runs on the system path).
    index('scheduled_messages_due_idx')
      .on(t.scheduleAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    index('scheduled_messages_tenant_at_idx').on(t.tenantId, t.scheduleAt.desc(), t.id.desc()),
    index('scheduled_messages_tenant_ticket_idx').on(t.tenantId, t.ticketId),
    index('scheduled_messages_tenant_contact_idx').on(t.tenantId, t.contactId),
  ],
);
