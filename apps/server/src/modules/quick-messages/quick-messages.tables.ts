/**
 * Quick messages (mensagens rápidas; client-contract §8 `/fastreply`): a shortcut key, its text and an optional file
 * (an upload or a recorded voice note) served publicly under `/public/{tenantId}/{media}`.
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { EnabledFlag } from '@conversa/shared';
import { tenants } from '../tenants/tenants.tables.js';
import { users } from '../users/users.tables.js';

export const quickMessages = pgTable(
  'quick_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    message: text('message').notNull(),
    /** The public file name (`media` on the wire), unique per tenant; null without a file. */
    media: text('media'),
    /** Where the bytes are in the media store. */
    mediaKey: text('media_key'),
    mediaType: text('media_type'),
    mediaBytes: bigint('media_bytes', { mode: 'number' }),
    /** A recorded voice note (`voice` = enabled): sent as audio (ptt). */
    voice: text('voice').$type<EnabledFlag>().notNull().default('disabled'),
    isActive: boolean('is_active').notNull().default(true),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('quick_messages_tenant_key_unique').on(t.tenantId, sql`lower(${t.key})`),
    uniqueIndex('quick_messages_tenant_media_unique')
      .on(t.tenantId, t.media)
      .where(sql`${t.media} is not null`),
  ],
);
