/**
 * The one ticket visibility policy (product-spec §6 "Ticket list visibility"). `ticketVisibility` builds a SQL
 * predicate from a viewer and a ticket whose attributes are SQL expressions, so one function serves the list query
 * (viewer = literal parameters, ticket = the `tickets` row), `GET /tickets/{id}` and every ticket action
 * (tickets.access.ts), and the realtime audience (viewer = the `users` row of each connected user).
 *
 *   visible = ticket owned by the viewer
 *          or (showAll and the viewer is admin/super/superadmin)
 *          or (queue scope and assigned rule and chatbot rule and wallet rule and not-assigned filter)
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { settingEnabledSql } from '../settings/index.js';

/** Who looks: each attribute an SQL expression (a bound parameter or a column of `users`). */
export interface Viewer {
  id: SQL;
  profile: SQL;
}

/** The ticket looked at: each attribute an SQL expression (a column of `tickets`, or a value of a former state). */
export interface TicketRef {
  userId: SQL;
  queueId: SQL;
  contactId: SQL;
  chatFlowId: SQL;
  autoReplyId: SQL;
}

/**
 * The tenant's three visibility settings: known values (tests, callers that hold them) or SQL read inside the query
 * itself (`storedVisibilitySettings`), so no request spends a round trip on them.
 */
export interface VisibilitySettings {
  NotViewAssignedTickets: boolean | SQL;
  NotViewTicketsChatBot: boolean | SQL;
  DirectTicketsToWallets: boolean | SQL;
}

/** The viewer's own choices (attendance filter) that the policy honours. */
export interface VisibilityOptions {
  /** Honoured only for admin, super and superadmin. */
  showAll: boolean;
  /** Include tickets without a queue (default true). */
  includeNotQueueDefined: boolean;
  /** Only tickets without an assignee. */
  notAssignedOnly: boolean;
}

/** What a viewer may see at all: actions, `GET /tickets/{id}` and realtime use it (the list adds the filter). */
export const ACCESS_OPTIONS: VisibilityOptions = {
  showAll: true,
  includeNotQueueDefined: true,
  notAssignedOnly: false,
};

/** The `tickets` table's own columns, for queries whose FROM names `tickets` without an alias. */
export const TICKET_COLUMNS: TicketRef = {
  userId: sql.raw('tickets.user_id'),
  queueId: sql.raw('tickets.queue_id'),
  contactId: sql.raw('tickets.contact_id'),
  chatFlowId: sql.raw('tickets.chat_flow_id'),
  autoReplyId: sql.raw('tickets.auto_reply_id'),
};

/** A viewer given as values (the caller of a request), or as a statement's placeholders for them. */
export const literalViewer = (userId: number | Placeholder, profile: string | Placeholder): Viewer => ({
  id: sql`${userId}::bigint`,
  profile: sql`${profile}::text`,
});

/** The settings as stored for the tenant, evaluated by PostgreSQL within the query that applies the policy. */
export function storedVisibilitySettings(tenantId: number | Placeholder): VisibilitySettings {
  return {
    NotViewAssignedTickets: settingEnabledSql(tenantId, 'NotViewAssignedTickets'),
    NotViewTicketsChatBot: settingEnabledSql(tenantId, 'NotViewTicketsChatBot'),
    DirectTicketsToWallets: settingEnabledSql(tenantId, 'DirectTicketsToWallets'),
  };
}

/** `rule` when the setting is on: nothing for a known false, the rule for a known true, else "off or rule". */
function whenEnabled(setting: boolean | SQL, rule: SQL): SQL | undefined {
  if (setting === false) return undefined;
  return setting === true ? rule : sql`(not ${setting} or ${rule})`;
}

export function ticketVisibility(
  viewer: Viewer,
  ticket: TicketRef,
  settings: VisibilitySettings,
  options: VisibilityOptions,
): SQL {
  const isAdmin = sql`${viewer.profile} in ('admin', 'superadmin')`;
  const rules: (SQL | undefined)[] = [
    queueScope(viewer, ticket, options.includeNotQueueDefined),
    // Assigned tickets only to the assignee (handled by `owned` below) and admins.
    whenEnabled(settings.NotViewAssignedTickets, sql`(${ticket.userId} is null or ${isAdmin})`),
    // A ticket the chatbot holds (a flow or auto reply, nobody and no queue yet) stays out of everybody's list.
    whenEnabled(
      settings.NotViewTicketsChatBot,
      sql`not ((${ticket.chatFlowId} is not null or ${ticket.autoReplyId} is not null)
        and ${ticket.userId} is null and ${ticket.queueId} is null)`,
    ),
    // A contact with wallets belongs to its wallet owners (and admins); a contact without wallets to everyone.
    whenEnabled(
      settings.DirectTicketsToWallets,
      sql`(${isAdmin}
        or not exists (select 1 from contact_wallets cw where cw.contact_id = ${ticket.contactId})
        or exists (select 1 from contact_wallets cw where cw.contact_id = ${ticket.contactId} and cw.user_id = ${viewer.id}))`,
    ),
    options.notAssignedOnly ? sql`${ticket.userId} is null` : undefined,
  ];
  const owned = sql`${ticket.userId} = ${viewer.id}`;
  const seesAll = options.showAll ? sql` or ${viewer.profile} in ('admin', 'super', 'superadmin')` : sql``;
  const applied = rules.filter((rule): rule is SQL => rule !== undefined);
  return sql`(${owned}${seesAll} or (${sql.join(applied, sql` and `)}))`;
}

/** A user profile sees its own queues; every profile sees queue-less tickets only when it asks to. */
function queueScope(viewer: Viewer, ticket: TicketRef, includeNotQueueDefined: boolean): SQL {
  const inQueue = sql`(${ticket.queueId} is not null and (${viewer.profile} <> 'user'
    or exists (select 1 from user_queues uq where uq.user_id = ${viewer.id} and uq.queue_id = ${ticket.queueId})))`;
  return includeNotQueueDefined ? sql`(${ticket.queueId} is null or ${inQueue})` : inQueue;
}
