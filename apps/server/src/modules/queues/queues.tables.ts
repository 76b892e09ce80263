/** Queues (filas) and the users who serve them. The queues screen comes with its own issue; tickets route by them now. */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { DistributionMode } from '@conversa/shared';
import { tenants } from '../tenants/tenants.tables.js';
import { users } from '../users/users.tables.js';

export const queues = pgTable(
  'queues',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    queue: text('queue').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** How new unassigned tickets are given to the queue's online users: N none, R random, B balanced. */
    distribution: text('distribution').$type<DistributionMode>().notNull().default('N'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('queues_tenant_name_unique').on(t.tenantId, sql`lower(${t.queue})`)],
);

export const userQueues = pgTable(
  'user_queues',
  {
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    queueId: bigint('queue_id', { mode: 'number' })
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.queueId] }),
    index('user_queues_tenant_queue_idx').on(t.tenantId, t.queueId),
  ],
);
