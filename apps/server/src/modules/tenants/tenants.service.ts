/**
 * Tenant rules: every user reads its own tenant; only the superadmin lists, creates, edits and deletes tenants
 * (the routes authorise); tenant 1 can never be deactivated or deleted.
 */
import type { z } from 'zod';
import { PROTECTED_TENANT_ID, type createTenantInputSchema, type updateTenantInputSchema } from '@conversa/shared';
import type { Database, Queryable } from '../../platform/db/client.js';
import { withSystem, withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { fail } from '../../platform/http/errors.js';
import * as repo from './tenants.repository.js';
import type { PlanRow, TenantRow } from './tenants.repository.js';

declare module '../../platform/events/bus.js' {
  interface DomainEvents {
    /** The tenant was deactivated or deleted: its sessions' sockets are cut. */
    'tenants.deactivated': { tenantId: number };
  }
}

type CreateInput = z.output<typeof createTenantInputSchema>;
type UpdateInput = z.output<typeof updateTenantInputSchema>;

export interface TenantsService {
  getOwnTenant(ctx: TenantContext): Promise<TenantRow>;
  listTenants(ctx: TenantContext): Promise<TenantRow[]>;
  createTenant(ctx: TenantContext, input: CreateInput): Promise<TenantRow>;
  updateTenant(ctx: TenantContext, id: number, input: UpdateInput): Promise<TenantRow>;
  deleteTenant(ctx: TenantContext, id: number): Promise<void>;
  /** The sign-up catalogue: public, so no tenant is involved. */
  listPublicPlans(): Promise<PlanRow[]>;
}

const blankToNull = (value: string | null | undefined): string | null | undefined =>
  value === undefined ? undefined : value?.trim() || null;

/** Port: what a new tenant gets in the transaction that creates it; tenants owns it, settings implements it (modules.ts). */
export interface TenantSetupPort {
  setUpTenant(tx: Queryable, tenantId: number): Promise<void>;
}

export function createTenantsService(deps: { db: Database; events: EventBus; setup: TenantSetupPort }): TenantsService {
  const { db, events, setup } = deps;
  return {
    async getOwnTenant(ctx) {
      const tenant = await withTenant(db, ctx, (tx) => repo.findTenantById(tx, ctx.tenantId));
      if (!tenant) throw fail('ERR_NO_TENANT_FOUND');
      return tenant;
    },

    async listTenants(_ctx) {
      return withSystem(db, 'tenants.superadmin', (tx) => repo.listTenants(tx));
    },

    async createTenant(_ctx, input) {
      return withSystem(db, 'tenants.superadmin', async (tx) => {
        const tenant = await repo.insertTenant(tx, { ...input, identity: blankToNull(input.identity) ?? null });
        await setup.setUpTenant(tx, tenant.id);
        return tenant;
      });
    },

    async updateTenant(_ctx, id, input) {
      if (id === PROTECTED_TENANT_ID && input.status === 'inactive') throw fail('ERR_TENANT_PROTECTED', 'status');
      const patch: repo.TenantPatch = { ...input };
      if (input.identity !== undefined) patch.identity = blankToNull(input.identity) ?? null;
      const tenant = await withSystem(db, 'tenants.superadmin', (tx) => repo.updateTenant(tx, id, patch));
      if (!tenant) throw fail('ERR_NO_TENANT_FOUND');
      if (tenant.status === 'inactive') events.publish('tenants.deactivated', { tenantId: id });
      return tenant;
    },

    async deleteTenant(_ctx, id) {
      if (id === PROTECTED_TENANT_ID) throw fail('ERR_TENANT_PROTECTED');
      const deleted = await withSystem(db, 'tenants.superadmin', (tx) => repo.deleteTenant(tx, id));
      if (!deleted) throw fail('ERR_NO_TENANT_FOUND');
      events.publish('tenants.deactivated', { tenantId: id });
    },

    async listPublicPlans() {
      // plans is not tenant-owned (no RLS): a plain read.
      return repo.listPublicPlans(db);
    },
  };
}
