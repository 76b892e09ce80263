/**
 * Channels (product-spec §3 "Session/channel", client-contract §20.5): one row per connection (a WhatsApp number, a
 * Telegram bot, ...). Every field of the spec is here, also those later issues act on. Columns marked secret never
 * leave the server (see channels.dto.ts). Flags keep the clients' 'enabled'/'disabled' strings.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ChannelIntegrations, ChannelStatus, ChannelType, DistributionMode, EnabledFlag } from '@conversa/shared';
import { queues } from '../queues/queues.tables.js';
import { tenants } from '../tenants/tenants.tables.js';
import { users } from '../users/users.tables.js';

const flag = (name: string) => text(name).$type<EnabledFlag>().notNull().default('disabled');

export const channels = pgTable(
  'channels',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    // identity and state
    name: text('name').notNull(),
    type: text('type').$type<ChannelType>().notNull(),
    number: text('number'),
    status: text('status').$type<ChannelStatus>().notNull().default('DISCONNECTED'),
    qrcode: text('qrcode'),
    /** The 8-character code of a pairing-code login (status PAIRING); null otherwise. */
    pairingCode: text('pairing_code'),
    retries: integer('retries').notNull().default(0),
    profilePic: text('profile_pic'),
    isDefault: boolean('is_default').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    // routing
    queueId: bigint('queue_id', { mode: 'number' }).references(() => queues.id, { onDelete: 'set null' }),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    /** The chat flow that greets new tickets (flows arrive with the chatbot issue). */
    chatFlowId: bigint('chat_flow_id', { mode: 'number' }),
    // credentials (secret: tokenTelegram, tokenAPI, bmToken, instagramKey, wppPass, proxyPass, webhookSecret)
    tokenTelegram: text('token_telegram'),
    tokenAPI: text('token_api'),
    wabaId: text('waba_id'),
    bmToken: text('bm_token'),
    wabaVersion: text('waba_version').notNull().default('20.0'),
    wabaBSP: text('waba_bsp'),
    instagramUser: text('instagram_user'),
    instagramKey: text('instagram_key'),
    wppUser: text('wpp_user'),
    wppPass: text('wpp_pass'),
    proxyUrl: text('proxy_url'),
    proxyUser: text('proxy_user'),
    proxyPass: text('proxy_pass'),
    webversion: text('webversion'),
    remotePath: text('remote_path'),
    fbObject: jsonb('fb_object'),
    /**
     * Meta channels (waba, messenger, instagram): the app secret that signs their webhooks (X-Hub-Signature-256);
     * null: the installation's META_APP_SECRET.
     */
    metaAppSecret: text('meta_app_secret'),
    /** Generated per channel; providers send it back on every webhook call (Telegram: X-Telegram-Bot-Api-Secret-Token). */
    webhookSecret: text('webhook_secret').notNull(),
    // messaging
    farewellMessage: text('farewell_message'),
    closeKeyWord: text('close_key_word'),
    webhook: text('webhook'),
    birthdayDate: flag('birthday_date'),
    birthdayDateMessage: text('birthday_date_message'),
    /** Whole hour 0..23 (the spec's birthday hour ignores minutes). */
    birthdayDateHour: integer('birthday_date_hour'),
    bDateFileName: text('b_date_file_name'),
    // history and behaviour
    importMessages: flag('import_messages'),
    importOldMessages: timestamp('import_old_messages', { withTimezone: true }),
    importRecentMessages: timestamp('import_recent_messages', { withTimezone: true }),
    importOldMessagesGroups: flag('import_old_messages_groups'),
    importGroupMessages: flag('import_group_messages'),
    closedTicketsPostImported: flag('closed_tickets_post_imported'),
    queueIdImportMessages: bigint('queue_id_import_messages', { mode: 'number' }).references(() => queues.id, {
      onDelete: 'set null',
    }),
    webPush: flag('web_push'),
    sendEvaluation: flag('send_evaluation'),
    transcribeAudio: flag('transcribe_audio'),
    selfDistribute: flag('self_distribute'),
    /** The channel's distribution mode (N/R/B); `selfDistribute` is enabled exactly when it is not N. */
    distribution: text('distribution').$type<DistributionMode>().notNull().default('N'),
    destroyMessage: flag('destroy_message'),
    isButton: flag('is_button'),
    wordlist: flag('wordlist'),
    disableExternalIntegration: flag('disable_external_integration'),
    waitProcessExternalInteraction: flag('wait_process_external_interaction'),
    /** Voice-call tokens, comma separated. */
    wavoipToken: text('wavoip_token'),
    /** AI and automation configs (chatgpt*, typebot*, dify*, dialogflow*, lm*, n8nUrl ...); keys of ChannelIntegrations. */
    integrations: jsonb('integrations').$type<ChannelIntegrations>().notNull().default({}),
    /**
     * The provider identity this channel holds (`waba:<phone number id>`, `messenger:<page id>`, ... see
     * channels.identity.ts): set only by a start that proved the credentials own it, cleared by a disconnect or an edit
     * of an identity field. Unique across tenants: one live channel per provider id in the installation.
     */
    providerKey: text('provider_key'),
    /** Provider facts learnt at connect time (bot username, webhook URL set, ...). */
    providerState: jsonb('provider_state').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('channels_tenant_idx').on(t.tenantId, t.id),
    /** Meta's app-level webhook also looks for unclaimed connected rows of a provider id (legacy data: refused). */
    index('channels_provider_id_idx').on(t.type, t.wabaId),
    uniqueIndex('channels_provider_key_unique')
      .on(t.providerKey)
      .where(sql`${t.providerKey} is not null`),
    uniqueIndex('channels_tenant_default_unique')
      .on(t.tenantId)
      .where(sql`${t.isDefault}`),
  ],
);

