/** The queries on tickets and their logs. Tenant-scoped functions take the branded TenantId (RLS filters too). */
import { and, desc, eq, sql, type Placeholder, type SQL, type WithSubquery } from 'drizzle-orm';
import { TICKET_STATUSES, type TicketDto, type TicketStatus } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { boundedCountColumn, pagedList } from '../../platform/db/paging.js';
import { idIn, idList, statementFamily } from '../../platform/db/statements.js';
import {
  CONTACT_SEARCH_KEYS,
  contactSearch,
  contactsMatching,
  searches,
  type ContactSearchKey,
  type ContactSearchShape,
} from '../contacts/index.js';
import { contacts } from '../contacts/contacts.tables.js';
import {
  literalViewer,
  storedVisibilitySettings,
  TICKET_COLUMNS,
  ticketVisibility,
  type VisibilityOptions,
  type VisibilitySettings,
} from './tickets.policy.js';
import { tickets } from './tickets.tables.js';
import { loadTicketDtos, selectJoined, ticketDtoOf } from './tickets.dto.js';
import type { NewTicket, TicketPatch, TicketRow } from './tickets.types.js';

export type { NewTicket, TicketPatch, TicketRow } from './tickets.types.js';
export { insertLog, listLogs } from './tickets.logs.js';
export { findContactRef, queueExists, userExists } from './tickets.lookups.js';

export interface ListFilter {
  statuses: TicketStatus[];
  search: string;
  queueIds: number[];
  channelIds: number[];
  userIds: number[];
  withUnread: boolean;
  isGroup: boolean | undefined;
  limit: number;
  offset: number;
}

export type ListKey = ContactSearchKey | 'userId' | 'profile' | 'queueIds' | 'channelIds' | 'userIds' | 'isGroup';

/** What decides the text of a list query: which filters apply and the viewer's own choices (values are parameters). */
export interface ListShape {
  statuses: TicketStatus[];
  search: ContactSearchShape;
  queues: boolean;
  channels: boolean;
  users: boolean;
  withUnread: boolean;
  isGroup: boolean;
  options: VisibilityOptions;
  /** Policy inputs known before the query (tickets.rules.ts `knownVisibility`); the others are read by it. */
  known?: Partial<VisibilitySettings>;
}

/**
 * The contacts a search term matches by folded name or, for a number-like term, by number (contacts.search.ts, an
 * index range of their search keys): a CTE that the page and its count both read. The tickets are then found from
 * these contacts, not by probing every active ticket of the tenant.
 */
function matchedContacts(q: Queryable, p: Record<ListKey, Placeholder>, search: ContactSearchShape) {
  return q.$with('matched', { id: contacts.id }).as(contactsMatching(p, search));
}

/**
 * How a search finds the tickets of its matched contacts. `probe`: the matched ids as an array read once, each
 * contact's active tickets then found through their unique index whatever the planner estimates the matches to be
 * (contacts.repository.ts has the same guard); best when few contacts match. `scan`: the active tickets read in list
 * order, each kept when its contact is in the matched set (a hashed subplan: the `= true` keeps PostgreSQL from
 * turning it into a join, which would sort every match), so a page stops at its last row; best when many match.
 */
export type SearchMode = 'probe' | 'scan';

/**
 * Matched contacts up to which a search probes (searchPages). "silva" on the bench data matches 2,002 contacts with
 * 1,190 active tickets: probing them read 7,200 buffers for the first page (7.4 ms), the scan 2,600 index rows (2.6 ms).
 * A term that matches one contact would make the scan read every active ticket of the tenant (42,000 rows, 9 ms).
 */
const PROBE_CONTACTS_MAX = 500;

/**
 * The same for the count, which reads up to TICKET_COUNT_CAP matches either way: probing is cheaper per match (for
 * "silva" 2.9 against 3.7 ms), the scan bounded by the tenant's active tickets when very many contacts match.
 */
const COUNT_PROBE_CONTACTS_MAX = 5_000;

/**
 * Contact name or number (matchedContacts), or the protocol: protocols are digits and a dash, so only a number-like
 * term can match one; for a name the OR would make PostgreSQL read every active ticket to test it.
 */
export function matchesSearch(
  p: Record<ListKey, Placeholder>,
  search: ContactSearchShape,
  mode: SearchMode = 'probe',
): SQL | undefined {
  if (!searches(search)) return undefined;
  const byContact =
    mode === 'probe'
      ? sql`tickets.contact_id = any(array(select id from matched))`
      : sql`(tickets.contact_id in (select id from matched)) = true`;
  return search.fields.includes('number') ? sql`(${byContact} or tickets.protocol like ${p.term})` : byContact;
}

/** The query builder of a list statement: with the `matched` CTE when the list searches. */
export function listFrom(
  q: Queryable,
  p: Record<ListKey, Placeholder>,
  shape: ListShape,
  ...more: WithSubquery[]
): Pick<Queryable, 'select'> {
  const ctes = searches(shape.search) ? [matchedContacts(q, p, shape.search), ...more] : more;
  return ctes.length > 0 ? q.with(...ctes) : q;
}

