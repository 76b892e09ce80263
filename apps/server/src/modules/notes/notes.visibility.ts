/**
 * The tickets module's one visibility policy, applied to lists joined with `tickets` (notes, protocols): a row of a
 * ticket the caller may not see is never read. The same options as a ticket action (tickets.access.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { AuthedContext } from '../../platform/http/auth.js';
import { ACCESS_OPTIONS, storedVisibilitySettings, TICKET_COLUMNS, ticketVisibility } from '../tickets/index.js';

/** The caller may see the joined `tickets` row (the FROM must name `tickets` unaliased). */
export function visibleTicketSql(ctx: AuthedContext): SQL {
  const viewer = { id: sql`${ctx.userId}::bigint`, profile: sql`${ctx.profile}::text` };
  return ticketVisibility(viewer, TICKET_COLUMNS, storedVisibilitySettings(ctx.tenantId), ACCESS_OPTIONS);
}

/** Of the given users, those who may see the ticket (a note event's audience): each user's own id and profile. */
export function ticketAudienceSql(tenantId: number, ticketId: number, userIds: number[]): SQL {
  const viewer = { id: sql.raw('u.id'), profile: sql.raw('u.profile') };
  const policy = ticketVisibility(viewer, TICKET_COLUMNS, storedVisibilitySettings(tenantId), ACCESS_OPTIONS);
  const ids = sql.join(
    userIds.map((id) => sql`${id}::bigint`),
    sql`, `,
  );
  return sql`select u.id from users u join tickets on tickets.id = ${ticketId} and tickets.tenant_id = u.tenant_id
    where u.tenant_id = ${tenantId} and u.id in (${ids}) and ${policy}`;
}
