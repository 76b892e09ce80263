/**
 * `GET /searchMessage` (client-contract §5.1): the tenant's messages whose words match a term (platform/db/text-search.ts,
 * the keys of migration 0017), newest first, each with its ticket, as the one visibility policy lets the caller reach
 * them (the tickets module's, with "may see at all" options, as `GET /tickets/{id}`) and only in conversations the
 * caller may read (`conversationReadable`: a pending ticket's, while "Espiar pendentes" is off, to its assignee).
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { searchMessageResponseSchema } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import { rawRows, statementFamily } from '../../platform/db/statements.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { readTextTerm, textMatchesTerm, textTermValues } from '../../platform/db/text-search.js';
import {
  ACCESS_OPTIONS,
  conversationReadable,
  storedVisibilitySettings,
  TICKET_COLUMNS,
  ticketVisibility,
} from '../tickets/index.js';

export type SearchMessageResponse = z.infer<typeof searchMessageResponseSchema>;

export const SEARCH_PAGE_SIZE = 20;

/**
 * Newest messages holding a key of the candidate word that a search looks at; the policy and the words the keys cannot
 * decide run on these.
 */
export const SEARCH_CANDIDATES = 2_000;

type Row = [number, string, Date | string, number, string, string, boolean, number | null, string | null, string];

/**
 * The newest SEARCH_CANDIDATES message ids holding a key of the candidate word, newest first: the distinct keys the
 * word starts (a loose index scan, one descent per key) and its stem, each key's newest messages read backwards from
 * the primary key (index only), merged. The newest messages overall are each among their key's newest, so the set is
 * the same as sorting every key of the range, which a common word made slow (two keys of 41,666 messages each on the
 * bench data: 40 ms per request; a two-letter prefix 4 s) where this reads at most SEARCH_CANDIDATES per key.
 */
function newestCandidates(p: Record<'tenantId' | 'from' | 'to' | 'stem', Placeholder>): SQL {
  const perKey = sql.raw(String(SEARCH_CANDIDATES));
  return sql`(with recursive walk as (
      (select k.key from message_search_keys k
        where k.tenant_id = ${p.tenantId} and k.key >= ${p.from} and k.key < ${p.to} order by k.key limit 1)
      union all
      select (select k.key from message_search_keys k
          where k.tenant_id = ${p.tenantId} and k.key > w.key and k.key < ${p.to} order by k.key limit 1)
        from walk w where w.key is not null
    ), words as (select key from walk where key is not null union select ${p.stem}::text where ${p.stem}::text <> '')
    select distinct c.message_id from words cross join lateral (select k.message_id from message_search_keys k
        where k.tenant_id = ${p.tenantId} and k.key = words.key order by k.message_id desc limit ${perKey}) c
    order by c.message_id desc limit ${perKey})`;
}

const searchPage = statementFamily(
  'messages_text_search',
  ['tenantId', 'userId', 'profile', 'from', 'to', 'stem', 'query', 'limit', 'offset'],
  (q, p, verify: boolean) => {
    const viewer = { id: sql`${p.userId}::bigint`, profile: sql`${p.profile}::text` };
    const visible = ticketVisibility(viewer, TICKET_COLUMNS, storedVisibilitySettings(p.tenantId), ACCESS_OPTIONS);
    // A conversation the caller may not read yet ("Espiar pendentes") yields no match either.
    const readable = conversationReadable(viewer, TICKET_COLUMNS, p.tenantId);
    return rawRows<Row>(
      q,
      sql`select m.id, coalesce(m.edition, m.body), m.created_at, tickets.id, tickets.status, tickets.channel,
          tickets.is_group, tickets.channel_id, tickets.last_message, coalesce(c.name, '')
        from ${newestCandidates(p)} hit
        join messages m on m.id = hit.message_id
        join tickets on tickets.id = m.ticket_id
        left join contacts c on c.id = tickets.contact_id
        where m.tenant_id = ${p.tenantId} and tickets.tenant_id = ${p.tenantId} and not m.is_deleted and ${visible}
          and ${readable} ${verify ? sql`and ${textMatchesTerm(sql.raw('coalesce(m.edition, m.body)'), p)}` : sql``}
        order by m.id desc limit ${p.limit} offset ${p.offset}`,
    );
  },
);

/** One page of matches (one row per message), and whether more follow. */
export async function searchMessages(
  tx: Queryable,
  viewer: { tenantId: TenantId; userId: number; profile: string },
  searchTerm: string,
  pageNumber: number,
): Promise<SearchMessageResponse> {
  const term = await readTextTerm(tx, searchTerm);
  if (!term) return { tickets: [], hasMore: false };
  const rows = await searchPage(tx, term.verify, {
    ...viewer,
    ...textTermValues(term),
    limit: SEARCH_PAGE_SIZE + 1,
    offset: (pageNumber - 1) * SEARCH_PAGE_SIZE,
  });
  return {
    tickets: rows
      .slice(0, SEARCH_PAGE_SIZE)
      .map(([messageId, body, createdAt, id, status, channel, isGroup, whatsappId, lastMessage, name]) => ({
        id: Number(id),
        status,
        channel,
        isGroup,
        whatsappId: whatsappId === null ? null : Number(whatsappId),
        lastMessage,
        name,
        message: { id: Number(messageId), body, createdAt: new Date(createdAt).toISOString() },
      })),
    hasMore: rows.length > SEARCH_PAGE_SIZE,
  };
}