/**
 * The statuses as literals, not parameters: only with literals can a generic plan prove the partial index of active
 * tickets (`status in ('open', 'pending')`) and read it in order; with parameters it sorted every active ticket of
 * the tenant (45 ms instead of 12 on the bench data).
 */
function statusIn(statuses: TicketStatus[]): SQL {
  const known = TICKET_STATUSES.filter((status) => statuses.includes(status));
  if (known.length === 0) return sql`false`;
  return sql.raw(`tickets.status in (${known.map((status) => `'${status}'`).join(', ')})`);
}

export function listWhere(
  p: Record<ListKey, Placeholder>,
  shape: ListShape,
  mode: SearchMode = 'probe',
): SQL | undefined {
  const settings = { ...storedVisibilitySettings(p.tenantId), ...shape.known };
  return and(
    eq(tickets.tenantId, p.tenantId),
    statusIn(shape.statuses),
    ticketVisibility(literalViewer(p.userId, p.profile), TICKET_COLUMNS, settings, shape.options),
    matchesSearch(p, shape.search, mode),
    shape.queues ? idIn(tickets.queueId, p.queueIds) : undefined,
    shape.channels ? idIn(tickets.channelId, p.channelIds) : undefined,
    shape.users ? idIn(tickets.userId, p.userIds) : undefined,
    shape.withUnread ? sql`tickets.unread_messages > 0` : undefined,
    shape.isGroup ? eq(tickets.isGroup, p.isGroup) : undefined,
  );
}

/**
 * The ticket list counts at most this many matches (`countCapped` beyond). Counting applies the visibility policy to
 * every active ticket of the tenant until the cap; at 10,000 an agent's count read ~25,000 rows per request (50 ms of
 * PostgreSQL time on the bench data). The clients show list counts as badges, where "1000+" says enough.
 */
export const TICKET_COUNT_CAP = 1_000;

export const LIST_KEYS: readonly ListKey[] = [
  ...CONTACT_SEARCH_KEYS,
  'userId',
  'profile',
  'queueIds',
  'channelIds',
  'userIds',
  'isGroup',
];

/** The list's page of ids (updatedAt desc, id desc), as a subquery. */
const pageIds = (where: SQL | undefined, p: Record<ListKey | 'limit' | 'offset', Placeholder>) =>
  sql`select ${tickets.id} from ${tickets} where ${where ?? sql`true`}
    order by ${tickets.updatedAt} desc, ${tickets.id} desc limit ${p.limit} offset ${p.offset}`;

/**
 * Pages of tickets as full rows (tickets.dto.ts `selectJoined`), each with the bounded count of all matches: page,
 * count and rows in one statement. The page's ids are an uncorrelated `array(select ...)`, which PostgreSQL plans and
 * runs on its own, once (an index range that stops after the page); the rows are then joined by key. Joining first
 * and filtering after let the planner pick plans that read every active ticket (an agent's list fell from 176 to 6
 * requests/s).
 */
const listPages = pagedList({
  label: 'tickets',
  keys: LIST_KEYS,
  table: tickets,
  cap: TICKET_COUNT_CAP,
  where: listWhere,
  page: (from, total, where, p) =>
    selectJoined(from, total)
      .where(sql`${tickets.id} = any(array(${pageIds(where, p)}))`)
      .orderBy(desc(tickets.updatedAt), desc(tickets.id)),
});

/**
 * A search's pages: ids only, their rows then read by the named DTO statement (planning the rows' six-table join with
 * every search cost more than the round trip it saves). The page and its count each take the search mode the number
 * of matched contacts calls for, decided while the statement runs: two branches, each limited to the page's end,
 * gated by that number (an init plan; the other branch never runs), and a CASE for the count.
 */
const searchPages = pagedList({
  label: 'tickets_search',
  keys: LIST_KEYS,
  table: tickets,
  cap: TICKET_COUNT_CAP,
  where: listWhere,
  from: listFrom,
  page: (from, _total, _where, p, shape) => {
    const many = sql`(select count(*) from matched) > ${sql.raw(String(PROBE_CONTACTS_MAX))}`;
    const branch = (mode: SearchMode, gate: SQL) =>
      sql`(select ${tickets.id} as id, ${tickets.updatedAt} as updated_at from ${tickets}
        where ${listWhere(p, shape, mode)} and ${gate}
        order by ${tickets.updatedAt} desc, ${tickets.id} desc limit ${p.limit}::int + ${p.offset}::int)`;
    const count = (mode: SearchMode) => boundedCountColumn(tickets, listWhere(p, shape, mode), TICKET_COUNT_CAP);
    const manyToCount = sql`(select count(*) from matched) > ${sql.raw(String(COUNT_PROBE_CONTACTS_MAX))}`;
    const total = sql<number>`case when ${manyToCount} then ${count('scan')} else ${count('probe')} end`.mapWith(
      Number,
    );
    return from
      .select({ id: sql<number>`page.id`.mapWith(Number), total })
      .from(sql`(${branch('probe', sql`not ${many}`)} union all ${branch('scan', many)}) page`)
      .orderBy(sql`page.updated_at desc, page.id desc`)
      .limit(p.limit)
      .offset(p.offset);
  },
  // A term longer than a search key adds LIKE on the contacts it narrows down: planned with its values.
  planEachRun: (shape) => shape.search.long,
});

