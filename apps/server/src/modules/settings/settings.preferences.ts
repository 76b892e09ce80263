/**
 * The caller's tenant preferences (documents in the settings table, so this module's; it moved here from tenants to
 * break the tenants <-> settings cycle) served under static /tenants/... paths (client-contract §15, §18): its due date,
 * business hours with the absence message, the rating options and the system colours. Defaults stand until an admin
 * saves a value; the public colours are tenant 1's (the installation's own), as no tenant is known before login.
 */
import { z } from 'zod';
import {
  DEFAULT_BUSINESS_HOURS,
  DEFAULT_MESSAGE_BUSINESS_HOURS,
  DEFAULT_RATING,
  DEFAULT_RATING_ATTEMPTS,
  DEFAULT_RATING_MESSAGES,
  PROTECTED_TENANT_ID,
  businessHoursDaySchema,
  ratingOptionSchema,
  systemColorsList,
  type BusinessHoursDay,
  type RatingDataInput,
  type RatingOption,
  type SystemColor,
  type SystemColorKey,
  type systemColorsInputSchema,
  type TenantGateways,
} from '@conversa/shared';
import { eq } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.js';
import { systemContext, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import type { Queryable } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { tenants } from '../tenants/tenants.tables.js';
import { findTenantById } from '../tenants/index.js';
import { findTenantDocument, saveTenantDocument, type TenantDocumentName } from './settings.repository.js';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    /** A tenant preference document changed (business hours, absence message, ...), published after commit. */
    'tenants.preferences_changed': { tenantId: number; name: TenantDocumentName };
  }
}

export interface BusinessHours {
  businessHours: BusinessHoursDay[];
  messageBusinessHours: string;
}
export interface RatingConfig {
  id: number;
  rating: RatingOption[];
  ratingStore: string;
  ratingStoreAttemp: string;
  ratingStoreError: string;
  ratingAttempts: number;
}

export interface TenantPreferencesService {
  getDueDate(ctx: TenantContext): Promise<{ dueDate: string | null }>;
  getBusinessHours(ctx: TenantContext): Promise<BusinessHours>;
  saveBusinessHours(ctx: TenantContext, days: BusinessHoursDay[]): Promise<BusinessHours>;
  saveMessageBusinessHours(ctx: TenantContext, message: string): Promise<BusinessHours>;
  getRating(ctx: TenantContext): Promise<RatingConfig>;
  saveRating(ctx: TenantContext, options: RatingOption[]): Promise<RatingConfig>;
  /** `PUT /tenantsRatingData/{id}` (client-contract §10): the rating texts and attempts of the caller's tenant. */
  saveRatingData(ctx: TenantContext, id: number, values: RatingDataInput): Promise<RatingConfig>;
  getSystemColors(ctx: TenantContext): Promise<SystemColor[]>;
  saveSystemColors(ctx: TenantContext, colors: z.output<typeof systemColorsInputSchema>): Promise<SystemColor[]>;
  /** Login and sign-up pages: no token, so the installation's colours. */
  getPublicSystemColors(): Promise<SystemColor[]>;
  /**
   * The gateway defaults of tenant `id` (client-contract §10): an admin of that tenant or the superadmin. A null host
   * clears it; an absent or empty Evolution key keeps the stored one.
   */
  saveGatewayDefaults(
    ctx: TenantContext,
    id: number,
    values: { wuzapiHost?: string | null; evoHost?: string | null; evoToken?: string | null },
  ): Promise<TenantGateways>;
}

// A stored document that no longer parses (an older shape) falls back to the default instead of failing the read.
const storedBusinessHours = z.array(businessHoursDaySchema).length(7);
const storedRating = z.array(ratingOptionSchema);
const storedMessage = z.string();
const storedColors = z.record(z.string(), z.string());

const storedRatingMessages = z.object({
  ratingStore: z.string().optional(),
  ratingStoreAttemp: z.string().optional(),
  ratingStoreError: z.string().optional(),
  ratingAttempts: z.number().int().min(1).max(10).optional(),
});

/** The rating configuration of a tenant inside the caller's transaction (the ratings module reads it too). */
export async function readRatingConfig(tx: Queryable, tenantId: number): Promise<RatingConfig> {
  const messages = orDefault(storedRatingMessages, await findTenantDocument(tx, tenantId, 'ratingMessages'), {});
  return {
    id: tenantId,
    rating: orDefault(storedRating, await findTenantDocument(tx, tenantId, 'rating'), DEFAULT_RATING),
    ratingStore: messages.ratingStore || DEFAULT_RATING_MESSAGES.ratingStore,
    ratingStoreAttemp: messages.ratingStoreAttemp || DEFAULT_RATING_MESSAGES.ratingStoreAttemp,
    ratingStoreError: messages.ratingStoreError || DEFAULT_RATING_MESSAGES.ratingStoreError,
    ratingAttempts: messages.ratingAttempts ?? DEFAULT_RATING_ATTEMPTS,
  };
}

