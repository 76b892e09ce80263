/**
 * Chat flows and the legacy auto-reply (client-contract §13; ARCHITECTURE §6k). A flow is stored whole as the
 * builder's JSON (`flow`: nodeList and lineList, validated by the shared `chatFlowGraphSchema`); a deleted flow is kept
 * (`is_deleted`) so tickets and logs that name it still resolve. The auto-reply keeps the ancestor's three tables
 * (auto reply, its steps, each step's actions); the engine runs it as a flow.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ChatFlowGraph } from '@conversa/shared';
import { queues } from '../queues/queues.tables.js';
import { tenants } from '../tenants/tenants.tables.js';
import { users } from '../users/users.tables.js';

const tenantId = () =>
  bigint('tenant_id', { mode: 'number' })
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });
const stamps = () => ({
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const chatFlows = pgTable(
  'chat_flows',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /** Digits of the number that runs this flow while it is inactive (client-contract `celularTeste`). */
    celularTeste: text('celular_teste'),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    flow: jsonb('flow').$type<ChatFlowGraph>().notNull(),
    isDeleted: boolean('is_deleted').notNull().default(false),
    ...stamps(),
  },
  (t) => [index('chat_flows_tenant_idx').on(t.tenantId, t.isDeleted, t.id)],
);

export const autoReplies = pgTable(
  'auto_replies',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    /** 0: runs on a new ticket. */
    action: integer('action').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
    celularTeste: text('celular_teste'),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    ...stamps(),
  },
  (t) => [index('auto_replies_tenant_idx').on(t.tenantId, t.id)],
);

export const autoReplySteps = pgTable(
  'auto_reply_steps',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: tenantId(),
    autoReplyId: bigint('auto_reply_id', { mode: 'number' })
      .notNull()
      .references(() => autoReplies.id, { onDelete: 'cascade' }),
    reply: text('reply').notNull(),
    initialStep: boolean('initial_step').notNull().default(false),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    ...stamps(),
  },
  (t) => [
    index('auto_reply_steps_reply_idx').on(t.tenantId, t.autoReplyId, t.id),
    // One initial step per auto-reply.
    uniqueIndex('auto_reply_steps_one_initial')
      .on(t.autoReplyId)
      .where(sql`${t.initialStep}`),
  ],
);

export const autoReplyActions = pgTable(
  'auto_reply_actions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: tenantId(),
    stepReplyId: bigint('step_reply_id', { mode: 'number' })
      .notNull()
      .references(() => autoReplySteps.id, { onDelete: 'cascade' }),
    /** Comma-separated words of the customer's answer. */
    words: text('words').notNull(),
    /** 0 next step, 1 queue, 2 user. */
    action: integer('action').notNull(),
    queueId: bigint('queue_id', { mode: 'number' }).references(() => queues.id, { onDelete: 'set null' }),
    userIdDestination: bigint('user_id_destination', { mode: 'number' }).references(() => users.id, {
      onDelete: 'set null',
    }),
    nextStepId: bigint('next_step_id', { mode: 'number' }).references(() => autoReplySteps.id, {
      onDelete: 'set null',
    }),
    /** A reply sent before the action runs. */
    replyDefinition: text('reply_definition'),
    ...stamps(),
  },
  (t) => [index('auto_reply_actions_step_idx').on(t.tenantId, t.stepReplyId, t.id)],
);
