/**
 * The superadmin's user-tenant links (client-contract §3): users of every tenant, created in, moved to or removed from
 * a tenant. Cross-tenant by nature, so it runs on the named system path 'users.superadmin'.
 */
import type { createUserTenantInputSchema, updateUserTenantInputSchema } from '@conversa/shared';
import { type Profile } from '@conversa/shared';
import type { z } from 'zod';
import type { Database, Queryable } from '../../platform/db/client.js';
import { withSystem } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { hashPassword } from '../../platform/crypto.js';
import { assertTenantHasRoom, insertUserWithinLimit } from './users.capacity.js';
import * as repo from './users.repository.js';
import type { UserRow } from './users.repository.js';
import { assertCurrentPassword, planUserEdit } from './users.rules.js';
import { pageOf, rethrowDuplicateEmail, type ListQuery } from './users.service.js';
import './users.events.js';

type CreateUserTenant = z.output<typeof createUserTenantInputSchema>;
type UpdateUserTenant = z.output<typeof updateUserTenantInputSchema>;

/** The installation must keep a superadmin: the last one is neither deleted nor demoted here. */
async function assertNotLastSuperadmin(tx: Queryable, user: UserRow, nextProfile: Profile | null): Promise<void> {
  if (user.profile !== 'superadmin' || nextProfile === 'superadmin') return;
  if ((await repo.countSuperadminsExcept(tx, user.id)) === 0) throw fail('ERR_NO_PERMISSION');
}

export function createUserTenantsService(deps: { db: Database; events: EventBus }) {
  const { db, events } = deps;
  const system = <T>(fn: (tx: Queryable) => Promise<T>) => withSystem(db, 'users.superadmin', fn);

  return {
    /** Every tenant's users, or one tenant's (`tenantId`: the superadmin screen's company filter). */
    async listUserTenants(_ctx: AuthedContext, query: ListQuery & { tenantId?: number | undefined }) {
      const page = pageOf(query);
      const { rows, count } = await system((tx) => repo.listAllUsersWithTenant(tx, page, query.tenantId));
      return { rows, count, hasMore: page.offset + rows.length < count };
    },

    async createUserTenant(_ctx: AuthedContext, input: CreateUserTenant) {
      const passwordHash = await hashPassword(input.password);
      const row = await system(async (tx) => {
        const created = await insertUserWithinLimit(tx, {
          tenantId: input.tenantId,
          name: input.name,
          email: input.email,
          profile: input.profile,
          blockWavoip: input.blockWavoip,
          passwordHash,
        });
        return { ...created, tenantName: (await repo.findTenantName(tx, created.tenantId)) ?? '' };
      });
      events.publish('users.created', { tenantId: row.tenantId, userId: row.id });
      return row;
    },

    async updateUserTenant(ctx: AuthedContext, id: number, input: UpdateUserTenant) {
      const { tenantId, ...edit } = input;
      if (id === ctx.userId) {
        const self = await system((tx) => repo.findUserAnyTenant(tx, id));
        if (self) await assertCurrentPassword(ctx, self, edit);
      }
      const passwordHash = edit.password ? await hashPassword(edit.password) : undefined;
      const { row, movedFrom, roomsChanged } = await system(async (tx) => {
        const target = await repo.findUserAnyTenant(tx, id);
        if (!target) throw fail('ERR_NO_USER_FOUND');
        const patch = planUserEdit(ctx, target, edit, passwordHash);
        await assertNotLastSuperadmin(tx, target, patch.profile ?? target.profile);
        let from: number | null = null;
        if (tenantId !== target.tenantId) {
          await assertTenantHasRoom(tx, tenantId);
          await repo.moveUser(tx, id, target.tenantId, tenantId);
          from = target.tenantId;
        }
        const updated = await repo.updateUser(tx, id, patch);
        if (!updated) throw fail('ERR_NO_USER_FOUND');
        return {
          row: { ...updated, tenantName: (await repo.findTenantName(tx, updated.tenantId)) ?? '' },
          movedFrom: from,
          roomsChanged: patch.profile !== undefined,
        };
      }).catch(rethrowDuplicateEmail);
      // A move ends the user's sessions in the former tenant (users.deleted there).
      if (movedFrom !== null) events.publish('users.deleted', { tenantId: movedFrom, userId: id });
      if (movedFrom !== null) events.publish('users.created', { tenantId: row.tenantId, userId: id });
      else {
        events.publish('users.updated', {
          tenantId: row.tenantId,
          userId: id,
          roomsChanged,
          passwordChanged: passwordHash !== undefined,
        });
      }
      return row;
    },

    /** Removes the user from the tenant: the link, and the user itself when it is their home tenant. */
    async removeUserFromTenant(ctx: AuthedContext, id: number, tenantId: number): Promise<void> {
      if (id === ctx.userId) throw fail('ERR_NO_PERMISSION');
      await system(async (tx) => {
        const target = await repo.findUserAnyTenant(tx, id);
        if (!target) throw fail('ERR_NO_USER_FOUND');
        if ((await repo.findTenantName(tx, tenantId)) === undefined) throw fail('ERR_NO_TENANT_FOUND');
        if (target.tenantId !== tenantId) {
          if (!(await repo.deleteUserTenantLink(tx, id, tenantId))) throw fail('ERR_NO_USER_FOUND');
          return;
        }
        await assertNotLastSuperadmin(tx, target, null);
        await repo.deleteUser(tx, id);
      });
      events.publish('users.deleted', { tenantId, userId: id });
    },
  };
}

export type UserTenantsService = ReturnType<typeof createUserTenantsService>;
