/** Internal ticket notes (client-contract §15 `/ticketNotes`): never sent to the customer. */
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from '../tenants/tenants.tables.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';

export const ticketNotes = pgTable(
  'ticket_notes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    ticketId: bigint('ticket_id', { mode: 'number' })
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    notes: text('notes').notNull(),
    /** Users mentioned with `@name` (notified once, when the note is written). */
    mentionedUserIds: bigint('mentioned_user_ids', { mode: 'number' }).array().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ticket_notes_tenant_ticket_idx').on(t.tenantId, t.ticketId, t.id),
    index('ticket_notes_tenant_created_idx').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
  ],
);
