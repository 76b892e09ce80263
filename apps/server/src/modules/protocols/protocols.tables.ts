/** Protocols sent to customers (client-contract §15 `/ticketProtocols`): number, ticket, user, date. */
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from '../tenants/tenants.tables.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';

export const ticketProtocols = pgTable(
  'ticket_protocols',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    protocol: text('protocol').notNull(),
    ticketId: bigint('ticket_id', { mode: 'number' })
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ticket_protocols_tenant_created_idx').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
    index('ticket_protocols_tenant_protocol_idx').on(t.tenantId, t.protocol),
    index('ticket_protocols_tenant_ticket_idx').on(t.tenantId, t.ticketId),
  ],
);
