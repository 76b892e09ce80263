/**
 * The ticket list's search by message text (`GET /tickets?searchParam`, client-contract §4.1 "contact name/number,
 * message"): the tickets holding a message whose words match the term (platform/db/text-search.ts), under the same
 * filter and visibility policy as the list, merged with the tickets the contact search finds (tickets.repository.ts).
 * Each ticket found by text carries its newest matching message (`searchMatch`), which the list shows and opens.
 *
 * A ticket holds a match when a key of its messages does (`message_search_keys`, migration 0017). How the statement
 * reaches them is decided while it runs, as the contact search does: when the candidate word has few keys in the
 * tenant (`probe`), their tickets are read by id; when it has many, the tickets are read in list order and each is
 * checked through the keys' ticket index (`scan`), so a page stops at its last row. Both are branches of one statement
 * gated by the number of keys (an init plan: the other branch never runs).
 */
import { and, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { TicketDto, TicketSearchMatch } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import { boundedCountColumn } from '../../platform/db/paging.js';
import { idIn, idList, rawRows, statementFamily } from '../../platform/db/statements.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import {
  keyOfTerm,
  readTextTerm,
  textMatchesTerm,
  textTermValues,
  type TextTerm,
  type TextTermKey,
} from '../../platform/db/text-search.js';
import { loadTicketDtos } from './tickets.dto.js';
import {
  conversationReadable,
  literalViewer,
  TICKET_COLUMNS,
  type VisibilityOptions,
  type VisibilitySettings,
} from './tickets.policy.js';
import {
  LIST_KEYS,
  listFrom,
  listStatementOf,
  listTickets,
  listWhere,
  matchesSearch,
  TICKET_COUNT_CAP,
  type ListFilter,
  type ListKey,
  type ListShape,
  type SearchMode,
} from './tickets.repository.js';
import { tickets } from './tickets.tables.js';

type PageKey = ListKey | TextTermKey | 'limit';

const PAGE_KEYS: readonly PageKey[] = [...LIST_KEYS, 'from', 'to', 'stem', 'low', 'high', 'query', 'limit'];

/**
 * Keys of the candidate word up to which the statement probes their tickets by id. On the bench data a word of the
 * fixed texts has tens of thousands of keys: reading them all to find a page of tickets would cost more than reading
 * active tickets in order, of which most then match.
 */
const PROBE_KEYS_MAX = 1_000;

/**
 * Tickets found by text counted at most (`countCapped` beyond, "200+"). Counting reads active tickets in list order
 * and checks each one's keys until the cap: for a word in a third of the tickets, 1,000 matches read 3,400 tickets
 * (35 ms on the loaded bench machine), about five times the page itself.
 */
export const TEXT_COUNT_CAP = 200;

interface TextSearchShape {
  list: ListShape;
  verify: boolean;
}

const NO_CONTACT_SEARCH: ListShape['search'] = { fields: [], long: false };

/** A message's shown text: its edition, else its body (aliased `m`). */
const shownText = sql.raw('coalesce(m.edition, m.body)');

/** With several words (or a word longer than a key), the message of key `k` decides. */
const verified = (p: Record<TextTermKey, Placeholder>, verify: boolean) =>
  verify
    ? sql` and exists (select 1 from messages m where m.id = k.message_id and ${textMatchesTerm(shownText, p)})`
    : sql``;

/** The ticket holds a matching message: its tickets' ids read once (`probe`), or each ticket checked (`scan`). */
function byMessage(p: Record<PageKey, Placeholder>, verify: boolean, mode: SearchMode): SQL {
  if (mode === 'probe') {
    return sql`tickets.id = any(array(select distinct k.ticket_id from message_search_keys k
      where k.tenant_id = ${p.tenantId} and ${keyOfTerm(p)}${verified(p, verify)}))`;
  }
  return sql`exists (select 1 from message_search_keys k
    where k.tenant_id = ${p.tenantId} and k.ticket_id = tickets.id and ${keyOfTerm(p)}${verified(p, verify)})`;
}

/**
 * The list's filter and policy, the text match, and not a match of the contact search (those the contact search
 * lists already; coalesce: a ticket without a protocol makes its LIKE null).
 */
function textWhere(p: Record<PageKey, Placeholder>, shape: TextSearchShape, mode: SearchMode): SQL | undefined {
  const byContact = matchesSearch(p, shape.list.search, 'scan');
  return and(
    listWhere(p, { ...shape.list, search: NO_CONTACT_SEARCH }),
    byContact ? sql`not coalesce(${byContact}, false)` : undefined,
    // Words of a conversation the viewer may not read yet ("Espiar pendentes") find nothing: no text, no snippet.
    conversationReadable(literalViewer(p.userId, p.profile), TICKET_COLUMNS, p.tenantId),
    byMessage(p, shape.verify, mode),
  );
}

