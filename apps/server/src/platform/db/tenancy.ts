/**
 * Tenancy: request work runs in `withTenant`, a transaction with `app.tenant_id` set and the non-owner role
 * `conversa_app`, so row-level security filters every tenant-owned table. `withSystem` is the explicit escape for the
 * named system paths listed in ARCHITECTURE.md.
 */
import type { Profile } from '@conversa/shared';
import { asideTransaction, besideStatement, transactionWith, type Database, type Tx } from './client.js';

export const APP_ROLE = 'conversa_app';

declare const tenantBrand: unique symbol;
export type TenantId = number & { readonly [tenantBrand]: true };
export const asTenantId = (id: number): TenantId => id as TenantId;

/** Who is acting, and for which tenant: the first argument of every service operation. */
export interface TenantContext {
  tenantId: TenantId;
  userId: number | null;
  profile: Profile | null;
}

export const systemContext = (tenantId: number): TenantContext => ({
  tenantId: asTenantId(tenantId),
  userId: null,
  profile: null,
});

function tenantPrelude(ctx: TenantContext): string {
  // The prelude is text: the tenant id must be an integer (it is a branded number, but it came from a token).
  if (!Number.isSafeInteger(ctx.tenantId)) throw new Error(`invalid tenant id ${String(ctx.tenantId)}`);
  return `select set_config('app.tenant_id', '${ctx.tenantId}', true), set_config('role', '${APP_ROLE}', true)`;
}

export interface TenantTransactionOptions {
  /**
   * Run the transaction's named statements on their generic plans, never re-planned with the values. For a statement
   * whose generic plan runs as fast as a custom one but is costed higher (a policy that folds away for an admin only
   * in a custom plan), PostgreSQL would otherwise plan it at every call. Unnamed statements get generic plans too:
   * leave this off for transactions that run statements planned per run (substring searches).
   */
  genericPlans?: boolean;
}

export async function withTenant<T>(
  db: Database,
  ctx: TenantContext,
  fn: (tx: Tx) => Promise<T>,
  options: TenantTransactionOptions = {},
): Promise<T> {
  const generic = options.genericPlans ? `, set_config('plan_cache_mode', 'force_generic_plan', true)` : '';
  return transactionWith(db, tenantPrelude(ctx) + generic, fn);
}

/** One parameter-free statement under the tenant, committed beside the open `tx` in one round trip (client.ts besideStatement). */
export async function withTenantBesideStatement<T>(tx: Tx, ctx: TenantContext, text: string): Promise<T[]> {
  return besideStatement<T>(tx, tenantPrelude(ctx), text);
}

/** As withTenant, on the side pool: a short read after a commit that must not queue behind requests (client.ts asideTransaction). */
export async function withTenantAside<T>(db: Database, ctx: TenantContext, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return asideTransaction(db, tenantPrelude(ctx), fn);
}

/** The system paths that may read across tenants. Adding one means adding it to ARCHITECTURE.md too. */
export type SystemPath =
  | 'auth.login-lookup'
  | 'auth.password-reset-lookup'
  | 'auth.signup'
  | 'bootstrap.seed'
  | 'tenants.superadmin'
  | 'users.superadmin'
  | 'jobs.cleanup'
  | 'channels.webhook-lookup'
  | 'channels.superadmin'
  | 'channels.sessions'
  | 'channels.gateway-sharing'
  | 'schedules.due-sweep'
  | 'campaigns.sweep'
  | 'tickets.auto-close';

export async function withSystem<T>(db: Database, path: SystemPath, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (!/^[a-z.-]+$/.test(path)) throw new Error(`invalid system path ${path}`);
  return transactionWith(db, `select set_config('app.system', '${path}', true)`, fn);
}
