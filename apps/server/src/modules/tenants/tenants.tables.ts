import { bigint, boolean, index, integer, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const plans = pgTable('plans', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  value: numeric('value', { precision: 12, scale: 2, mode: 'number' }).notNull().default(0),
  connections: integer('connections').notNull(),
  users: integer('users').notNull(),
  trial: text('trial', { enum: ['enabled', 'disabled'] })
    .notNull()
    .default('disabled'),
  trialPeriod: integer('trial_period').notNull().default(0),
  isPublic: boolean('is_public').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const tenants = pgTable(
  'tenants',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity(),
    status: text('status', { enum: ['active', 'inactive'] })
      .notNull()
      .default('active'),
    name: text('name').notNull(),
    identity: text('identity'),
    /** Contact mobile (digits) given at self sign-up. */
    phone: text('phone'),
    maxUsers: integer('max_users').notNull().default(10),
    maxConnections: integer('max_connections').notNull().default(5),
    trial: text('trial', { enum: ['enabled', 'disabled'] })
      .notNull()
      .default('disabled'),
    trialPeriod: integer('trial_period').notNull().default(0),
    hideUnofficial: boolean('hide_unofficial').notNull().default(false),
    planId: bigint('plan_id', { mode: 'number' }).references(() => plans.id, { onDelete: 'set null' }),
    timezone: text('timezone').notNull().default('America/Sao_Paulo'),
    paymentProviderActive: boolean('payment_provider_active').notNull().default(false),
    paymentProviderToken: text('payment_provider_token'),
    paymentProviderCustomerId: text('payment_provider_customer_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tenants_status_idx').on(t.status)],
);
