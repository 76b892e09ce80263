/** The queries on users and user_tenants. Tenant-scoped functions take the branded TenantId (RLS filters too). */
import { containing, folded, foldSearch } from '../../platform/db/search.js';
import { and, asc, count, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Profile, UserConfigs } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { tenants } from '../tenants/tenants.tables.js';
import { users, userTenants } from './users.tables.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = Pick<typeof users.$inferInsert, 'tenantId' | 'name' | 'email' | 'passwordHash' | 'profile'> & {
  blockWavoip?: boolean;
};
export type UserPatch = Partial<Pick<UserRow, 'name' | 'email' | 'passwordHash' | 'profile' | 'blockWavoip'>> & {
  bumpTokenVersion?: boolean;
};

export interface Page {
  search: string;
  limit: number;
  offset: number;
  /** false: the term matches names only (a caller who may not read e-mails must not probe them either). */
  searchEmails?: boolean;
}

function matchesSearch(search: string, emails = true): SQL | undefined {
  const term = foldSearch(search);
  if (!term) return undefined;
  const pattern = containing(term);
  if (!emails) return sql`${folded(users.name)} like ${pattern}`;
  return sql`(${folded(users.name)} like ${pattern} or lower(${users.email}) like ${pattern})`;
}

export async function findUserById(tx: Queryable, tenantId: TenantId, id: number): Promise<UserRow | undefined> {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return row;
}

/** Any tenant's user: for the superadmin path only (withSystem). */
export async function findUserAnyTenant(tx: Queryable, id: number): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id));
  return row;
}

export async function listTenantUsers(
  tx: Queryable,
  tenantId: TenantId,
  page: Page,
): Promise<{ rows: UserRow[]; count: number }> {
  const where = and(eq(users.tenantId, tenantId), matchesSearch(page.search, page.searchEmails));
  const rows = await tx
    .select()
    .from(users)
    .where(where)
    .orderBy(asc(users.name), asc(users.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await tx.select({ n: count() }).from(users).where(where);
  return { rows, count: Number(total?.n ?? 0) };
}

/** Users of every tenant (or of `tenantId`), by tenant then name: a company's users stay together. */
export async function listAllUsersWithTenant(
  tx: Queryable,
  page: Page,
  tenantId?: number,
): Promise<{ rows: (UserRow & { tenantName: string })[]; count: number }> {
  const where = and(tenantId === undefined ? undefined : eq(users.tenantId, tenantId), matchesSearch(page.search));
  const rows = await tx
    .select({ user: users, tenantName: tenants.name })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .where(where)
    .orderBy(asc(users.tenantId), asc(users.name), asc(users.id))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await tx.select({ n: count() }).from(users).where(where);
  return { rows: rows.map((r) => ({ ...r.user, tenantName: r.tenantName })), count: Number(total?.n ?? 0) };
}

/** The other users of the tenant for the private chat: online first, then by name. */
export async function listChatUsers(
  tx: Queryable,
  tenantId: TenantId,
  exceptUserId: number,
  page: Page,
): Promise<Pick<UserRow, 'id' | 'name' | 'profile' | 'isOnline'>[]> {
  return tx
    .select({ id: users.id, name: users.name, profile: users.profile, isOnline: users.isOnline })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), ne(users.id, exceptUserId), matchesSearch(page.search, page.searchEmails)))
    .orderBy(desc(users.isOnline), asc(users.name), asc(users.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function listOnlineUsers(
  tx: Queryable,
  tenantId: TenantId,
): Promise<{ userId: number; name: string; profile: Profile }[]> {
  return tx
    .select({ userId: users.id, name: users.name, profile: users.profile })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.isOnline, true)))
    .orderBy(asc(users.name), asc(users.id));
}

/** Locks the tenant row until the transaction ends, so concurrent creations count users one after the other. */
export async function lockTenant(
  tx: Queryable,
  tenantId: number,
): Promise<{ id: number; name: string; maxUsers: number } | undefined> {
  const [row] = await tx
    .select({ id: tenants.id, name: tenants.name, maxUsers: tenants.maxUsers })
    .from(tenants)
    .where(eq(tenants.id, tenantId))
    .for('update');
  return row;
}

export async function findTenantName(tx: Queryable, tenantId: number): Promise<string | undefined> {
  const [row] = await tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.name;
}

export async function countTenantUsers(tx: Queryable, tenantId: number): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(users).where(eq(users.tenantId, tenantId));
  return Number(row?.n ?? 0);
}

export async function countSuperadminsExcept(tx: Queryable, userId: number): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.profile, 'superadmin'), ne(users.id, userId)));
  return Number(row?.n ?? 0);
}

/** Inserts the user and its home-tenant link; undefined when the e-mail is taken (in any tenant). */
export async function insertUser(tx: Queryable, values: NewUser): Promise<UserRow | undefined> {
  const [row] = await tx.insert(users).values(values).onConflictDoNothing().returning();
  if (!row) return undefined;
  await tx.insert(userTenants).values({ tenantId: row.tenantId, userId: row.id }).onConflictDoNothing();
  return row;
}

export async function updateUser(tx: Queryable, id: number, patch: UserPatch): Promise<UserRow | undefined> {
  const { bumpTokenVersion, ...columns } = patch;
  const [row] = await tx
    .update(users)
    .set({
      ...columns,
      ...(bumpTokenVersion ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Moves a user to another home tenant; links to other tenants are kept. */
export async function moveUser(tx: Queryable, id: number, from: number, to: number): Promise<void> {
  await tx
    .update(users)
    .set({ tenantId: to, updatedAt: sql`now()` })
    .where(eq(users.id, id));
  await tx.delete(userTenants).where(and(eq(userTenants.userId, id), eq(userTenants.tenantId, from)));
  await tx.insert(userTenants).values({ tenantId: to, userId: id }).onConflictDoNothing();
}

export async function deleteUser(tx: Queryable, id: number): Promise<void> {
  await tx.delete(users).where(eq(users.id, id));
}

export async function deleteUserTenantLink(tx: Queryable, userId: number, tenantId: number): Promise<boolean> {
  const rows = await tx
    .delete(userTenants)
    .where(and(eq(userTenants.userId, userId), eq(userTenants.tenantId, tenantId)))
    .returning({ id: userTenants.id });
  return rows.length > 0;
}

export async function setUserOnline(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  isOnline: boolean,
): Promise<UserRow | undefined> {
  const [row] = await tx
    .update(users)
    .set({ isOnline, lastOnlineAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
    .returning();
  return row;
}

/** Shallow-merges the given keys into users.configs and returns the result. */
export async function mergeUserConfigs(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  configs: UserConfigs,
): Promise<UserConfigs | undefined> {
  const [row] = await tx
    .update(users)
    .set({ configs: sql`${users.configs} || ${JSON.stringify(configs)}::jsonb`, updatedAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)))
    .returning({ configs: users.configs });
  return row?.configs;
}

/** True when the error is the global e-mail uniqueness (drizzle wraps the driver's error in `cause`). */
export function isDuplicateEmail(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown } | null)?.cause];
  return candidates.some((e) => {
    const pgError = e as { code?: string; constraint?: string } | null;
    return (
      pgError?.code === '23505' && (pgError.constraint === undefined || pgError.constraint === 'users_email_unique')
    );
  });
}
