/**
 * The boards' reads: a lane's or a tag's column one keyset page at a time (a lane of 10,000 contacts pages from the
 * index `contacts_tenant_kanban_name_idx` by (name, id), a tag's from `contact_tags_tenant_tag_idx` by contact id),
 * and the contract's offset pages (`/contactsKanban`, `/contactsTags`). Built once per shape as statements.
 */
import { and, asc, eq, isNull, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { KanbanCard, TagBoardCard } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import { statementFamily } from '../../platform/db/statements.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import {
  CONTACT_SEARCH_KEYS,
  contactSearch,
  contactSetColumns,
  contactsMatching,
  searches,
  type ContactSearchKey,
  type ContactSearchShape,
} from '../contacts/index.js';
import { contacts, contactTags, tags } from '../contacts/contacts.tables.js';

const cardColumns = {
  id: contacts.id,
  name: contacts.name,
  pushname: contacts.pushname,
  number: contacts.number,
  profilePicUrl: contacts.profilePicUrl,
  isGroup: contacts.isGroup,
  kanban: contacts.kanban,
};

type SearchKeys = Record<ContactSearchKey, Placeholder>;
const matching = (p: SearchKeys, search: ContactSearchShape): SQL | undefined =>
  searches(search) ? sql`${contacts.id} = any(array(${contactsMatching(p, search)}))` : undefined;

/** Where a lane page starts: after the last card of the page before. */
export interface LaneCursor {
  name: string;
  id: number;
}

type LaneKey = ContactSearchKey | 'laneId' | 'afterName' | 'afterId' | 'limit';
interface LaneShape {
  /** A lane, or the contacts in none. */
  none: boolean;
  after: boolean;
  search: ContactSearchShape;
}

const lanePages = statementFamily<LaneShape, LaneKey, KanbanCard[]>(
  'kanban.lane-page',
  [...CONTACT_SEARCH_KEYS, 'laneId', 'afterName', 'afterId', 'limit'],
  (q, p, shape) =>
    q
      .select(cardColumns)
      .from(contacts)
      .where(
        and(
          eq(contacts.tenantId, p.tenantId),
          shape.none ? isNull(contacts.kanban) : eq(contacts.kanban, p.laneId),
          shape.after ? sql`(${contacts.name}, ${contacts.id}) > (${p.afterName}, ${p.afterId})` : undefined,
          matching(p, shape.search),
        ),
      )
      // The lane is one value (or null): ordering by it too lets the planner read the page straight off the index.
      .orderBy(asc(contacts.kanban), asc(contacts.name), asc(contacts.id))
      .limit(p.limit),
  (shape) => searches(shape.search),
);

/** Up to `limit` cards of a lane (null: no lane) after `cursor`, by name. */
export function laneCards(
  tx: Queryable,
  tenantId: TenantId,
  column: { laneId: number | null; after: LaneCursor | null; search: string; limit: number },
): Promise<KanbanCard[]> {
  const search = contactSearch(column.search, ['name']);
  return lanePages(
    tx,
    { none: column.laneId === null, after: column.after !== null, search: search.shape },
    {
      tenantId,
      ...search.values,
      laneId: column.laneId,
      afterName: column.after?.name ?? null,
      afterId: column.after?.id ?? null,
      limit: column.limit,
    },
  );
}

type TagKey = ContactSearchKey | 'tagId' | 'afterId' | 'limit';
interface TagShape {
  after: boolean;
  search: ContactSearchShape;
}

const tagPages = statementFamily<TagShape, TagKey, KanbanCard[]>(
  'kanban.tag-page',
  [...CONTACT_SEARCH_KEYS, 'tagId', 'afterId', 'limit'],
  (q, p, shape) =>
    q
      .select(cardColumns)
      .from(contactTags)
      .innerJoin(contacts, eq(contacts.id, contactTags.contactId))
      .where(
        and(
          eq(contactTags.tenantId, p.tenantId),
          eq(contactTags.tagId, p.tagId),
          // On both sides of the join, so each index is read from the cursor on.
          shape.after ? sql`${contactTags.contactId} > ${p.afterId} and ${contacts.id} > ${p.afterId}` : undefined,
          matching(p, shape.search),
        ),
      )
      .orderBy(asc(contactTags.contactId))
      .limit(p.limit),
  (shape) => searches(shape.search),
);

/** Up to `limit` cards of the contacts holding a tag, after the contact id `afterId`, by contact id. */
export function tagCards(
  tx: Queryable,
  tenantId: TenantId,
  column: { tagId: number; afterId: number | null; search: string; limit: number },
): Promise<KanbanCard[]> {
  const search = contactSearch(column.search, ['name']);
  return tagPages(
    tx,
    { after: column.afterId !== null, search: search.shape },
    { tenantId, ...search.values, tagId: column.tagId, afterId: column.afterId, limit: column.limit },
  );
}

type BoardKey = ContactSearchKey | 'limit' | 'offset';
interface BoardShape {
  withTags: boolean;
  search: ContactSearchShape;
}

const boardPages = statementFamily<BoardShape, BoardKey, TagBoardCard[]>(
  'kanban.board-page',
  [...CONTACT_SEARCH_KEYS, 'limit', 'offset'],
  (q, p, shape) =>
    q
      .select({ ...cardColumns, tags: shape.withTags ? contactSetColumns().tags : sql<[]>`'[]'::json` })
      .from(contacts)
      .where(and(eq(contacts.tenantId, p.tenantId), matching(p, shape.search)))
      .orderBy(asc(contacts.name), asc(contacts.id))
      .limit(p.limit)
      .offset(p.offset),
  (shape) => searches(shape.search),
);

/** The contract's board page (`/contactsKanban`, `/contactsTags` with the tags): offset pages by name. */
export function boardCards(
  tx: Queryable,
  tenantId: TenantId,
  page: { search: string; limit: number; offset: number; withTags: boolean },
): Promise<TagBoardCard[]> {
  const search = contactSearch(page.search, ['name']);
  return boardPages(
    tx,
    { withTags: page.withTags, search: search.shape },
    { tenantId, ...search.values, limit: page.limit, offset: page.offset },
  );
}

/** Whether the tag is the tenant's. */
export async function tagExists(tx: Queryable, tenantId: TenantId, tagId: number): Promise<boolean> {
  const rows = await tx
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.tenantId, tenantId), eq(tags.id, tagId)));
  return rows.length === 1;
}

/** The contact, locked until the transaction ends; undefined when it is not the tenant's. */
export async function lockContact(tx: Queryable, tenantId: TenantId, id: number) {
  const [row] = await tx
    .select()
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.id, id)))
    .for('update');
  return row;
}

/** The contact loses the tag `from` and holds `to` (kept when it already did). */
export async function swapContactTag(
  tx: Queryable,
  tenantId: TenantId,
  move: { contactId: number; from: number; to: number },
): Promise<void> {
  await tx
    .delete(contactTags)
    .where(
      and(
        eq(contactTags.tenantId, tenantId),
        eq(contactTags.contactId, move.contactId),
        eq(contactTags.tagId, move.from),
      ),
    );
  await tx.insert(contactTags).values({ tenantId, contactId: move.contactId, tagId: move.to }).onConflictDoNothing();
}