/**
 * Whether the viewer's list should run on generic plans (withTenant `genericPlans`). For an admin or super, the
 * generic plan of a page is costed three to four times their custom plan, in which the policy folds away, so
 * PostgreSQL would plan the page (8 ms) at every call although both run in about 4.5 ms; the same holds for a search,
 * whose two gated branches (searchPages) keep its generic plan right for any number of matched contacts. An agent's
 * custom plan runs faster than the generic one (257 against 183 requests/s), and a long term is planned per run.
 */
export const listOnGenericPlans = (profile: string, search: string): boolean =>
  profile !== 'user' && !contactSearch(search, ['name']).shape.long;

/** One page of tickets (updatedAt desc, id desc) as DTOs and the bounded count of all matches, as `viewer` may see them. */
export async function listTickets(
  tx: Queryable,
  viewer: { tenantId: TenantId; userId: number; profile: string },
  filter: ListFilter,
  options: VisibilityOptions,
  known?: Partial<VisibilitySettings>,
): Promise<{ tickets: TicketDto[]; hasMore: boolean; count: number; countCapped: boolean }> {
  const { shape, values } = listStatementOf(viewer, filter, options, known);
  if (searches(shape.search)) {
    const { rows, ...page } = await searchPages(tx, shape, values, filter.limit, filter.offset);
    return {
      tickets: await loadTicketDtos(
        tx,
        rows.map((row) => row.id),
      ),
      ...page,
    };
  }
  const { rows, ...page } = await listPages(tx, shape, values, filter.limit, filter.offset);
  return { tickets: rows.map(ticketDtoOf), ...page };
}

/** The list statement's shape and values for a filter (the message text search, tickets.search.ts, shares them). */
export function listStatementOf(
  viewer: { tenantId: TenantId; userId: number; profile: string },
  filter: ListFilter,
  options: VisibilityOptions,
  known?: Partial<VisibilitySettings>,
): { shape: ListShape; values: Record<ListKey, unknown> } {
  const search = contactSearch(filter.search, ['name']);
  const shape: ListShape = {
    statuses: TICKET_STATUSES.filter((status) => filter.statuses.includes(status)),
    search: search.shape,
    queues: filter.queueIds.length > 0,
    channels: filter.channelIds.length > 0,
    users: filter.userIds.length > 0,
    withUnread: filter.withUnread,
    isGroup: filter.isGroup !== undefined,
    options,
    ...(known ? { known } : {}),
  };
  const values: Record<ListKey, unknown> = {
    ...viewer,
    ...search.values,
    queueIds: idList(filter.queueIds),
    channelIds: idList(filter.channelIds),
    userIds: idList(filter.userIds),
    isGroup: filter.isGroup ?? null,
  };
  return { shape, values };
}

/** The query of one ticket where `visible` holds, locked until the transaction ends with `lock` (for statements). */
export function ticketWhere(
  q: Queryable,
  tenantId: Placeholder,
  id: Placeholder,
  visible: SQL | undefined,
  lock: boolean,
) {
  const query = q
    .select()
    .from(tickets)
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.id, id), visible));
  return lock ? query.for('update') : query;
}

/**
 * Open or pending tickets of `contact` (a condition on the contact id) on a channel (0 for none): at most one per
 * contact and channel, the partial unique index.
 */
export function activeTicketWhere(tenantId: Placeholder, contact: SQL, channelId: Placeholder): SQL | undefined {
  return and(
    eq(tickets.tenantId, tenantId),
    contact,
    sql`coalesce(tickets.channel_id, 0) = ${channelId}`,
    statusIn(['open', 'pending']),
  );
}

/** The contact's open or pending ticket on that channel (at most one: a partial unique index). */
const activeTicket = statementFamily('ticket_active', ['tenantId', 'contactId', 'channelId'], (q, p, lock: boolean) => {
  const query = q
    .select()
    .from(tickets)
    .where(activeTicketWhere(p.tenantId, eq(tickets.contactId, p.contactId), p.channelId));
  return lock ? query.for('update') : query;
});

export async function findActiveTicket(
  tx: Queryable,
  tenantId: TenantId,
  contactId: number,
  channelId: number | null,
  lock = false,
): Promise<TicketRow | undefined> {
  const [row] = await activeTicket(tx, lock, { tenantId, contactId, channelId: channelId ?? 0 });
  return row;
}

/** Inserts the ticket unless the contact already has an active one on that channel (then undefined). */
export async function insertTicket(tx: Queryable, values: NewTicket): Promise<TicketRow | undefined> {
  const [row] = await tx.insert(tickets).values(values).onConflictDoNothing().returning();
  return row;
}

export async function updateTicket(tx: Queryable, tenantId: TenantId, id: number, patch: TicketPatch) {
  const [row] = await tx
    .update(tickets)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.id, id)))
    .returning();
  return row!;
}
