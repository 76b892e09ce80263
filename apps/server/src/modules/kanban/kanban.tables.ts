/** Kanban lanes (client-contract §8 `/kanban`): ordered columns; a contact sits in at most one (`contacts.kanban`). */
import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from '../tenants/tenants.tables.js';

export const kanbanLanes = pgTable(
  'kanban_lanes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('kanban_lanes_tenant_position_idx').on(t.tenantId, t.position, t.id)],
);
