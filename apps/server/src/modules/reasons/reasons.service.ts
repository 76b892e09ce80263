/** Reasons (motivos): every profile lists them (the resolve dialog); supervisors and admins manage them. */
import type { ReasonDto } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import * as repo from './reasons.repository.js';

const toDto = (row: repo.ReasonRow): ReasonDto => ({ id: row.id, name: row.name });

function rethrowDuplicate(error: unknown): never {
  if (repo.isDuplicateReason(error)) throw fail('ERR_REASON_EXISTS');
  throw error;
}

export function createReasonsService(deps: { db: Database }) {
  const { db } = deps;
  return {
    list: async (ctx: TenantContext): Promise<ReasonDto[]> =>
      (await withTenant(db, ctx, (tx) => repo.listReasons(tx, ctx.tenantId))).map(toDto),

    create: async (ctx: TenantContext, name: string): Promise<ReasonDto> =>
      toDto(await withTenant(db, ctx, (tx) => repo.insertReason(tx, ctx.tenantId, name)).catch(rethrowDuplicate)),

    async update(ctx: TenantContext, id: number, name: string): Promise<ReasonDto> {
      const row = await withTenant(db, ctx, (tx) => repo.updateReason(tx, ctx.tenantId, id, name)).catch(
        rethrowDuplicate,
      );
      if (!row) throw fail('ERR_NO_REASON_FOUND');
      return toDto(row);
    },

    async remove(ctx: TenantContext, id: number): Promise<void> {
      if (!(await withTenant(db, ctx, (tx) => repo.deleteReason(tx, ctx.tenantId, id)))) {
        throw fail('ERR_NO_REASON_FOUND');
      }
    },
  };
}

export type ReasonsService = ReturnType<typeof createReasonsService>;
