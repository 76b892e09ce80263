/**
 * Contacts, tags and the two contact sets (tags, wallets). Numbers are E.164 digits without '+', unique per tenant;
 * the channel ids (telegram, messenger, instagram) are unique per tenant as well.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { foldedExpression } from '../../platform/db/search.js';
import { tenants } from '../tenants/tenants.tables.js';
import { users } from '../users/users.tables.js';

export interface ExtraInfoItem {
  name: string;
  value: string;
}

const tenantId = () =>
  bigint('tenant_id', { mode: 'number' })
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

export const contacts = pgTable(
  'contacts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: tenantId(),
    name: text('name').notNull(),
    /**
     * The name folded for search, stored. Under row-level security a LIKE (not leakproof) cannot be an index
     * condition, so a substring search reads the tenant's rows; folding each name on every search made that 10x
     * slower (translate() on 100,000 rows: 340 ms against 35 ms for LIKE on this column).
     */
    nameFolded: text('name_folded').generatedAlwaysAs(sql.raw(foldedExpression('name'))),
    number: text('number'),
    email: text('email').notNull().default(''),
    profilePicUrl: text('profile_pic_url'),
    /**
     * The WhatsApp session picture we stored (media store key; contacts.avatars.ts): `profilePicUrl` is then our own
     * signed URL of it. Null when none is stored.
     */
    avatarKey: text('avatar_key'),
    /** When the picture was last asked of a session (or asked for): it is asked again a day later at the earliest. */
    avatarCheckedAt: timestamp('avatar_checked_at', { withTimezone: true }),
    pushname: text('pushname'),
    isGroup: boolean('is_group').notNull().default(false),
    cpf: text('cpf'),
    birthdayDate: date('birthday_date', { mode: 'string' }),
    firstName: text('first_name'),
    lastName: text('last_name'),
    businessName: text('business_name'),
    telegramId: text('telegram_id'),
    messengerId: text('messenger_id'),
    instagramPK: text('instagram_pk'),
    hubWhatsapp: text('hub_whatsapp'),
    /** The kanban lane; a foreign key once lanes exist. */
    kanban: bigint('kanban', { mode: 'number' }),
    blocked: boolean('blocked').notNull().default(false),
    chatbotBlocked: boolean('chatbot_blocked').notNull().default(false),
    /** When the contact answered the tenant's stop word (campaigns.ingestion.ts): no campaign sends to them since. */
    campaignOptOutAt: timestamp('campaign_opt_out_at', { withTimezone: true }),
    extraInfo: jsonb('extra_info').$type<ExtraInfoItem[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contacts_tenant_number_unique')
      .on(t.tenantId, t.number)
      .where(sql`${t.number} is not null`),
    uniqueIndex('contacts_tenant_telegram_unique')
      .on(t.tenantId, t.telegramId)
      .where(sql`${t.telegramId} is not null`),
    uniqueIndex('contacts_tenant_messenger_unique')
      .on(t.tenantId, t.messengerId)
      .where(sql`${t.messengerId} is not null`),
    uniqueIndex('contacts_tenant_instagram_unique')
      .on(t.tenantId, t.instagramPK)
      .where(sql`${t.instagramPK} is not null`),
    index('contacts_tenant_name_idx').on(t.tenantId, t.name, t.id),
    // A kanban lane's cards page by (name, id) from here (GET /kanban/{id}/contacts), the null lane too.
    index('contacts_tenant_kanban_name_idx').on(t.tenantId, t.kanban, t.name, t.id),
  ],
);

/** Tags: only the table for now (the tags CRUD comes with its own issue). */
export const tags = pgTable(
  'tags',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: tenantId(),
    tag: text('tag').notNull(),
    color: text('color').notNull().default('#1976d2'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tags_tenant_tag_unique').on(t.tenantId, sql`lower(${t.tag})`)],
);

export const contactTags = pgTable(
  'contact_tags',
  {
    tenantId: tenantId(),
    contactId: bigint('contact_id', { mode: 'number' })
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    tagId: bigint('tag_id', { mode: 'number' })
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.tagId] }),
    // contact_id last: a tag board column pages by contact id from here (GET /kanban-tags/{id}/contacts).
    index('contact_tags_tenant_tag_idx').on(t.tenantId, t.tagId, t.contactId),
  ],
);

/** A contact's wallet: the users who own it (ticket visibility with DirectTicketsToWallets). */
export const contactWallets = pgTable(
  'contact_wallets',
  {
    tenantId: tenantId(),
    contactId: bigint('contact_id', { mode: 'number' })
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.userId] }),
    index('contact_wallets_tenant_user_idx').on(t.tenantId, t.userId),
  ],
);

/** Text ordered byte by byte (collation "C"): a btree range `[term, next(term))` is then exactly "starts with term". */
const bytewiseText = customType<{ data: string }>({ dataType: () => 'text collate "C"' });

/** What a search key was taken from. */
export const SEARCH_KEY_FIELDS = { name: 1, number: 2, email: 3 } as const;

/** Keys are cut to this many characters: a longer term is looked up by its first ones and checked on the contact. */
export const SEARCH_KEY_LENGTH = 24;

/**
 * Substring search under row-level security: every suffix of a contact's folded name, lower-cased e-mail and number
 * digits (cut to SEARCH_KEY_LENGTH), maintained by statement triggers on contacts (migration 0006). A query's
 * `LIKE '%term%'` cannot use an index under RLS (LIKE is not leakproof, so it may not run before the policy), but
 * "a suffix starts with term" is a range of leakproof btree comparisons: the contacts containing a term are one index
 * range, instead of a scan of every contact of the tenant. No foreign keys: the triggers write and delete a contact's
 * keys with the contact (a check per key row would double the cost of writing them).
 */
export const contactSearchKeys = pgTable(
  'contact_search_keys',
  {
    tenantId: bigint('tenant_id', { mode: 'number' }).notNull(),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    field: smallint('field').notNull(),
    key: bytewiseText('key').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.field, t.key, t.contactId] }),
    index('contact_search_keys_contact_idx').on(t.contactId),
  ],
);
