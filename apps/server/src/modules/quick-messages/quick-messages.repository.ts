/** The queries on quick messages. */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { quickMessages } from './quick-messages.tables.js';

export type QuickMessageRow = typeof quickMessages.$inferSelect;

export interface QuickMessageFile {
  media: string;
  mediaKey: string;
  mediaType: string;
  mediaBytes: number;
}

export interface QuickMessageValues {
  key: string;
  message: string;
  voice: 'enabled' | 'disabled';
  isActive: boolean;
  /** undefined keeps the current file, null removes it. */
  file?: QuickMessageFile | null;
}

const fileColumns = (file: QuickMessageFile | null) => ({
  media: file?.media ?? null,
  mediaKey: file?.mediaKey ?? null,
  mediaType: file?.mediaType ?? null,
  mediaBytes: file?.mediaBytes ?? null,
});

export async function listQuickMessages(tx: Queryable, tenantId: TenantId): Promise<QuickMessageRow[]> {
  return tx
    .select()
    .from(quickMessages)
    .where(eq(quickMessages.tenantId, tenantId))
    .orderBy(asc(sql`lower(${quickMessages.key})`), asc(quickMessages.id));
}

export async function findQuickMessage(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  options: { lock?: boolean } = {},
): Promise<QuickMessageRow | undefined> {
  const query = tx
    .select()
    .from(quickMessages)
    .where(and(eq(quickMessages.tenantId, tenantId), eq(quickMessages.id, id)));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

export async function findByMedia(tx: Queryable, tenantId: TenantId, media: string) {
  const [row] = await tx
    .select()
    .from(quickMessages)
    .where(and(eq(quickMessages.tenantId, tenantId), eq(quickMessages.media, media)));
  return row;
}

export async function insertQuickMessage(
  tx: Queryable,
  tenantId: TenantId,
  userId: number | null,
  values: QuickMessageValues,
): Promise<QuickMessageRow> {
  const [row] = await tx
    .insert(quickMessages)
    .values({
      tenantId,
      userId,
      key: values.key,
      message: values.message,
      voice: values.voice,
      isActive: values.isActive,
      ...fileColumns(values.file ?? null),
    })
    .returning();
  return row!;
}

export async function updateQuickMessage(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  values: QuickMessageValues,
): Promise<QuickMessageRow | undefined> {
  const [row] = await tx
    .update(quickMessages)
    .set({
      key: values.key,
      message: values.message,
      voice: values.voice,
      isActive: values.isActive,
      ...(values.file === undefined ? {} : fileColumns(values.file)),
      updatedAt: sql`now()`,
    })
    .where(and(eq(quickMessages.tenantId, tenantId), eq(quickMessages.id, id)))
    .returning();
  return row;
}

export async function deleteQuickMessage(tx: Queryable, tenantId: TenantId, id: number): Promise<void> {
  await tx.delete(quickMessages).where(and(eq(quickMessages.tenantId, tenantId), eq(quickMessages.id, id)));
}

/** True when the error is the per-tenant key uniqueness (case-insensitive index). */
export function isDuplicateKey(error: unknown): boolean {
  return [error, (error as { cause?: unknown } | null)?.cause].some(
    (e) => (e as { code?: string } | null)?.code === '23505',
  );
}
