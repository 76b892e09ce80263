/**
 * The shapes shared by the route-walking isolation suite (`reliability/isolation.test.ts`) and the per-feature case
 * files beside it (`reliability/isolation/<feature>.cases.ts`). A feature file seeds tenant-1 rows of its own (named
 * with MARK, so a list answer leaking them is seen) and returns the cases of its routes.
 */
import type { HttpMethod, TestApp, TestUser } from '../../src/test/harness.js';

export const MARK = 'Vitima';

export type IsolationRequest = [HttpMethod, string, object?];
export type IsolationCase =
  /** Tenant-1 resources named by id: 404, nothing changes. */
  | { owned: IsolationRequest[] }
  /** Lists and reads of the caller's own tenant: 2xx and nothing of tenant 1 in the answer. */
  | { list: IsolationRequest[] }
  /** Writes and bulk actions on the caller's own tenant: anything but a 5xx, and tenant 1 unchanged. */
  | { own: IsolationRequest[] }
  /** Superadmin-only (cross-tenant by design): an admin of another tenant gets 403. */
  | { refused: IsolationRequest[] }
  | { exempt: string };

/** What the suite has made before the feature files seed: tenant 1's owner (admin) and rows, tenant 2's admin. */
export interface IsolationEnv {
  t: TestApp;
  /** An admin of tenant 1. */
  owner: TestUser;
  /** An admin of tenant 2, who makes every call. */
  intruder: TestUser;
  /** Tenant-1 ids seeded by the suite. */
  ids: Readonly<{ contact: number; channel: number; queue: number; ticket: number; message: number; user: number }>;
  /** A contact of tenant 2. */
  ownContactId: number;
}

export interface IsolationFeature {
  /** Makes the feature's tenant-1 rows (through the API as `owner`, or SQL) and keeps their ids. */
  seed(env: IsolationEnv): Promise<void>;
  /** `'<METHOD> /api/<route pattern>'` -> case, for every route the feature adds. */
  cases(env: IsolationEnv): Record<string, IsolationCase>;
}
