/**
 * Tickets (product-spec §3 "Ticket", §4 states; client-contract §20.1/§20.2), their logs and protocols.
 * One open/pending ticket per (tenant, contact, channel) is a partial unique index: concurrent first messages of a
 * contact find-or-create the same ticket. List indexes lead with tenant and status and end with the sort key.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { EnabledFlag, TicketLogType, TicketStatus } from '@conversa/shared';
import { channels } from '../channels/channels.tables.js';
import { contacts } from '../contacts/contacts.tables.js';
import { queues } from '../queues/queues.tables.js';
import { tenants } from '../tenants/tenants.tables.js';
import { users } from '../users/users.tables.js';

const tenantId = () =>
  bigint('tenant_id', { mode: 'number' })
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });
const integrationStatus = (name: string) => text(name).$type<EnabledFlag>().notNull().default('disabled');

export const tickets = pgTable(
  'tickets',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: tenantId(),
    status: text('status').$type<TicketStatus>().notNull().default('pending'),
    contactId: bigint('contact_id', { mode: 'number' })
      .notNull()
      .references(() => contacts.id, { onDelete: 'restrict' }),
    channelId: bigint('channel_id', { mode: 'number' }).references(() => channels.id, { onDelete: 'set null' }),
    /** The channel's type when the ticket was made (client-contract: `channel`). */
    channel: text('channel').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    queueId: bigint('queue_id', { mode: 'number' }).references(() => queues.id, { onDelete: 'set null' }),
    isGroup: boolean('is_group').notNull().default(false),
    protocol: text('protocol').notNull(),
    unreadMessages: integer('unread_messages').notNull().default(0),
    answered: boolean('answered').notNull().default(false),
    lastMessage: text('last_message'),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    lastMessageReceivedAt: timestamp('last_message_received_at', { withTimezone: true }),
    isTransference: boolean('is_transference').notNull().default(false),
    isFarewellMessage: boolean('is_farewell_message').notNull().default(false),
    /** A rating menu was sent and its answer is awaited: ingestion hands the customer's next text to the ratings. */
    awaitingRating: boolean('awaiting_rating').notNull().default(false),
    isActiveDemand: boolean('is_active_demand').notNull().default(false),
    /** Demand (reason) id; reasons arrive with their own issue. */
    reasonId: bigint('reason_id', { mode: 'number' }),
    value: numeric('value', { precision: 14, scale: 2, mode: 'number' }),
    // chatbot state (flows arrive with the chatbot issue)
    chatFlowId: bigint('chat_flow_id', { mode: 'number' }),
    stepChatFlow: text('step_chat_flow'),
    autoReplyId: bigint('auto_reply_id', { mode: 'number' }),
    stepAutoReplyId: bigint('step_auto_reply_id', { mode: 'number' }),
    botRetries: integer('bot_retries').notNull().default(0),
    chatbotState: jsonb('chatbot_state').$type<Record<string, unknown>>().notNull().default({}),
    /** When the absence message (outside business hours) was sent on this conversation: it goes once per ticket. */
    absenceSentAt: timestamp('absence_sent_at', { withTimezone: true }),
    /**
     * The campaign whose message this conversation answers, and its name then (campaigns.ingestion.ts). No foreign key:
     * campaigns sit above tickets in the module stack; deleting a campaign leaves the name on its answers.
     */
    campaignId: bigint('campaign_id', { mode: 'number' }),
    campaignName: text('campaign_name'),
    // per-integration statuses
    difyStatus: integrationStatus('dify_status'),
    lmStatus: integrationStatus('lm_status'),
    n8nStatus: integrationStatus('n8n_status'),
    typebotStatus: integrationStatus('typebot_status'),
    dialogflowStatus: integrationStatus('dialogflow_status'),
    chatgptStatus: integrationStatus('chatgpt_status'),
    /** Set when a resolve-with-farewell is waiting for its 30 s close job. */
    closingAt: timestamp('closing_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Descending index columns say NULLS FIRST: that is what `ORDER BY x DESC` means, and drizzle's bare .desc() writes
  // NULLS LAST, an order the planner cannot use for such a query (it sorted every match instead of reading 21 rows).
  (t) => [
    uniqueIndex('tickets_one_active_per_contact_channel')
      .on(t.tenantId, t.contactId, sql`coalesce(${t.channelId}, 0)`)
      .where(sql`${t.status} in ('open', 'pending')`),
    uniqueIndex('tickets_tenant_protocol_unique').on(t.tenantId, t.protocol),
    index('tickets_tenant_status_updated_idx').on(
      t.tenantId,
      t.status,
      t.updatedAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    // The default list (open + pending, newest first): one ordered range instead of two merged and sorted. Every
    // column the visibility policy reads rides along (assignee, queue, contact for wallets, chatbot flow and auto
    // reply), so an agent's page and bounded count are index-only scans: the agent's list went from 239 to 359
    // requests/s on the bench data, its count reading up to 2,500 index entries instead of as many table rows.
    index('tickets_tenant_active_updated_idx')
      .on(
        t.tenantId,
        t.updatedAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
        t.queueId,
        t.userId,
        t.contactId,
        t.chatFlowId,
        t.autoReplyId,
      )
      .where(sql`${t.status} in ('open', 'pending')`),
    index('tickets_tenant_user_status_idx').on(t.tenantId, t.userId, t.status, t.updatedAt.desc().nullsFirst()),
    index('tickets_tenant_queue_status_idx').on(t.tenantId, t.queueId, t.status, t.updatedAt.desc().nullsFirst()),
    index('tickets_tenant_contact_idx').on(t.tenantId, t.contactId, t.channelId, t.id),
  ],
);

/** Who did what to a ticket, when (client-contract §4.3 log types). */
export const ticketLogs = pgTable(
  'ticket_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: tenantId(),
    ticketId: bigint('ticket_id', { mode: 'number' })
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    type: text('type').$type<TicketLogType>().notNull(),
    /** What changed: from/to status, queue, user, channel. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ticket_logs_ticket_idx').on(t.tenantId, t.ticketId, t.id)],
);

/** Per-tenant counters (protocol numbers count per tenant and day). */
export const tenantCounters = pgTable(
  'tenant_counters',
  {
    tenantId: tenantId(),
    name: text('name').notNull(),
    value: bigint('value', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.name] })],
);
