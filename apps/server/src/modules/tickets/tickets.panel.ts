/**
 * `GET /dash-tickets-queues` (client-contract §4.3; the ticket panel `/painel-atendimentos`, admin only): the tickets
 * whose last activity (`updatedAt`) falls in the period, the dates read in the tenant's time zone, newest first, at
 * most TICKET_PANEL_LIMIT of them, as the list's rows (contact, user, queue). The visibility policy still applies
 * (admins see every ticket, so it lets all through; it keeps the one statement of §6 true here too).
 */
import { TICKET_PANEL_LIMIT, TICKET_STATUSES, type TicketDto, type TicketPanelQuery } from '@conversa/shared';
import { and, desc, sql } from 'drizzle-orm';
import type { Database } from '../../platform/db/client.js';
import { withTenant } from '../../platform/db/tenancy.js';
import type { AuthedContext } from '../../platform/http/auth.js';
import { selectJoined, ticketDtoOf } from './tickets.dto.js';
import { literalViewer, storedVisibilitySettings, TICKET_COLUMNS, ticketVisibility } from './tickets.policy.js';
import { tickets } from './tickets.tables.js';

export function createTicketPanel(deps: { db: Database }) {
  return async function panelTickets(ctx: AuthedContext, query: TicketPanelQuery): Promise<TicketDto[]> {
    return withTenant(deps.db, ctx, async (tx) => {
      const zone = sql`(select tz.timezone from tenants tz where tz.id = ${ctx.tenantId})`;
      const statuses = TICKET_STATUSES.filter((status) => query.status.includes(status));
      const rows = await selectJoined(tx)
        .where(
          and(
            sql`${tickets.tenantId} = ${ctx.tenantId}`,
            sql.raw(`tickets.status in (${statuses.map((s) => `'${s}'`).join(', ')})`),
            sql`${tickets.updatedAt} >= (${query.dateStart}::date)::timestamp at time zone ${zone}`,
            sql`${tickets.updatedAt} < (${query.dateEnd}::date + 1)::timestamp at time zone ${zone}`,
            query.queuesIds.length > 0
              ? sql`${tickets.queueId} = any(${`{${query.queuesIds.join(',')}}`}::bigint[])`
              : undefined,
            ticketVisibility(
              literalViewer(ctx.userId, ctx.profile),
              TICKET_COLUMNS,
              storedVisibilitySettings(ctx.tenantId),
              { showAll: true, includeNotQueueDefined: true, notAssignedOnly: false },
            ),
          ),
        )
        .orderBy(desc(tickets.updatedAt), desc(tickets.id))
        .limit(TICKET_PANEL_LIMIT);
      return rows.map(ticketDtoOf);
    });
  };
}
