import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Profile, UserConfigs } from '@conversa/shared';
import { tenants } from '../tenants/tenants.tables.js';

export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    profile: text('profile').$type<Profile>().notNull().default('user'),
    isOnline: boolean('is_online').notNull().default(false),
    lastOnlineAt: timestamp('last_online_at', { withTimezone: true }),
    /** When distribution last gave this user a ticket: ties between equally loaded users go to the longest idle. */
    lastDistributedAt: timestamp('last_distributed_at', { withTimezone: true }),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    blockWavoip: boolean('block_wavoip').notNull().default(false),
    configs: jsonb('configs').$type<UserConfigs>().notNull().default({}),
    /** Bumped on password change: access tokens carry it, so older ones stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    index('users_tenant_name_idx').on(t.tenantId, t.name, t.id),
  ],
);

/** Which tenants a user belongs to (the superadmin's user-tenant links); the home tenant is users.tenant_id. */
export const userTenants = pgTable(
  'user_tenants',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('user_tenants_tenant_user_unique').on(t.tenantId, t.userId),
    index('user_tenants_user_idx').on(t.userId),
  ],
);
