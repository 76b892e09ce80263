/**
 * Messages (product-spec §3 "Message", client-contract §20.3). Idempotency lives in the schema: a provider message id
 * is unique per (tenant, channel); an agent's send is unique per (tenant, ticket, idFront). Text search reads
 * `messageSearchKeys` (tickets/tickets.search.ts), which triggers keep (migration 0017_message_search_keys).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { MediaStatus, MessageMediaType, MessageStatus, OutboundPayload } from '@conversa/shared';
import { channels } from '../channels/channels.tables.js';
import { contacts } from '../contacts/contacts.tables.js';
import { tenants } from '../tenants/tenants.tables.js';
import { tickets } from '../tickets/tickets.tables.js';
import { users } from '../users/users.tables.js';

export const messages = pgTable(
  'messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    ticketId: bigint('ticket_id', { mode: 'number' })
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    /** The ticket's contact (history of a contact on a channel spans its tickets). */
    contactId: bigint('contact_id', { mode: 'number' })
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    channelId: bigint('channel_id', { mode: 'number' }).references(() => channels.id, { onDelete: 'set null' }),
    /** In groups: the participant who wrote it. */
    senderContactId: bigint('sender_contact_id', { mode: 'number' }).references(() => contacts.id, {
      onDelete: 'set null',
    }),
    /** The agent who sent it. */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    /** The provider's id (needed to reply, react, edit, delete); null until an outbound send succeeds. */
    messageId: text('message_id'),
    /** Client-generated id of an agent's send (echo matching, de-duplication of retried POSTs). */
    idFront: text('id_front'),
    fromMe: boolean('from_me').notNull(),
    read: boolean('read').notNull().default(false),
    body: text('body').notNull().default(''),
    mediaType: text('media_type').$type<MessageMediaType>().notNull().default('chat'),
    /** Media store key (never a public URL; DTOs carry a signed URL). */
    mediaKey: text('media_key'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    mediaSize: integer('media_size'),
    mediaStatus: text('media_status').$type<MediaStatus>().notNull().default('none'),
    /** Provider file reference to download from (Telegram file_id, ...). */
    mediaRef: text('media_ref'),
    isSticker: boolean('is_sticker').notNull().default(false),
    /** 0 pending, 1 sent, 2 delivered, 3 read, 4 played. */
    ack: smallint('ack').notNull().default(0),
    status: text('status').$type<MessageStatus>().notNull().default('received'),
    sendType: text('send_type'),
    /** Send failed for good ('Mensagem não entregue.'); the web offers a resend. */
    isDelayed: boolean('is_delayed').notNull().default(false),
    sendError: text('send_error'),
    /**
     * What an official channel sends beyond body and media (a template, buttons, a list, a file by URL); null for a
     * plain text or media send. The send job hands it to the adapter.
     */
    outboundPayload: jsonb('outbound_payload').$type<OutboundPayload>(),
    /** WhatsApp Cloud API statuses: the pricing category and conversation id Meta billed the message under. */
    pricingCategory: text('pricing_category'),
    conversationId: text('conversation_id'),
    sendAttempts: integer('send_attempts').notNull().default(0),
    isDeleted: boolean('is_deleted').notNull().default(false),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** Edited text, shown instead of body. */
    edition: text('edition'),
    editedAt: timestamp('edited_at', { withTimezone: true }),
    reaction: text('reaction'),
    reactionFromMe: text('reaction_from_me'),
    quotedMsgId: bigint('quoted_msg_id', { mode: 'number' }),
    /** Extra structured content: location {latitude, longitude, name}, vcard text, ... */
    meta: text('meta'),
    scheduleDate: timestamp('schedule_date', { withTimezone: true }),
    /** Provider time of the message (epoch ms). */
    timestamp: bigint('timestamp', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('messages_provider_id_unique')
      .on(t.tenantId, t.channelId, t.messageId)
      .where(sql`${t.messageId} is not null`),
    uniqueIndex('messages_id_front_unique')
      .on(t.tenantId, t.ticketId, t.idFront)
      .where(sql`${t.idFront} is not null`),
    // NULLS FIRST = plain DESC, the order the queries ask for (see tickets.tables.ts).
    index('messages_ticket_idx').on(t.tenantId, t.ticketId, t.id.desc().nullsFirst()),
    index('messages_contact_channel_idx').on(t.tenantId, t.contactId, t.channelId, t.id.desc().nullsFirst()),
  ],
);

/** How many characters of a word a search key keeps (a longer term word narrows by them, the message decides). */
export const MESSAGE_SEARCH_KEY_LENGTH = 32;

/** Text ordered byte by byte (collation "C"): a btree range `[word, next(word))` is then exactly "starts with word". */
const bytewiseText = customType<{ data: string }>({ dataType: () => 'text collate "C"' });

/**
 * Text search under RLS: one row per distinct word of a message's shown text (edition, else body; none once deleted),
 * accent- and case-folded, and per Portuguese stem of those words (`text_search_vector` in migration 0017), cut to
 * MESSAGE_SEARCH_KEY_LENGTH. The text-search match operator is not leakproof, so PostgreSQL never uses a GIN index for
 * it under row-level security; "a key starts with the word" is a range of leakproof btree comparisons. Written by
 * triggers on messages (a statement-level insert trigger, so a batch writes its keys in one statement); no foreign
 * keys (a check per key row would cost more than the keys): the delete trigger and the cascades through messages
 * remove them. The primary key serves a search by word (newest message first); `ticket_idx` a ticket's check.
 */
export const messageSearchKeys = pgTable(
  'message_search_keys',
  {
    tenantId: bigint('tenant_id', { mode: 'number' }).notNull(),
    key: bytewiseText('key').notNull(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    ticketId: bigint('ticket_id', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.key, t.messageId] }),
    index('message_search_keys_ticket_idx').on(t.tenantId, t.ticketId, t.key, t.messageId),
  ],
);