function orDefault<T>(schema: z.ZodType<T>, value: unknown, fallback: T): T {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : fallback;
}

export function createTenantPreferencesService(deps: { db: Database; events?: EventBus }): TenantPreferencesService {
  const { db } = deps;
  const changed = (ctx: TenantContext, name: TenantDocumentName) =>
    deps.events?.publish('tenants.preferences_changed', { tenantId: ctx.tenantId, name });
  const readBusinessHours = (ctx: TenantContext) =>
    withTenant(db, ctx, async (tx) => ({
      businessHours: orDefault(
        storedBusinessHours,
        await findTenantDocument(tx, ctx.tenantId, 'businessHours'),
        DEFAULT_BUSINESS_HOURS,
      ),
      messageBusinessHours: orDefault(
        storedMessage,
        await findTenantDocument(tx, ctx.tenantId, 'messageBusinessHours'),
        DEFAULT_MESSAGE_BUSINESS_HOURS,
      ),
    }));
  const readRating = (ctx: TenantContext) => withTenant(db, ctx, (tx) => readRatingConfig(tx, ctx.tenantId));
  const readColors = (ctx: TenantContext) =>
    withTenant(db, ctx, async (tx) =>
      systemColorsList(
        orDefault(storedColors, await findTenantDocument(tx, ctx.tenantId, 'systemColors'), {}) as Partial<
          Record<SystemColorKey, string>
        >,
      ),
    );

  return {
    async getDueDate(ctx) {
      const tenant = await withTenant(db, ctx, (tx) => findTenantById(tx, ctx.tenantId));
      if (!tenant) throw fail('ERR_NO_TENANT_FOUND');
      return { dueDate: tenant.dueDate?.toISOString() ?? null };
    },

    getBusinessHours: readBusinessHours,

    async saveBusinessHours(ctx, days) {
      const sorted = [...days].sort((a, b) => a.day - b.day);
      await withTenant(db, ctx, (tx) => saveTenantDocument(tx, ctx.tenantId, 'businessHours', sorted));
      changed(ctx, 'businessHours');
      return readBusinessHours(ctx);
    },

    async saveMessageBusinessHours(ctx, message) {
      await withTenant(db, ctx, (tx) => saveTenantDocument(tx, ctx.tenantId, 'messageBusinessHours', message));
      changed(ctx, 'messageBusinessHours');
      return readBusinessHours(ctx);
    },

    getRating: readRating,

    async saveRating(ctx, options) {
      await withTenant(db, ctx, (tx) => saveTenantDocument(tx, ctx.tenantId, 'rating', options));
      return readRating(ctx);
    },

    async saveRatingData(ctx, id, values) {
      // The id names the tenant (client-contract §10): only the caller's own.
      if (id !== ctx.tenantId) throw fail('ERR_NO_TENANT_FOUND');
      await withTenant(db, ctx, async (tx) => {
        const current = orDefault(
          storedRatingMessages,
          await findTenantDocument(tx, ctx.tenantId, 'ratingMessages'),
          {},
        );
        const { rating: _ignored, ...texts } = values;
        const next = Object.fromEntries(Object.entries({ ...current, ...texts }).filter(([, v]) => v !== undefined));
        await saveTenantDocument(tx, ctx.tenantId, 'ratingMessages', next);
      });
      return readRating(ctx);
    },

    getSystemColors: readColors,

    async saveSystemColors(ctx, colors) {
      // A partial array changes the colours it names and keeps the others.
      await withTenant(db, ctx, async (tx) => {
        const current = orDefault(storedColors, await findTenantDocument(tx, ctx.tenantId, 'systemColors'), {});
        await saveTenantDocument(tx, ctx.tenantId, 'systemColors', { ...current, ...colors });
      });
      return readColors(ctx);
    },

    getPublicSystemColors: () => readColors(systemContext(PROTECTED_TENANT_ID)),

    async saveGatewayDefaults(ctx, id, values) {
      if (id !== ctx.tenantId && ctx.profile !== 'superadmin') throw fail('ERR_NO_PERMISSION');
      const patch: Partial<typeof tenants.$inferInsert> = { updatedAt: new Date() };
      if (values.wuzapiHost !== undefined) patch.wuzapiHost = values.wuzapiHost;
      if (values.evoHost !== undefined) patch.evoHost = values.evoHost;
      if (values.evoToken) patch.evoToken = values.evoToken;
      // The permission is checked above; the write runs as the named tenant (the superadmin may name any).
      const [row] = await withTenant(db, systemContext(id), (tx) =>
        tx.update(tenants).set(patch).where(eq(tenants.id, id)).returning(),
      );
      if (!row) throw fail('ERR_NO_TENANT_FOUND');
      return {
        id: row.id,
        wuzapiHost: row.wuzapiHost,
        evoHost: row.evoHost,
        evoTokenConfigured: Boolean(row.evoToken),
      };
    },
  };
}
