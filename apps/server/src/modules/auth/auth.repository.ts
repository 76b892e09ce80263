/**
 * Queries of the auth module: refresh and reset tokens, burnt captcha nonces, and the few user reads and writes
 * that authentication needs (looking up by e-mail, changing the password hash). Tenant-scoped functions take the
 * branded TenantId; RLS filters below them too.
 */
import { and, desc, eq, gt, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Profile, UserConfigs } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { users, userTenants } from '../users/users.tables.js';
import { captchaUses, passwordResetTokens, refreshTokens } from './auth.tables.js';

export interface AuthUser {
  id: number;
  tenantId: number;
  name: string;
  email: string;
  profile: Profile;
  passwordHash: string;
  blockWavoip: boolean;
  configs: UserConfigs;
  tokenVersion: number;
}

const authUserColumns = {
  id: users.id,
  tenantId: users.tenantId,
  name: users.name,
  email: users.email,
  profile: users.profile,
  passwordHash: users.passwordHash,
  blockWavoip: users.blockWavoip,
  configs: users.configs,
  tokenVersion: users.tokenVersion,
};

// ---------- users ----------

/** Any tenant's user by e-mail (login and reset lookups run under withSystem). E-mails are stored unique, lowercase. */
export async function findUserByEmail(tx: Queryable, email: string): Promise<AuthUser | undefined> {
  const [row] = await tx
    .select(authUserColumns)
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

export async function findUserById(tx: Queryable, tenantId: TenantId, id: number): Promise<AuthUser | undefined> {
  const [row] = await tx
    .select(authUserColumns)
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return row;
}

export async function touchLastLogin(tx: Queryable, tenantId: TenantId, userId: number): Promise<void> {
  await tx
    .update(users)
    .set({ lastLoginAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

/** Sets a new password hash and bumps token_version, which ends every session issued before. */
export async function replacePassword(
  tx: Queryable,
  tenantId: TenantId,
  userId: number,
  passwordHash: string,
): Promise<void> {
  await tx
    .update(users)
    .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: sql`now()` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

export interface NewAuthUser {
  tenantId: number;
  name: string;
  email: string;
  profile: Profile;
  passwordHash: string;
}

/** A user and its membership link to its home tenant (sign-up). */
export async function insertUserWithLink(tx: Queryable, values: NewAuthUser): Promise<AuthUser> {
  const [row] = await tx
    .insert(users)
    .values({ ...values, lastLoginAt: sql`now()` })
    .returning(authUserColumns);
  await tx.insert(userTenants).values({ tenantId: values.tenantId, userId: row!.id });
  return row!;
}

// ---------- refresh tokens ----------

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

/** Inserts a refresh token; its row id goes into the access tokens issued with it (claim `rid`). */
export async function insertRefreshToken(
  tx: Queryable,
  values: Pick<RefreshTokenRow, 'tenantId' | 'userId' | 'tokenHash' | 'familyId' | 'tokenVersion' | 'expiresAt'>,
): Promise<number> {
  const [row] = await tx.insert(refreshTokens).values(values).returning({ id: refreshTokens.id });
  return row!.id;
}

export async function findRefreshToken(
  tx: Queryable,
  tenantId: TenantId,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tenantId, tenantId), eq(refreshTokens.tokenHash, tokenHash)));
  return row;
}

/** Revokes one token if still live; false when another request revoked it first. */
export async function revokeRefreshToken(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const rows = await tx
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.tenantId, tenantId), eq(refreshTokens.id, id), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length > 0;
}

export async function revokeRefreshFamily(tx: Queryable, tenantId: TenantId, familyId: string): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(eq(refreshTokens.tenantId, tenantId), eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)),
    );
}

/** A refresh token by its row id (a bearer refresh names it in its `rid` claim). */
export async function findRefreshTokenById(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(refreshTokens)
    .where(and(eq(refreshTokens.tenantId, tenantId), eq(refreshTokens.id, id)));
  return row;
}

