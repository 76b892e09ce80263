/** Existence checks of what a ticket points at (contact, queue, user), in the caller's tenant. */
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { contacts } from '../contacts/contacts.tables.js';
import { queues } from '../queues/queues.tables.js';
import { users } from '../users/users.tables.js';

export async function findContactRef(tx: Queryable, tenantId: TenantId, id: number) {
  const [row] = await tx
    .select({ id: contacts.id, isGroup: contacts.isGroup })
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.id, id)));
  return row;
}

export async function queueExists(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: queues.id })
    .from(queues)
    .where(and(eq(queues.tenantId, tenantId), eq(queues.id, id)));
  return !!row;
}

export async function userExists(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, id)));
  return !!row;
}
