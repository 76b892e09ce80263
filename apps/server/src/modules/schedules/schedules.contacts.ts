/** The contact a schedule is for (the transaction's tenant: RLS answers nothing for another tenant's id). */
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import { contacts } from '../contacts/contacts.tables.js';

export async function findContact(tx: Queryable, id: number): Promise<{ id: number; isGroup: boolean } | null> {
  const [row] = await tx
    .select({ id: contacts.id, isGroup: contacts.isGroup })
    .from(contacts)
    .where(eq(contacts.id, id));
  return row ?? null;
}
