/**
 * The outbound engine's tables (issue 25): a campaign, a recipient row per send, and one lane per channel.
 *
 * A recipient row is written `pending`; the lane's tick claims it in the transaction that stores its outgoing message
 * and enqueues that message's send job (`message_id` set there), so a crash before the commit leaves it pending and
 * one after it leaves it sent, never both. Its delivery state after that is the message's (its ack and send error):
 * read from the message, never copied, so every channel's acks move it without a write here.
 *
 * A lane (`outbound_lanes`) serialises one channel's sends across nodes: the tick locks the lane row, sends one
 * recipient and enqueues the next tick `delay` seconds later carrying the lane's new `seq`; a tick whose seq is not
 * the lane's is a stale duplicate and does nothing.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { CampaignMessageOrder, CampaignStatus } from '@conversa/shared';
import { channels } from '../channels/channels.tables.js';
import { contacts } from '../contacts/contacts.tables.js';
import { messages } from '../messages/messages.tables.js';
import { queues } from '../queues/queues.tables.js';
import { tenants } from '../tenants/tenants.tables.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';

const tenantId = () =>
  bigint('tenant_id', { mode: 'number' })
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

export const campaigns = pgTable(
  'campaigns',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    /** A campaign of the campaigns screen, or a mass-sending batch (`bulk`: started at once, listed apart). */
    kind: text('kind').$type<'campaign' | 'bulk'>().notNull().default('campaign'),
    startAt: timestamp('start_at', { withTimezone: true }),
    status: text('status').$type<CampaignStatus>().notNull().default('pending'),
    channelId: bigint('channel_id', { mode: 'number' }).references(() => channels.id, { onDelete: 'set null' }),
    delaySeconds: integer('delay_seconds').notNull().default(20),
    /** A batch's pause between two sends: a random whole number of seconds in [min, max] (null: `delaySeconds`). */
    minDelaySeconds: integer('min_delay_seconds'),
    maxDelaySeconds: integer('max_delay_seconds'),
    message1: text('message1'),
    message2: text('message2'),
    message3: text('message3'),
    messageOrder: text('message_order').$type<CampaignMessageOrder>().notNull().default('rotate'),
    mediaUrl: text('media_url'),
    mediaKey: text('media_key'),
    mediaName: text('media_name'),
    mediaType: text('media_type'),
    mediaBytes: bigint('media_bytes', { mode: 'number' }),
    /** The file goes as a voice note (a batch's .ogg). */
    mediaPtt: boolean('media_ptt').notNull().default(false),
    queueId: bigint('queue_id', { mode: 'number' }).references(() => queues.id, { onDelete: 'set null' }),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    /** Recipients handled so far (sent or skipped): picks the next message in turn without counting rows. */
    processedCount: integer('processed_count').notNull().default(0),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('campaigns_tenant_idx').on(t.tenantId, t.id.desc()),
    // The due scan of scheduled campaigns, across tenants (system path).
    index('campaigns_due_idx')
      .on(t.startAt, t.id)
      .where(sql`${t.status} = 'scheduled'`),
    // A lane's next recipient: the processing campaigns of its channel.
    index('campaigns_lane_idx')
      .on(t.channelId, t.startAt, t.id)
      .where(sql`${t.status} = 'processing'`),
  ],
);

export const campaignContacts = pgTable(
  'campaign_contacts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: tenantId(),
    campaignId: bigint('campaign_id', { mode: 'number' })
      .notNull()
      .references(() => campaigns.id, { onDelete: 'cascade' }),
    contactId: bigint('contact_id', { mode: 'number' })
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** Set when the send is stored: the outgoing message, whose ack and send error are this row's delivery state. */
    messageId: bigint('message_id', { mode: 'number' }).references(() => messages.id, { onDelete: 'set null' }),
    ticketId: bigint('ticket_id', { mode: 'number' }).references(() => tickets.id, { onDelete: 'set null' }),
    /** Which of the campaign's messages (1-3) went to this recipient, and its text after substitution. */
    messageRandom: smallint('message_random'),
    /** The values of the recipient's "number,var1,var2" line (mass sending with variables): {{var1}}, {{var2}}... */
    vars: jsonb('vars').$type<string[]>(),
    body: text('body'),
    /** True once the tick handled the row (sent, or skipped with a reason). */
    processed: boolean('processed').notNull().default(false),
    /** Why it was not sent (opted out, blocked, unreachable...): an error code of the catalogue. */
    reason: text('reason'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** When the recipient wrote back and opened a conversation attributed to the campaign (campaigns.ingestion.ts). */
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('campaign_contacts_campaign_contact_idx').on(t.campaignId, t.contactId),
    // The next pending recipient of a campaign, in the order they were added.
    index('campaign_contacts_pending_idx')
      .on(t.campaignId, t.id)
      .where(sql`${t.processed} = false`),
    index('campaign_contacts_tenant_contact_idx').on(t.tenantId, t.contactId),
  ],
);

export const outboundLanes = pgTable('outbound_lanes', {
  channelId: bigint('channel_id', { mode: 'number' })
    .primaryKey()
    .references(() => channels.id, { onDelete: 'cascade' }),
  tenantId: tenantId(),
  /** The tick the lane waits for; a tick carrying another number is a stale duplicate. */
  seq: bigint('seq', { mode: 'number' }).notNull().default(0),
  /** True while a tick is enqueued; a start finding it false enqueues one. */
  running: boolean('running').notNull().default(false),
  /** When the next send may go (the paced delay after the last one). */
  nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
