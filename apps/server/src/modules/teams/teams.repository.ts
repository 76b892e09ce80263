/** The queries on teams and their members. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Profile } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { users } from '../users/users.tables.js';
import { teams, teamUsers } from './teams.tables.js';

export type TeamRow = typeof teams.$inferSelect;
export interface TeamValues {
  group: string;
  isActive?: boolean | undefined;
}
export interface TeamMemberRef {
  id: number;
  name: string;
}
export type TeamWithUsers = TeamRow & { users: TeamMemberRef[] };

/** The team's members as a JSON column (correlated on the unaliased `teams` table). */
const memberColumn = () =>
  sql<TeamMemberRef[]>`coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name) order by u.name, u.id)
    from ${teamUsers} tu join ${users} u on u.id = tu.user_id where tu.team_id = ${teams}.id), '[]'::json)`;

export async function listTeams(tx: Queryable, tenantId: TenantId): Promise<TeamWithUsers[]> {
  const rows = await tx
    .select({ team: teams, users: memberColumn() })
    .from(teams)
    .where(eq(teams.tenantId, tenantId))
    .orderBy(asc(teams.name), asc(teams.id));
  return rows.map((row) => ({ ...row.team, users: row.users }));
}

export async function findTeam(tx: Queryable, tenantId: TenantId, id: number): Promise<TeamWithUsers | undefined> {
  const [row] = await tx
    .select({ team: teams, users: memberColumn() })
    .from(teams)
    .where(and(eq(teams.tenantId, tenantId), eq(teams.id, id)));
  return row && { ...row.team, users: row.users };
}

export async function insertTeam(tx: Queryable, tenantId: TenantId, values: TeamValues): Promise<TeamRow> {
  const [row] = await tx
    .insert(teams)
    .values({ tenantId, name: values.group, isActive: values.isActive ?? true })
    .returning();
  return row!;
}

export async function updateTeam(tx: Queryable, tenantId: TenantId, id: number, values: TeamValues) {
  const [row] = await tx
    .update(teams)
    .set({
      name: values.group,
      ...(values.isActive === undefined ? {} : { isActive: values.isActive }),
      updatedAt: sql`now()`,
    })
    .where(and(eq(teams.tenantId, tenantId), eq(teams.id, id)))
    .returning({ id: teams.id });
  return row;
}

export async function deleteTeam(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const rows = await tx
    .delete(teams)
    .where(and(eq(teams.tenantId, tenantId), eq(teams.id, id)))
    .returning({ id: teams.id });
  return rows.length > 0;
}

export async function teamExists(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.tenantId, tenantId), eq(teams.id, id)));
  return row !== undefined;
}

export async function userExists(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return row !== undefined;
}

export async function listMembers(
  tx: Queryable,
  tenantId: TenantId,
  teamId: number,
): Promise<{ id: number; name: string; email: string; profile: Profile }[]> {
  return tx
    .select({ id: users.id, name: users.name, email: users.email, profile: users.profile })
    .from(teamUsers)
    .innerJoin(users, eq(users.id, teamUsers.userId))
    .where(and(eq(teamUsers.tenantId, tenantId), eq(teamUsers.teamId, teamId)))
    .orderBy(asc(users.name), asc(users.id));
}

/** Adds the user to the team; already a member is no change. */
export async function addMember(tx: Queryable, tenantId: TenantId, teamId: number, userId: number): Promise<void> {
  await tx.insert(teamUsers).values({ tenantId, teamId, userId }).onConflictDoNothing();
}

export async function removeMember(tx: Queryable, tenantId: TenantId, teamId: number, userId: number): Promise<void> {
  await tx
    .delete(teamUsers)
    .where(and(eq(teamUsers.tenantId, tenantId), eq(teamUsers.teamId, teamId), eq(teamUsers.userId, userId)));
}

/** True when the error is the per-tenant team name uniqueness. */
export function isDuplicateTeamName(error: unknown): boolean {
  return [error, (error as { cause?: unknown } | null)?.cause].some(
    (e) => (e as { code?: string } | null)?.code === '23505',
  );
}
