/** The queries on contacts and their tag and wallet sets. Tenant-scoped functions take the branded TenantId. */
import { and, asc, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { pagedList, type Page } from '../../platform/db/paging.js';
import { users } from '../users/users.tables.js';
import {
  CONTACT_SEARCH_KEYS,
  contactSearch,
  contactsMatching,
  searches,
  type ContactSearchKey,
  type ContactSearchShape,
} from './contacts.search.js';
import { contacts, contactTags, contactWallets, tags } from './contacts.tables.js';

export type ContactRow = typeof contacts.$inferSelect;
export type ContactValues = Omit<typeof contacts.$inferInsert, 'id' | 'tenantId' | 'createdAt' | 'updatedAt'>;
export interface TagRef {
  id: number;
  tag: string;
  color: string;
}
export interface WalletRef {
  id: number;
  name: string;
}

export interface ContactFilter {
  search: string;
  walletId?: number | undefined;
  tagId?: number | undefined;
  limit: number;
  offset: number;
}

type ListKey = ContactSearchKey | 'walletId' | 'tagId';
const LIST_KEYS: readonly ListKey[] = [...CONTACT_SEARCH_KEYS, 'walletId', 'tagId'];

/** What decides the text of a contacts list query: the search's shape and which filters apply. */
interface ListShape {
  search: ContactSearchShape;
  wallet: boolean;
  tag: boolean;
}

/** Name (accent- and case-folded), e-mail, and the number's digits for a number-like term (contacts.search.ts). */
function listWhere(p: Record<ListKey, Placeholder>, shape: ListShape): SQL | undefined {
  return and(
    eq(contacts.tenantId, p.tenantId),
    // As an id array read once (an uncorrelated InitPlan), the matches are fetched by primary key whatever the
    // planner thinks their number is; as `in (...)` a good estimate of "silva" (2,002) made it hash-join a
    // sequential scan of every tenant's contacts, twice (77 -> 37 requests/s).
    searches(shape.search) ? sql`${contacts}.id = any(array(${contactsMatching(p, shape.search)}))` : undefined,
    shape.wallet
      ? sql`exists (select 1 from ${contactWallets} where ${contactWallets.contactId} = ${contacts}.id and ${contactWallets.userId} = ${p.walletId})`
      : undefined,
    shape.tag
      ? sql`exists (select 1 from ${contactTags} where ${contactTags.contactId} = ${contacts}.id and ${contactTags.tagId} = ${p.tagId})`
      : undefined,
  );
}

/**
 * A contact's tags and wallets as JSON columns of a select that reads the `contacts` table unaliased (correlated
 * subqueries on their indexes): the sets cost no round trip of their own. The outer reference is written out in full
 * because drizzle leaves columns unqualified in a one-table select.
 */
export function contactSetColumns(): { tags: SQL<TagRef[]>; wallets: SQL<WalletRef[]> } {
  const contactId = sql`${contacts}.id`;
  return {
    tags: sql<
      TagRef[]
    >`coalesce((select json_agg(json_build_object('id', t.id, 'tag', t.tag, 'color', t.color) order by t.tag, t.id)
      from ${contactTags} ct join ${tags} t on t.id = ct.tag_id where ct.contact_id = ${contactId}), '[]'::json)`,
    wallets: sql<
      WalletRef[]
    >`coalesce((select json_agg(json_build_object('id', u.id, 'name', u.name) order by u.name, u.id)
      from ${contactWallets} cw join ${users} u on u.id = cw.user_id where cw.contact_id = ${contactId}), '[]'::json)`,
  };
}

export interface ContactWithSets {
  contact: ContactRow;
  tags: TagRef[];
  wallets: WalletRef[];
}

/** Pages of contacts by name with their sets, each with the bounded count of all matches. */
const listPages = pagedList({
  label: 'contacts',
  keys: LIST_KEYS,
  table: contacts,
  where: listWhere,
  page: (from, total, where, p) =>
    from
      .select({ contact: contacts, ...contactSetColumns(), total })
      .from(contacts)
      .where(where)
      .orderBy(asc(contacts.name), asc(contacts.id))
      .limit(p.limit)
      .offset(p.offset),
  planEachRun: (shape) => searches(shape.search),
});

/** One page of contacts with their sets, and the bounded count, in one query. */
export async function listContacts(
  tx: Queryable,
  tenantId: TenantId,
  filter: ContactFilter,
): Promise<Page<ContactWithSets>> {
  const search = contactSearch(filter.search, ['name', 'email']);
  const shape: ListShape = {
    search: search.shape,
    wallet: filter.walletId !== undefined,
    tag: filter.tagId !== undefined,
  };
  const values: Record<ListKey, unknown> = {
    tenantId,
    ...search.values,
    walletId: filter.walletId ?? null,
    tagId: filter.tagId ?? null,
  };
  return listPages(tx, shape, values, filter.limit, filter.offset);
}

export async function findContact(tx: Queryable, tenantId: TenantId, id: number): Promise<ContactRow | undefined> {
  const [row] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.id, id)));
  return row;
}

/** The contacts with these ids, locked until the transaction ends. */
export async function lockContacts(tx: Queryable, tenantId: TenantId, ids: number[]): Promise<ContactRow[]> {
  return tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), inArray(contacts.id, ids)))
    .orderBy(asc(contacts.id))
    .for('update');
}

