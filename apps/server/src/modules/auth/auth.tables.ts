import { bigint, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from '../tenants/tenants.tables.js';
import { users } from '../users/users.tables.js';

/** Refresh tokens: stored as SHA-256 hashes, rotated on use; reuse of a rotated token revokes its family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    familyId: uuid('family_id').notNull(),
    /** users.token_version when issued: a password change (which bumps it) ends the whole session. */
    tokenVersion: integer('token_version').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('refresh_tokens_tenant_user_idx').on(t.tenantId, t.userId),
    index('refresh_tokens_expires_idx').on(t.expiresAt),
  ],
);

/** Password-reset tokens: hashed, single use, expiring. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tenantId: bigint('tenant_id', { mode: 'number' })
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_reset_tokens_expires_idx').on(t.expiresAt)],
);

/** Answered captcha challenges, so each one verifies a single login. Not tenant-owned: it precedes login. */
export const captchaUses = pgTable(
  'captcha_uses',
  {
    nonce: text('nonce').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('captcha_uses_expires_idx').on(t.expiresAt)],
);

/**
 * Self sign-ups waiting for their e-mail confirmation: nothing (tenant, user) exists until the link is followed. Not
 * tenant-owned: it precedes the tenant. The token is stored as its SHA-256 only.
 */
export const signupRequests = pgTable(
  'signup_requests',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    /** The validated sign-up form (password already hashed). */
    payload: jsonb('payload').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('signup_requests_email_idx').on(t.email), index('signup_requests_expires_idx').on(t.expiresAt)],
);