/** The first `limit` tickets found by text (updatedAt desc, id desc), each row with the bounded count of all. */
const textPages = statementFamily(
  'tickets_text_search',
  PAGE_KEYS,
  (q, p, shape: TextSearchShape) => {
    // Whether the word has many keys in the tenant, counted once (a CTE named three times is materialized once) over
    // the one range that holds both kinds of key ([low, high): a superset, as fine for choosing a way). Counted apart,
    // each kind was one more range scan in each of the three places (three gates of 2,002 index rows per request).
    const gate = q.$with('text_gate', { many: sql<boolean>`many` }).as(
      sql`select count(*) > ${sql.raw(String(PROBE_KEYS_MAX))} as many from (select 1 from message_search_keys k
          where k.tenant_id = ${p.tenantId} and k.key >= ${p.low} and k.key < ${p.high}
          limit ${sql.raw(String(PROBE_KEYS_MAX + 1))}) c`,
    );
    const many = sql`(select many from text_gate)`;
    const branch = (mode: SearchMode, taken: SQL) =>
      sql`(select ${tickets.id} as id, ${tickets.updatedAt} as updated_at from ${tickets}
        where ${textWhere(p, shape, mode)} and ${taken}
        order by ${tickets.updatedAt} desc, ${tickets.id} desc limit ${p.limit})`;
    const count = (mode: SearchMode) => boundedCountColumn(tickets, textWhere(p, shape, mode), TEXT_COUNT_CAP);
    const total = sql<number>`case when ${many} then ${count('scan')} else ${count('probe')} end`.mapWith(Number);
    return listFrom(q, p, shape.list, gate)
      .select({ id: sql<number>`page.id`.mapWith(Number), total })
      .from(sql`(${branch('probe', sql`not ${many}`)} union all ${branch('scan', many)}) page`)
      .orderBy(sql`page.updated_at desc, page.id desc`)
      .limit(p.limit);
  },
  // A long contact term adds LIKE on the contacts it narrows down: planned with its values, as the contact search.
  (shape) => shape.list.search.long,
);

/** The newest matching message of each ticket. */
const newestMatches = statementFamily(
  'tickets_text_matches',
  ['tenantId', 'ticketIds', 'from', 'to', 'stem', 'low', 'high', 'query'],
  (q, p, verify: boolean) =>
    rawRows<[number, number, string, Date | string]>(
      q,
      sql`select distinct on (k.ticket_id) k.ticket_id, m.id, coalesce(m.edition, m.body), m.created_at
        from message_search_keys k join messages m on m.id = k.message_id
        where k.tenant_id = ${p.tenantId} and ${idIn(sql.raw('k.ticket_id'), p.ticketIds)} and ${keyOfTerm(p)}
          ${verify ? sql`and ${textMatchesTerm(shownText, p)}` : sql``}
        order by k.ticket_id, k.message_id desc`,
    ),
);

/** The newest message matching `term` in each of the tickets, by ticket id. */
export async function findTextMatches(
  tx: Queryable,
  tenantId: TenantId,
  ticketIds: number[],
  term: TextTerm,
): Promise<Map<number, TicketSearchMatch>> {
  if (ticketIds.length === 0) return new Map();
  const rows = await newestMatches(tx, term.verify, {
    tenantId,
    ticketIds: idList(ticketIds),
    ...textTermValues(term),
  });
  return new Map(
    rows.map(([ticketId, id, body, createdAt]) => [
      Number(ticketId),
      { id: Number(id), body, createdAt: new Date(createdAt).toISOString() },
    ]),
  );
}

type ListPage = { tickets: (TicketDto & { searchMatch?: TicketSearchMatch })[] } & {
  hasMore: boolean;
  count: number;
  countCapped: boolean;
};

const newestFirst = (a: TicketDto, b: TicketDto): number =>
  Date.parse(b.updatedAt) - Date.parse(a.updatedAt) || b.id - a.id;

/**
 * A searching list page: the contact search's tickets and the text search's (two disjoint sets, each read up to the
 * page's end), merged in list order. The count adds both bounded counts.
 */
export async function listTicketsBySearch(
  tx: Queryable,
  viewer: { tenantId: TenantId; userId: number; profile: string },
  filter: ListFilter,
  options: VisibilityOptions,
  known?: Partial<VisibilitySettings>,
): Promise<ListPage> {
  const term = await readTextTerm(tx, filter.search);
  if (!term) return listTickets(tx, viewer, filter, options, known);
  const end = filter.offset + filter.limit;
  const byContact = await listTickets(tx, viewer, { ...filter, limit: end, offset: 0 }, options, known);
  const { shape, values } = listStatementOf(viewer, filter, options, known);
  const textShape: TextSearchShape = { list: shape, verify: term.verify };
  const found = await textPages(tx, textShape, { ...values, ...textTermValues(term), limit: end + 1 });
  const textIds = found.slice(0, end).map((row) => row.id);
  const dtos = await loadTicketDtos(tx, textIds);
  const matches = await findTextMatches(tx, viewer.tenantId, textIds, term);
  const byText = dtos.map((dto) => {
    const match = matches.get(dto.id);
    return match ? { ...dto, searchMatch: match } : dto;
  });
  const merged = [...byContact.tickets, ...byText].sort(newestFirst);
  const textCount = found[0]?.total ?? 0;
  const total = byContact.count + Math.min(textCount, TEXT_COUNT_CAP);
  return {
    tickets: merged.slice(filter.offset, end),
    hasMore: merged.length > end || byContact.hasMore || found.length > end,
    count: Math.min(total, TICKET_COUNT_CAP),
    countCapped: byContact.countCapped || textCount > TEXT_COUNT_CAP || total > TICKET_COUNT_CAP,
  };
}
