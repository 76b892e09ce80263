/**
 * The tenant's teams (client-contract §16 `/group-message`): every profile reads them (the private chat lists teams);
 * supervisors and admins create, rename, delete them and manage their members.
 */
import type { TeamDto, TeamMember } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { withTenant, type TenantContext } from '../../platform/db/tenancy.js';
import { fail } from '../../platform/http/errors.js';
import * as repo from './teams.repository.js';

const toTeamDto = (row: repo.TeamWithUsers): TeamDto => ({
  id: row.id,
  group: row.name,
  isActive: row.isActive,
  users: row.users,
});

function rethrowDuplicateName(error: unknown): never {
  if (repo.isDuplicateTeamName(error)) throw fail('ERR_TEAM_EXISTS');
  throw error;
}

export function createTeamsService(deps: { db: Database }) {
  const { db } = deps;
  return {
    listTeams: async (ctx: TenantContext): Promise<TeamDto[]> =>
      (await withTenant(db, ctx, (tx) => repo.listTeams(tx, ctx.tenantId))).map(toTeamDto),

    createTeam: async (ctx: TenantContext, values: repo.TeamValues): Promise<TeamDto> =>
      toTeamDto(
        await withTenant(db, ctx, async (tx) => {
          const row = await repo.insertTeam(tx, ctx.tenantId, values);
          return { ...row, users: [] };
        }).catch(rethrowDuplicateName),
      ),

    async updateTeam(ctx: TenantContext, id: number, values: repo.TeamValues): Promise<TeamDto> {
      const row = await withTenant(db, ctx, async (tx) => {
        if (!(await repo.updateTeam(tx, ctx.tenantId, id, values))) throw fail('ERR_NO_TEAM_FOUND');
        return repo.findTeam(tx, ctx.tenantId, id);
      }).catch(rethrowDuplicateName);
      return toTeamDto(row!);
    },

    async deleteTeam(ctx: TenantContext, id: number): Promise<void> {
      const deleted = await withTenant(db, ctx, (tx) => repo.deleteTeam(tx, ctx.tenantId, id));
      if (!deleted) throw fail('ERR_NO_TEAM_FOUND');
    },

    listMembers: (ctx: TenantContext, teamId: number): Promise<TeamMember[]> =>
      withTenant(db, ctx, async (tx) => {
        if (!(await repo.teamExists(tx, ctx.tenantId, teamId))) throw fail('ERR_NO_TEAM_FOUND');
        return repo.listMembers(tx, ctx.tenantId, teamId);
      }),

    /** Idempotent: adding a member twice leaves one membership. */
    addMember: (ctx: TenantContext, teamId: number, userId: number): Promise<TeamMember[]> =>
      withTenant(db, ctx, async (tx) => {
        if (!(await repo.teamExists(tx, ctx.tenantId, teamId))) throw fail('ERR_NO_TEAM_FOUND');
        if (!(await repo.userExists(tx, ctx.tenantId, userId))) throw fail('ERR_NO_USER_FOUND');
        await repo.addMember(tx, ctx.tenantId, teamId, userId);
        return repo.listMembers(tx, ctx.tenantId, teamId);
      }),

    /** Idempotent: removing a user who is not a member changes nothing. */
    removeMember: (ctx: TenantContext, teamId: number, userId: number): Promise<void> =>
      withTenant(db, ctx, async (tx) => {
        if (!(await repo.teamExists(tx, ctx.tenantId, teamId))) throw fail('ERR_NO_TEAM_FOUND');
        if (!(await repo.userExists(tx, ctx.tenantId, userId))) throw fail('ERR_NO_USER_FOUND');
        await repo.removeMember(tx, ctx.tenantId, teamId, userId);
      }),
  };
}

export type TeamsService = ReturnType<typeof createTeamsService>;
