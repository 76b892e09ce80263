/** Closing messages: every profile reads them (the resolve dialog); supervisors and admins write them. */
import type { FarewellDto } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import * as repo from './farewells.repository.js';

const toDto = (row: repo.FarewellRow): FarewellDto => ({
  id: row.id,
  message: row.message,
  userId: row.userId,
  createdAt: row.createdAt.toISOString(),
});

export function createFarewellsService(deps: { db: Database }) {
  const { db } = deps;
  return {
    list: async (ctx: TenantContext): Promise<FarewellDto[]> =>
      (await withTenant(db, ctx, (tx) => repo.listFarewells(tx, ctx.tenantId))).map(toDto),

    create: async (ctx: AuthedContext, message: string): Promise<FarewellDto> =>
      toDto(await withTenant(db, ctx, (tx) => repo.insertFarewell(tx, ctx.tenantId, { message, userId: ctx.userId }))),

    async update(ctx: TenantContext, id: number, message: string): Promise<FarewellDto> {
      const row = await withTenant(db, ctx, (tx) => repo.updateFarewell(tx, ctx.tenantId, id, message));
      if (!row) throw fail('ERR_NO_FAREWELL_FOUND');
      return toDto(row);
    },

    async remove(ctx: TenantContext, id: number): Promise<void> {
      if (!(await withTenant(db, ctx, (tx) => repo.deleteFarewell(tx, ctx.tenantId, id)))) {
        throw fail('ERR_NO_FAREWELL_FOUND');
      }
    },

    removeAll: (ctx: TenantContext): Promise<number> =>
      withTenant(db, ctx, (tx) => repo.deleteAllFarewells(tx, ctx.tenantId)),
  };
}

export type FarewellsService = ReturnType<typeof createFarewellsService>;
