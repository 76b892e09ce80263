/** The tenant's users: list, create, read, edit, delete, presence and per-user configs. Every call takes ctx first. */
import type { createUserInputSchema } from '@conversa/shared';
import { isAdminProfile, USERS_PAGE_SIZE, type UserConfigs } from '@conversa/shared';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { Database, Tx } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import type { EventBus } from '../../platform/events/bus.js';
import { profileRank, type AuthedContext } from '../../platform/http/auth.js';
import { fail } from '../../platform/http/errors.js';
import { hashPassword } from '../../platform/crypto.js';
import { findSetting } from '../settings/index.js';
import { insertUserWithinLimit } from './users.capacity.js';
import { loadUserChannels, replaceUserChannels } from './users.channels.js';
import { loadUserQueues, replaceUserQueues } from './users.queues.js';
import * as repo from './users.repository.js';
import type { UserRow } from './users.repository.js';
import { assertCurrentPassword, assertMayGrant, assertMayManage, planUserEdit, type UserEdit } from './users.rules.js';
import './users.events.js';

/** The caller's session after their own password change: it goes on under the new password. */
export interface RenewedSession {
  token: string;
  refreshToken: string;
  sessionId: string;
}

/** Sessions belong to the auth module, which imports this one: it hands this port in (modules.ts). */
export interface UserSessionsPort {
  /** In the password change's transaction: ends every session of the user but `sessionId`, which is renewed. */
  renewOwnSession(tx: Tx, user: UserRow, sessionId: string | undefined): Promise<RenewedSession>;
  setRefreshCookie(reply: FastifyReply, refreshToken: string): void;
}

export type CreateUser = z.output<typeof createUserInputSchema>;
export interface ListQuery {
  searchParam?: string;
  pageNumber?: number;
  rowsPerPage?: number;
}

export function pageOf(query: ListQuery, fallbackSize = USERS_PAGE_SIZE): repo.Page {
  const limit = query.rowsPerPage ?? fallbackSize;
  return { search: query.searchParam ?? '', limit, offset: ((query.pageNumber ?? 1) - 1) * limit };
}

