/**
 * The tenant's Meta and NotificaMe hub tokens (client-contract §10 `/tenantsMetaUpdate`, `/tenantsHubToken`): write-only
 * like the Evolution key. Routes store them and answer only whether each is set; the channel code reads them through
 * `readTenantTokens` (waba channels without their own token, `/wabametaVerifyBms`, every hub call).
 */
import { eq } from 'drizzle-orm';
import type { TenantTokensState } from '@conversa/shared';
import type { Database, Queryable } from '../../platform/db/client.js';
import { systemContext, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import { tenants } from './tenants.tables.js';

export interface TenantTokens {
  metaToken: string | null;
  wabaToken: string | null;
  hubToken: string | null;
}

/** A token as the routes take it: undefined keeps the stored one, null clears it, a string replaces it. */
type TokenChange = string | null | undefined;

export const tokensStateOf = (row: TenantTokens): TenantTokensState => ({
  metaTokenConfigured: Boolean(row.metaToken),
  wabaTokenConfigured: Boolean(row.wabaToken),
  hubTokenConfigured: Boolean(row.hubToken),
});

/** The tokens of a tenant inside the caller's transaction (RLS: the caller's own tenant, or a system path). */
export async function readTenantTokens(tx: Queryable, tenantId: number): Promise<TenantTokens> {
  const [row] = await tx
    .select({ metaToken: tenants.metaToken, wabaToken: tenants.wabaToken, hubToken: tenants.hubToken })
    .from(tenants)
    .where(eq(tenants.id, tenantId));
  return row ?? { metaToken: null, wabaToken: null, hubToken: null };
}

export interface TenantTokensService {
  /** `PUT /tenantsMetaUpdate/{id}`: an admin of tenant `id`, or the superadmin. */
  saveMetaTokens(
    ctx: TenantContext,
    id: number,
    values: { metaToken?: TokenChange; wabaToken?: TokenChange },
  ): Promise<TenantTokensState>;
  /** `PUT /tenantsHubToken/{id}`: the same rule. */
  saveHubToken(ctx: TenantContext, id: number, values: { hubToken?: TokenChange }): Promise<TenantTokensState>;
}

export function createTenantTokensService(deps: { db: Database }): TenantTokensService {
  async function save(ctx: TenantContext, id: number, changes: Partial<Record<keyof TenantTokens, TokenChange>>) {
    // The same rule as the gateway defaults (/tenantsEvolutionHost): the caller's own tenant unless superadmin.
    if (id !== ctx.tenantId && ctx.profile !== 'superadmin') throw fail('ERR_NO_PERMISSION');
    const patch: Partial<typeof tenants.$inferInsert> = { updatedAt: new Date() };
    for (const [key, value] of Object.entries(changes) as [keyof TenantTokens, TokenChange][]) {
      if (value !== undefined) patch[key] = value;
    }
    const [row] = await withTenant(deps.db, systemContext(id), (tx) =>
      tx.update(tenants).set(patch).where(eq(tenants.id, id)).returning(),
    );
    if (!row) throw fail('ERR_NO_TENANT_FOUND');
    return tokensStateOf(row);
  }

  return {
    saveMetaTokens: (ctx, id, values) => save(ctx, id, { metaToken: values.metaToken, wabaToken: values.wabaToken }),
    saveHubToken: (ctx, id, values) => save(ctx, id, { hubToken: values.hubToken }),
  };
}
