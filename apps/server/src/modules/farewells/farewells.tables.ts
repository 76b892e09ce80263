/** Closing messages (fechamento; client-contract §15 `/farewellPrivateMessage`): farewell texts picked on resolve. */
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from '../tenants/tenants.tables.js';
import { users } from '../users/users.tables.js';

export const farewellMessages = pgTable(
  'farewell_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    message: text('message').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('farewell_messages_tenant_idx').on(t.tenantId, t.id)],
);