/** The channels a user may use (the users' `whatsappAllowed`). */
export const userChannels = pgTable(
  'user_channels',
  {
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    channelId: bigint('channel_id', { mode: 'number' })
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.channelId] }),
    index('user_channels_tenant_channel_idx').on(t.tenantId, t.channelId),
  ],
);

/**
 * Who runs a stateful session (Baileys, whatsapp-web.js): exactly one server process at a time holds the lease
 * (`owner` until `leaseUntil`) and renews it; another node takes a session whose lease ran out. `wanted` is the
 * user's intent: true from a connect until a disconnect or a logout from the phone.
 */
export const channelSessions = pgTable(
  'channel_sessions',
  {
    channelId: bigint('channel_id', { mode: 'number' })
      .primaryKey()
      .references(() => channels.id, { onDelete: 'cascade' }),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    wanted: boolean('wanted').notNull().default(false),
    /** The phone number a pairing-code login asked for (digits); null for a QR login. */
    pairingNumber: text('pairing_number'),
    owner: text('owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('channel_sessions_wanted_idx').on(t.wanted, t.leaseUntil)],
);

/**
 * A stateful session's auth state (credentials, signal keys, app-state keys), one row per key, each value encrypted
 * (AES-256-GCM, key from the secrets file). Never on the local disk: another node resumes the session from here.
 */
export const channelAuthKeys = pgTable(
  'channel_auth_keys',
  {
    channelId: bigint('channel_id', { mode: 'number' })
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** base64 of iv (12) + tag (16) + ciphertext. */
    value: text('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.channelId, t.key] })],
);

/**
 * The message templates of a WhatsApp Cloud API channel's business account, synchronised from Graph
 * (`GET /wabametaTemplate/{tokenApi}`) and kept here so the picker opens without a Graph call.
 */
export const wabaTemplates = pgTable(
  'waba_templates',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    channelId: bigint('channel_id', { mode: 'number' })
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    /** Graph's template id. */
    providerId: text('provider_id'),
    name: text('name').notNull(),
    language: text('language').notNull(),
    /** APPROVED, PENDING, REJECTED, PAUSED, DISABLED ... as Graph tells. */
    status: text('status').notNull(),
    category: text('category'),
    /** Graph's `components` array (HEADER, BODY, FOOTER, BUTTONS) as received. */
    components: jsonb('components').$type<unknown[]>().notNull().default([]),
    syncedAt: timestamp('synced_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('waba_templates_channel_name_lang_unique').on(t.channelId, t.name, t.language),
    index('waba_templates_tenant_idx').on(t.tenantId, t.channelId),
  ],
);