export async function familyHasLiveToken(tx: Queryable, tenantId: TenantId, familyId: string): Promise<boolean> {
  return (await findLiveFamilyToken(tx, tenantId, familyId)) !== undefined;
}

/** The family's live (unrevoked, unexpired) refresh token, newest first: the one the session's bearer belongs to. */
export async function findLiveFamilyToken(
  tx: Queryable,
  tenantId: TenantId,
  familyId: string,
): Promise<RefreshTokenRow | undefined> {
  const [row] = await tx
    .select()
    .from(refreshTokens)
    .where(
      and(
        eq(refreshTokens.tenantId, tenantId),
        eq(refreshTokens.familyId, familyId),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(refreshTokens.id))
    .limit(1);
  return row;
}

export async function revokeUserRefreshTokens(tx: Queryable, tenantId: TenantId, userId: number): Promise<void> {
  await tx
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(
      and(eq(refreshTokens.tenantId, tenantId), eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)),
    );
}

// ---------- password-reset tokens ----------

export async function insertPasswordResetToken(
  tx: Queryable,
  values: { tenantId: number; userId: number; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await tx.insert(passwordResetTokens).values(values);
}

const usableResetToken = (tenantId: TenantId, tokenHash: string) =>
  and(
    eq(passwordResetTokens.tenantId, tenantId),
    eq(passwordResetTokens.tokenHash, tokenHash),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, sql`now()`),
  );

/** The user a still usable (unused, unexpired) reset token belongs to. */
export async function findUsableResetToken(
  tx: Queryable,
  tenantId: TenantId,
  tokenHash: string,
): Promise<{ userId: number } | undefined> {
  const [row] = await tx
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(usableResetToken(tenantId, tokenHash));
  return row;
}

/** Marks a usable token used, atomically: only one request can consume it. */
export async function consumeResetToken(
  tx: Queryable,
  tenantId: TenantId,
  tokenHash: string,
): Promise<{ userId: number } | undefined> {
  const [row] = await tx
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(usableResetToken(tenantId, tokenHash))
    .returning({ userId: passwordResetTokens.userId });
  return row;
}

/** After a reset, the user's other outstanding links stop working too. */
export async function consumeUserResetTokens(tx: Queryable, tenantId: TenantId, userId: number): Promise<void> {
  await tx
    .update(passwordResetTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(passwordResetTokens.tenantId, tenantId),
        eq(passwordResetTokens.userId, userId),
        isNull(passwordResetTokens.usedAt),
      ),
    );
}

// ---------- captcha ----------

/** Burns a captcha nonce; false when it was already used. */
export async function consumeCaptchaNonce(tx: Queryable, nonce: string, expiresAt: Date): Promise<boolean> {
  const rows = await tx
    .insert(captchaUses)
    .values({ nonce, expiresAt })
    .onConflictDoNothing()
    .returning({ nonce: captchaUses.nonce });
  return rows.length > 0;
}

// ---------- cleanup (withSystem 'jobs.cleanup') ----------

export interface CleanupCounts {
  refreshTokens: number;
  resetTokens: number;
  captchaUses: number;
}

export async function deleteStaleAuthRows(tx: Queryable): Promise<CleanupCounts> {
  const dayAgo = sql`now() - interval '1 day'`;
  const refresh = await tx
    .delete(refreshTokens)
    .where(or(lt(refreshTokens.expiresAt, dayAgo), lt(refreshTokens.revokedAt, dayAgo)))
    .returning({ id: refreshTokens.id });
  const reset = await tx
    .delete(passwordResetTokens)
    .where(or(lte(passwordResetTokens.expiresAt, sql`now()`), sql`${passwordResetTokens.usedAt} is not null`))
    .returning({ id: passwordResetTokens.id });
  const captcha = await tx
    .delete(captchaUses)
    .where(lte(captchaUses.expiresAt, sql`now()`))
    .returning({ nonce: captchaUses.nonce });
  return { refreshTokens: refresh.length, resetTokens: reset.length, captchaUses: captcha.length };
}
