/**
 * Ratings (avaliações; client-contract §15 `/ticketEvaluations`). A row is made when the rating menu is sent
 * (`status` waiting, `evaluation` = the prompt); the customer's answer sets `value` 0-5 and `status` rated, or after
 * the configured attempts `status` failed. `attempts` counts invalid answers.
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { tenants } from '../tenants/tenants.tables.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';

export type EvaluationStatus = 'waiting' | 'rated' | 'failed';

export const ticketEvaluations = pgTable(
  'ticket_evaluations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    ticketId: bigint('ticket_id', { mode: 'number' })
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    /** The agent who resolved the ticket. */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    /** The prompt sent, then the answer's text (the wire's `evaluation`). */
    evaluation: text('evaluation').notNull().default(''),
    value: smallint('value'),
    attempts: integer('attempts').notNull().default(0),
    status: text('status').$type<EvaluationStatus>().notNull().default('waiting'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // At most one rating waiting per ticket: the inbound answer finds it by the ticket.
    uniqueIndex('ticket_evaluations_one_waiting')
      .on(t.tenantId, t.ticketId)
      .where(sql`${t.status} = 'waiting'`),
    index('ticket_evaluations_tenant_created_idx').on(t.tenantId, t.createdAt.desc(), t.id.desc()),
    index('ticket_evaluations_tenant_user_idx').on(t.tenantId, t.userId),
  ],
);
