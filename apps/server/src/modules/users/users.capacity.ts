/** Creating a user, or moving one in, must respect the tenant's maxUsers; the tenant row lock serialises the count. */
import type { Queryable } from '../../platform/db/client.js';
import { fail } from '../../platform/http/errors.js';
import { countTenantUsers, insertUser, lockTenant, type NewUser, type UserRow } from './users.repository.js';

export async function assertTenantHasRoom(tx: Queryable, tenantId: number): Promise<{ id: number; name: string }> {
  const tenant = await lockTenant(tx, tenantId);
  if (!tenant) throw fail('ERR_NO_TENANT_FOUND');
  if ((await countTenantUsers(tx, tenantId)) >= tenant.maxUsers) throw fail('ERR_USER_LIMIT_USER_CREATION');
  return tenant;
}

export async function insertUserWithinLimit(tx: Queryable, values: NewUser): Promise<UserRow> {
  await assertTenantHasRoom(tx, values.tenantId);
  const row = await insertUser(tx, values);
  if (!row) throw fail('ERR_EMAIL_ALREADY_EXISTS', 'email');
  return row;
}
