/** The queries on tags (the table belongs to the contacts module, which also holds the contact-tag pairs). */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { contactTags, tags } from '../contacts/contacts.tables.js';

export type TagRow = typeof tags.$inferSelect;
export interface TagValues {
  tag: string;
  color?: string | undefined;
  isActive?: boolean | undefined;
}

export async function listTags(tx: Queryable, tenantId: TenantId, isActive: boolean | null): Promise<TagRow[]> {
  return tx
    .select()
    .from(tags)
    .where(and(eq(tags.tenantId, tenantId), isActive === null ? undefined : eq(tags.isActive, isActive)))
    .orderBy(asc(tags.tag), asc(tags.id));
}

export async function insertTag(tx: Queryable, tenantId: TenantId, values: TagValues): Promise<TagRow> {
  const [row] = await tx
    .insert(tags)
    .values({
      tenantId,
      tag: values.tag,
      isActive: values.isActive ?? true,
      ...(values.color === undefined ? {} : { color: values.color.toLowerCase() }),
    })
    .returning();
  return row!;
}

export async function updateTag(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  values: TagValues,
): Promise<TagRow | undefined> {
  const [row] = await tx
    .update(tags)
    .set({
      tag: values.tag,
      ...(values.color === undefined ? {} : { color: values.color.toLowerCase() }),
      ...(values.isActive === undefined ? {} : { isActive: values.isActive }),
    })
    .where(and(eq(tags.tenantId, tenantId), eq(tags.id, id)))
    .returning();
  return row;
}

/** Locks the tag, so no contact takes it between the check and the delete. */
export async function lockTag(tx: Queryable, tenantId: TenantId, id: number): Promise<TagRow | undefined> {
  const [row] = await tx
    .select()
    .from(tags)
    .where(and(eq(tags.tenantId, tenantId), eq(tags.id, id)))
    .for('update');
  return row;
}

export async function tagHasContacts(tx: Queryable, tenantId: TenantId, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ used: sql<number>`1` })
    .from(contactTags)
    .where(and(eq(contactTags.tenantId, tenantId), eq(contactTags.tagId, id)))
    .limit(1);
  return row !== undefined;
}

export async function deleteTag(tx: Queryable, tenantId: TenantId, id: number): Promise<void> {
  await tx.delete(tags).where(and(eq(tags.tenantId, tenantId), eq(tags.id, id)));
}

/** True when the error is the per-tenant tag name uniqueness (`tags_tenant_tag_unique`). */
export function isDuplicateTagName(error: unknown): boolean {
  return [error, (error as { cause?: unknown } | null)?.cause].some((e) => {
    const pgError = e as { code?: string; constraint?: string } | null;
    return pgError?.code === '23505';
  });
}
