/** Queries on pending sign-ups (`signup_requests`, not tenant-owned: the 'auth.signup' system path) and the new tenant's due date. */
import { and, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { tenants } from '../tenants/tenants.tables.js';
import { signupRequests } from './auth.tables.js';

/** The validated form as stored until confirmation (the password already hashed). */
export interface SignupPayload {
  name: string;
  userName: string;
  cpfCnpj: string;
  mobilePhone: string;
  passwordHash: string;
  planId: number;
}

export async function insertSignupRequest(
  tx: Queryable,
  values: { email: string; tokenHash: string; payload: SignupPayload; expiresAt: Date },
): Promise<void> {
  await tx.insert(signupRequests).values(values);
}

/** Marks a pending, unexpired request consumed, atomically: one confirmation per link. */
export async function consumeSignupRequest(
  tx: Queryable,
  tokenHash: string,
): Promise<{ email: string; payload: SignupPayload } | undefined> {
  const [row] = await tx
    .update(signupRequests)
    .set({ consumedAt: sql`now()` })
    .where(
      and(
        eq(signupRequests.tokenHash, tokenHash),
        isNull(signupRequests.consumedAt),
        gt(signupRequests.expiresAt, sql`now()`),
      ),
    )
    .returning({ email: signupRequests.email, payload: signupRequests.payload });
  return row ? { email: row.email, payload: row.payload as SignupPayload } : undefined;
}

export async function findPendingSignup(tx: Queryable, tokenHash: string): Promise<{ email: string } | undefined> {
  const [row] = await tx
    .select({ email: signupRequests.email })
    .from(signupRequests)
    .where(
      and(
        eq(signupRequests.tokenHash, tokenHash),
        isNull(signupRequests.consumedAt),
        gt(signupRequests.expiresAt, sql`now()`),
      ),
    );
  return row;
}

export async function setTenantDueDate(tx: Queryable, tenantId: number, dueDate: Date): Promise<void> {
  await tx.update(tenants).set({ dueDate }).where(eq(tenants.id, tenantId));
}

/** The daily cleanup: expired or confirmed requests (withSystem 'jobs.cleanup'). */
export async function deleteStaleSignupRequests(tx: Queryable): Promise<number> {
  const rows = await tx
    .delete(signupRequests)
    .where(or(lte(signupRequests.expiresAt, sql`now()`), sql`${signupRequests.consumedAt} is not null`))
    .returning({ id: signupRequests.id });
  return rows.length;
}
