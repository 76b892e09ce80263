/**
 * The tenant toggles of client-contract §10 (`tenants.flags`): every user of the tenant reads them with its tenant
 * (`GET /tenants/{id}`); each `PUT /tenants<Name>/{id}` stores one field. Only an admin of that tenant (or the
 * superadmin) writes, as for the gateway defaults (`/tenantsEvolutionHost/{id}`): another tenant's id is refused with
 * ERR_NO_PERMISSION and changes nothing.
 */
import { readTenantFlags, type TenantFlagKey, type TenantFlags, type TenantFlagsResponse } from '@conversa/shared';
import { eq, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../platform/db/client.js';
import { systemContext, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import { tenants } from './tenants.tables.js';

/** A tenant's toggles, defaults filled (read in the caller's transaction; an unknown tenant reads the defaults). */
export async function readTenantFlagsOf(tx: Queryable, tenantId: number): Promise<TenantFlags> {
  const [row] = await tx.select({ flags: tenants.flags }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  return readTenantFlags(row?.flags);
}

export interface TenantFlagsService {
  saveFlag(ctx: TenantContext, id: number, field: TenantFlagKey, value: string | number): Promise<TenantFlagsResponse>;
}

export function createTenantFlagsService(deps: { db: Database }): TenantFlagsService {
  const { db } = deps;
  return {
    async saveFlag(ctx, id, field, value) {
      if (id !== ctx.tenantId && ctx.profile !== 'superadmin') throw fail('ERR_NO_PERMISSION');
      // The permission is checked above; the write runs as the named tenant (the superadmin may name any).
      const [row] = await withTenant(db, systemContext(id), (tx) =>
        tx
          .update(tenants)
          .set({
            flags: sql`${tenants.flags} || jsonb_build_object(${field}::text, ${JSON.stringify(value)}::jsonb)`,
            updatedAt: new Date(),
          })
          .where(sql`${tenants.id} = ${id}`)
          .returning({ id: tenants.id, flags: tenants.flags }),
      );
      if (!row) throw fail('ERR_NO_TENANT_FOUND');
      return { id: row.id, ...readTenantFlags(row.flags) };
    },
  };
}
