/** Internal notifications (product-spec §3 "Notification"; client-contract §16): a text for a user, read or unread. */
import { bigint, boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from '../tenants/tenants.tables.js';
import { users } from '../users/users.tables.js';

export const notifications = pgTable(
  'notifications',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** The recipient; null = everyone in the tenant. */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    isRead: boolean('is_read').notNull().default(false),
    /** Who caused it, and what it points at (for example `{ ticketId, noteId }` for a mention in a note). */
    senderId: bigint('sender_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notifications_tenant_user_idx').on(t.tenantId, t.userId, t.isRead, t.id.desc())],
);