export async function insertContact(tx: Queryable, tenantId: TenantId, values: ContactValues): Promise<ContactRow> {
  const [row] = await tx
    .insert(contacts)
    .values({ ...values, tenantId })
    .returning();
  return row!;
}

export async function updateContact(
  tx: Queryable,
  tenantId: TenantId,
  id: number,
  patch: Partial<ContactValues>,
): Promise<ContactRow | undefined> {
  const [row] = await tx
    .update(contacts)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.id, id)))
    .returning();
  return row;
}

export async function deleteContacts(tx: Queryable, tenantId: TenantId, ids: number[]): Promise<number[]> {
  const rows = await tx
    .delete(contacts)
    .where(and(eq(contacts.tenantId, tenantId), inArray(contacts.id, ids)))
    .returning({ id: contacts.id });
  return rows.map((r) => r.id);
}

/** The given tag ids that are tags of the tenant. */
export async function findTenantTagIds(tx: Queryable, tenantId: TenantId, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.tenantId, tenantId), inArray(tags.id, ids)));
  return rows.map((r) => r.id);
}

/**
 * Whether the kanban lane is the tenant's. Lanes are read by table name: the kanban module imports contacts (its
 * boards), so contacts cannot import it.
 */
export async function tenantLaneExists(tx: Queryable, tenantId: TenantId, laneId: number): Promise<boolean> {
  const result = (await tx.execute(
    sql`select exists (select 1 from kanban_lanes where tenant_id = ${tenantId} and id = ${laneId}) as found`,
  )) as unknown as { rows: { found: boolean }[] };
  return result.rows[0]?.found === true;
}

/** The given user ids that are users of the tenant. */
export async function findTenantUserIds(tx: Queryable, tenantId: TenantId, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), inArray(users.id, ids)));
  return rows.map((r) => r.id);
}

export async function replaceContactTags(tx: Queryable, tenantId: TenantId, contactId: number, tagIds: number[]) {
  await tx.delete(contactTags).where(and(eq(contactTags.tenantId, tenantId), eq(contactTags.contactId, contactId)));
  await addContactTags(tx, tenantId, [contactId], tagIds);
}

export async function replaceContactWallets(tx: Queryable, tenantId: TenantId, contactId: number, userIds: number[]) {
  await tx
    .delete(contactWallets)
    .where(and(eq(contactWallets.tenantId, tenantId), eq(contactWallets.contactId, contactId)));
  await addContactWallets(tx, tenantId, [contactId], userIds);
}

/** Adds every tag to every contact; tags no longer in the tenant are skipped, existing pairs kept. */
export async function addContactTags(tx: Queryable, tenantId: TenantId, contactIds: number[], tagIds: number[]) {
  if (contactIds.length === 0 || tagIds.length === 0) return;
  await tx.execute(sql`
    insert into ${contactTags} (tenant_id, contact_id, tag_id)
    select ${tenantId}, c.id, t.id from ${contacts} c cross join ${tags} t
    where c.tenant_id = ${tenantId} and t.tenant_id = ${tenantId}
      and c.id in ${contactIds} and t.id in ${tagIds}
    on conflict do nothing`);
}

/** Adds every user to every contact's wallet; users no longer in the tenant are skipped, existing pairs kept. */
export async function addContactWallets(tx: Queryable, tenantId: TenantId, contactIds: number[], userIds: number[]) {
  if (contactIds.length === 0 || userIds.length === 0) return;
  await tx.execute(sql`
    insert into ${contactWallets} (tenant_id, contact_id, user_id)
    select ${tenantId}, c.id, u.id from ${contacts} c cross join ${users} u
    where c.tenant_id = ${tenantId} and u.tenant_id = ${tenantId}
      and c.id in ${contactIds} and u.id in ${userIds}
    on conflict do nothing`);
}

/** The tags and wallets of the given contacts, by contact id (one query). */
export async function loadContactSets(
  tx: Queryable,
  contactIds: number[],
): Promise<{ tags: Map<number, TagRef[]>; wallets: Map<number, WalletRef[]> }> {
  const tagMap = new Map<number, TagRef[]>();
  const walletMap = new Map<number, WalletRef[]>();
  if (contactIds.length === 0) return { tags: tagMap, wallets: walletMap };
  const rows = await tx
    .select({ id: contacts.id, ...contactSetColumns() })
    .from(contacts)
    .where(inArray(contacts.id, contactIds));
  for (const row of rows) {
    tagMap.set(row.id, row.tags);
    walletMap.set(row.id, row.wallets);
  }
  return { tags: tagMap, wallets: walletMap };
}

const UNIQUE_FIELDS: Record<string, string> = {
  contacts_tenant_number_unique: 'number',
  contacts_tenant_telegram_unique: 'telegramId',
  contacts_tenant_messenger_unique: 'messengerId',
  contacts_tenant_instagram_unique: 'instagramPK',
};

/** The input field behind a violated contact uniqueness, or undefined for any other error. */
export function duplicateContactField(error: unknown): string | undefined {
  for (const candidate of [error, (error as { cause?: unknown } | null)?.cause]) {
    const pgError = candidate as { code?: string; constraint?: string; message?: string } | null;
    if (pgError?.code !== '23505') continue;
    const name = pgError.constraint ?? Object.keys(UNIQUE_FIELDS).find((key) => pgError.message?.includes(key));
    if (name && name in UNIQUE_FIELDS) return UNIQUE_FIELDS[name];
  }
  return undefined;
}
