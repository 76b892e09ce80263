/** `GET /tickets`: the attendance filter (client-contract §4.1) over the tickets the visibility policy lets through. */
import { sql } from 'drizzle-orm';
import {
  TENANT_LIMIT_DEFAULTS,
  tenantLimitValueSchema,
  type TicketListQuery,
  type TicketListResponse,
} from '@conversa/shared';
import type { Database, Queryable } from '../../platform/db/client.js';
import { rawRows, statement } from '../../platform/db/statements.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import * as repo from './tickets.repository.js';
import { knownVisibility } from './tickets.rules.js';
import { listTicketsBySearch } from './tickets.search.js';

/**
 * The page size: the tenant flag `ticketLimit` ("Tickets por página", client-contract §10; 1 to 1,000, default 40),
 * read in the list's transaction. The tenants table is named in SQL (the tenants module is not tickets' to import).
 */
const pageSizeRead = statement('ticket_list_page_size', ['tenantId'], (q, p) =>
  rawRows<[unknown]>(q, sql`select flags -> 'ticketLimit' from tenants where id = ${p.tenantId}`),
);

export async function ticketPageSize(tx: Queryable, tenantId: number): Promise<number> {
  const [row] = await pageSizeRead(tx, { tenantId });
  const stored = tenantLimitValueSchema.safeParse(row?.[0] ?? undefined);
  return stored.success ? stored.data : TENANT_LIMIT_DEFAULTS.ticketLimit;
}

export function createTicketList(deps: { db: Database }) {
  return async function listTickets(ctx: AuthedContext, query: TicketListQuery): Promise<TicketListResponse> {
    const genericPlans = repo.listOnGenericPlans(ctx.profile, query.searchParam);
    return withTenant(
      deps.db,
      ctx,
      async (tx) => {
        const options = {
          showAll: query.showAll,
          includeNotQueueDefined: query.includeNotQueueDefined,
          notAssignedOnly: query.isNotAssignedUser,
        };
        const pageSize = await ticketPageSize(tx, ctx.tenantId);
        const filter: repo.ListFilter = {
          statuses: query.status,
          search: query.searchParam,
          queueIds: query.queuesIds,
          channelIds: query.whatsappIds,
          userIds: query.selectedUser,
          withUnread: query.withUnreadMessages,
          isGroup: query.isGroup,
          limit: pageSize,
          offset: (query.pageNumber - 1) * pageSize,
        };
        const viewer = { tenantId: ctx.tenantId, userId: ctx.userId, profile: ctx.profile };
        // A term also searches message text (tickets.search.ts), merged with the contact search.
        const list = filter.search.trim() ? listTicketsBySearch : repo.listTickets;
        return list(tx, viewer, filter, options, await knownVisibility(tx, viewer));
      },
      { genericPlans },
    );
  };
}
