/** `GET /tickets`: the attendance filter (client-contract §4.1) over the tickets the visibility policy lets through. */
import { TICKETS_PAGE_SIZE, type TicketListQuery, type TicketListResponse } from '@conversa/shared';
import type { Database } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import * as repo from './tickets.repository.js';
import { knownVisibility } from './tickets.rules.js';

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
        const filter: repo.ListFilter = {
          statuses: query.status,
          search: query.searchParam,
          queueIds: query.queuesIds,
          channelIds: query.whatsappIds,
          userIds: query.selectedUser,
          withUnread: query.withUnreadMessages,
          isGroup: query.isGroup,
          limit: TICKETS_PAGE_SIZE,
          offset: (query.pageNumber - 1) * TICKETS_PAGE_SIZE,
        };
        const viewer = { tenantId: ctx.tenantId, userId: ctx.userId, profile: ctx.profile };
        return repo.listTickets(tx, viewer, filter, options, await knownVisibility(tx, viewer));
      },
      { genericPlans },
    );
  };
}
