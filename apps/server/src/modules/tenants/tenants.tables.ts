import { bigint, boolean, index, integer, jsonb, numeric, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
    /** End of the paid or trial period (`GET /tenants/date`); null = no end. A trial past it is inactive. */
    dueDate: timestamp('due_date', { withTimezone: true }),
    /** Media storage quota in bytes; null = the installation's default (`MEDIA_TENANT_QUOTA_BYTES`). */
    mediaQuotaBytes: bigint('media_quota_bytes', { mode: 'number' }),
    /** Gateway defaults (client-contract §10): a new Wuzapi/Evolution channel's API URL and Evolution's global key. */
    wuzapiHost: text('wuzapi_host'),
    evoHost: text('evo_host'),
    evoToken: text('evo_token'),
    /**
     * Official channels (client-contract §10 `/tenantsMetaUpdate`, `/tenantsHubToken`), write-only: the Meta business
     * token (`metaToken`, business-manager lookups of `/wabametaVerifyBms`), the default WhatsApp Cloud API token
     * (`wabaToken`, used by a waba channel without its own) and the NotificaMe hub's API token (`hubToken`).
     */
    metaToken: text('meta_token'),
    wabaToken: text('waba_token'),
    hubToken: text('hub_token'),
    /**
     * The tenant-level toggles of client-contract §10 (`showChatBot`, `nullTickets`, `supervisorAdmin`, `forceAdmin`,
     * `showGroupsForAll`, `showClosedForAll`, ...), validated by the shared `tenantFlagsSchema`; absent = default.
     */
    flags: jsonb('flags').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tenants_status_idx').on(t.status)],
);

/**
 * Bytes of media a tenant has stored (uploads and downloaded provider media), kept apart from `tenants` so the
 * counter's frequent updates never lock or bloat the tenant row every request reads.
 */
export const tenantMediaUsage = pgTable('tenant_media_usage', {
  tenantId: bigint('tenant_id', { mode: 'number' })
    .primaryKey()
    .references(() => tenants.id, { onDelete: 'cascade' }),
  usedBytes: bigint('used_bytes', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