export function createUsersService(deps: { db: Database; events: EventBus; sessions: UserSessionsPort }) {
  const { db, events, sessions } = deps;

  async function findOrFail(ctx: AuthedContext, id: number): Promise<UserRow> {
    const row = await withTenant(db, ctx, (tx) => repo.findUserById(tx, ctx.tenantId, id));
    if (!row) throw fail('ERR_NO_USER_FOUND');
    return row;
  }

  /** Queue membership is the admin's to change; an unchanged list echoed back by a client is no change. */
  async function setQueues(tx: Tx, ctx: AuthedContext, userId: number, queueIds: number[]): Promise<boolean> {
    const current = (await loadUserQueues(tx, [userId])).get(userId) ?? [];
    const same = new Set(queueIds).size === current.length && current.every((q) => queueIds.includes(q.id));
    if (same) return false;
    if (!isAdminProfile(ctx.profile)) throw fail('ERR_NO_PERMISSION');
    await replaceUserQueues(tx, ctx.tenantId, userId, queueIds);
    return true;
  }

  /** Allowed channels, like the queues: the admin's to change; an unchanged list echoed back is no change. */
  async function setChannels(tx: Tx, ctx: AuthedContext, userId: number, channelIds: number[]): Promise<boolean> {
    const current = (await loadUserChannels(tx, [userId])).get(userId) ?? [];
    const same = new Set(channelIds).size === current.length && current.every((c) => channelIds.includes(c.id));
    if (same) return false;
    if (!isAdminProfile(ctx.profile)) throw fail('ERR_NO_PERMISSION');
    await replaceUserChannels(tx, ctx.tenantId, userId, channelIds);
    return true;
  }

  return {
    /** The queues of the given users, for their DTOs. */
    queuesOf: (ctx: TenantContext, userIds: number[]) => withTenant(db, ctx, (tx) => loadUserQueues(tx, userIds)),
    /** The queues and allowed channels of the given users, for their DTOs. */
    relationsOf: (ctx: TenantContext, userIds: number[]) =>
      withTenant(db, ctx, async (tx) => ({
        queues: await loadUserQueues(tx, userIds),
        channels: await loadUserChannels(tx, userIds),
      })),

    /** Agents search colleagues by name only: they never read e-mails (GET /users/ answers them without). */
    async listUsers(ctx: AuthedContext, query: ListQuery) {
      const page = { ...pageOf(query), searchEmails: profileRank(ctx.profile) >= profileRank('super') };
      const { rows, count } = await withTenant(db, ctx, (tx) => repo.listTenantUsers(tx, ctx.tenantId, page));
      return { rows, count, hasMore: page.offset + rows.length < count };
    },

    async createUser(ctx: AuthedContext, input: CreateUser): Promise<UserRow> {
      assertMayGrant(ctx, input.profile);
      // Hash outside the transaction: the tenant row stays locked only for the count and the insert.
      const passwordHash = await hashPassword(input.password);
      const row = await withTenant(db, ctx, async (tx) => {
        if ((await findSetting(tx, ctx.tenantId, 'userCreation')) === 'disabled') {
          throw fail('ERR_USER_CREATION_DISABLED');
        }
        const created = await insertUserWithinLimit(tx, {
          tenantId: ctx.tenantId,
          name: input.name,
          email: input.email,
          profile: input.profile,
          blockWavoip: input.blockWavoip,
          passwordHash,
        });
        if (input.queues) await replaceUserQueues(tx, ctx.tenantId, created.id, input.queues);
        if (input.whatsappAllowed) await replaceUserChannels(tx, ctx.tenantId, created.id, input.whatsappAllowed);
        return created;
      });
      events.publish('users.created', { tenantId: row.tenantId, userId: row.id });
      return row;
    },

    async getUser(ctx: AuthedContext, id: number): Promise<UserRow> {
      const row = await findOrFail(ctx, id);
      if (row.id !== ctx.userId && profileRank(ctx.profile) < profileRank('super')) throw fail('ERR_NO_PERMISSION');
      return row;
    },

    async updateUser(
      ctx: AuthedContext,
      id: number,
      edit: UserEdit,
    ): Promise<{ user: UserRow; session?: RenewedSession | undefined }> {
      const target = await findOrFail(ctx, id);
      planUserEdit(ctx, target, edit); // refuse before paying for the hash
      await assertCurrentPassword(ctx, target, edit);
      const passwordHash = edit.password ? await hashPassword(edit.password) : undefined;
      const { row, session, roomsChanged } = await withTenant(db, ctx, async (tx) => {
        const current = await repo.findUserById(tx, ctx.tenantId, id);
        if (!current) throw fail('ERR_NO_USER_FOUND');
        const patch = planUserEdit(ctx, current, edit, passwordHash);
        const queuesChanged = edit.queues ? await setQueues(tx, ctx, id, edit.queues) : false;
        if (edit.whatsappAllowed) await setChannels(tx, ctx, id, edit.whatsappAllowed);
        const updated = await repo.updateUser(tx, id, patch);
        if (!updated) throw fail('ERR_NO_USER_FOUND');
        const own = passwordHash && id === ctx.userId;
        return {
          row: updated,
          session: own ? await sessions.renewOwnSession(tx, updated, ctx.sessionId) : undefined,
          roomsChanged: queuesChanged || patch.profile !== undefined,
        };
      }).catch(rethrowDuplicateEmail);
      events.publish('users.updated', {
        tenantId: row.tenantId,
        userId: row.id,
        roomsChanged,
        passwordChanged: passwordHash !== undefined,
        keptSessionId: session?.sessionId,
      });
      return { user: row, session };
    },

    async deleteUser(ctx: AuthedContext, id: number): Promise<void> {
      if (id === ctx.userId) throw fail('ERR_NO_PERMISSION');
      await withTenant(db, ctx, async (tx) => {
        const target = await repo.findUserById(tx, ctx.tenantId, id);
        if (!target) throw fail('ERR_NO_USER_FOUND');
        assertMayManage(ctx, target);
        await repo.deleteUser(tx, id);
      });
      events.publish('users.deleted', { tenantId: ctx.tenantId, userId: id });
    },

    async setPresence(ctx: AuthedContext, id: number, isOnline: boolean): Promise<UserRow> {
      const row = await withTenant(db, ctx, async (tx) => {
        const target = await repo.findUserById(tx, ctx.tenantId, id);
        if (!target) throw fail('ERR_NO_USER_FOUND');
        assertMayManage(ctx, target);
        return repo.setUserOnline(tx, ctx.tenantId, id, isOnline);
      });
      if (!row) throw fail('ERR_NO_USER_FOUND');
      events.publish('users.presence_changed', {
        tenantId: row.tenantId,
        userId: row.id,
        name: row.name,
        isOnline: row.isOnline,
      });
      return row;
    },

    async updateConfigs(ctx: AuthedContext, id: number, configs: UserConfigs): Promise<UserConfigs> {
      return withTenant(db, ctx, async (tx) => {
        const target = await repo.findUserById(tx, ctx.tenantId, id);
        if (!target) throw fail('ERR_NO_USER_FOUND');
        assertMayManage(ctx, target);
        const merged = await repo.mergeUserConfigs(tx, ctx.tenantId, id, configs);
        if (!merged) throw fail('ERR_NO_USER_FOUND');
        return merged;
      });
    },

    async listChatUsers(ctx: AuthedContext, query: ListQuery) {
      // Without a page the whole (bounded) list comes back: the private chat shows every colleague.
      const whole = query.pageNumber ? pageOf(query) : { ...pageOf(query, 1000), offset: 0 };
      const page = { ...whole, searchEmails: profileRank(ctx.profile) >= profileRank('super') };
      return withTenant(db, ctx, (tx) => repo.listChatUsers(tx, ctx.tenantId, ctx.userId, page));
    },

    async listOnlineUsers(ctx: TenantContext) {
      return withTenant(db, ctx, (tx) => repo.listOnlineUsers(tx, ctx.tenantId));
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;

export function rethrowDuplicateEmail(error: unknown): never {
  if (repo.isDuplicateEmail(error)) throw fail('ERR_EMAIL_ALREADY_EXISTS', 'email');
  throw error;
}
