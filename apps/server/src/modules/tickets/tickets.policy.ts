/**
 * The one ticket visibility policy (product-spec §6 "Ticket list visibility"). `ticketVisibility` builds a SQL
 * predicate from a viewer and a ticket whose attributes are SQL expressions, so one function serves the list query
 * (viewer = literal parameters, ticket = the `tickets` row), `GET /tickets/{id}` and every ticket action
 * (tickets.access.ts), and the realtime audience (viewer = the `users` row of each connected user).
 *
 *   visible = ticket owned by the viewer
 *          or (showAll and the viewer is admin/superadmin, or super unless supervisorAdmin)
 *          or (queue scope and allowed channel and assigned rule and chatbot rule and wallet rule
 *              and not-assigned filter)
 *
 * "Acts as a user" = profile `user`, or `super` while the tenant flag `supervisorAdmin` is on (supervisors behave like
 * users: no showAll, queue membership applies). The tenant flags (`tenants.flags`, client-contract §10) are read
 * inside the query like the settings:
 * - queue scope: a queue's ticket needs a `user_queues` row when acting as a user; a queue-less ticket passes when
 *   the filter includes them, and for one acting as a user only while `nullTickets` is on (its default); with
 *   `showGroupsForAll` a group ticket, with `showClosedForAll` a closed ticket pass the queue scope for everyone (the
 *   other rules still apply);
 * - allowed channel: one acting as a user with a non-empty `user_channels` list (`whatsappAllowed`) sees only tickets
 *   of those channels; an empty list means every channel.
 */
import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { TENANT_TOGGLE_DEFAULTS, type TenantToggleKey } from '@conversa/shared';
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
  channelId: SQL;
  isGroup: SQL;
  status: SQL;
}

/**
 * The tenant's three visibility settings: known values (tests, callers that hold them) or SQL read inside the query
 * itself (`storedVisibilitySettings`), so no request spends a round trip on them.
 */
export interface VisibilitySettings {
  NotViewAssignedTickets: boolean | SQL;
  NotViewTicketsChatBot: boolean | SQL;
  DirectTicketsToWallets: boolean | SQL;
  /** Tenant flags (client-contract §10). */
  supervisorAdmin: boolean | SQL;
  nullTickets: boolean | SQL;
  showGroupsForAll: boolean | SQL;
  showClosedForAll: boolean | SQL;
  /**
   * Whether the viewer has an allowed-channels list (`user_channels`): `false` when known to have none (the rule
   * then drops out of the statement), else read by the query itself.
   */
  viewerHasChannelList?: boolean;
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
  channelId: sql.raw('tickets.channel_id'),
  isGroup: sql.raw('tickets.is_group'),
  status: sql.raw('tickets.status'),
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
    supervisorAdmin: tenantFlagEnabledSql(tenantId, 'supervisorAdmin'),
    nullTickets: tenantFlagEnabledSql(tenantId, 'nullTickets'),
    showGroupsForAll: tenantFlagEnabledSql(tenantId, 'showGroupsForAll'),
    showClosedForAll: tenantFlagEnabledSql(tenantId, 'showClosedForAll'),
  };
}

/**
 * "The tenant flag is enabled", evaluated by PostgreSQL once per query (an init plan), like `settingEnabledSql`. The
 * tenants table is named in SQL: the tenants module is not the tickets module's to import.
 */
export function tenantFlagEnabledSql(tenantId: number | Placeholder, key: TenantToggleKey): SQL {
  return sql`(coalesce((select tf.flags ->> ${key}::text from tenants tf where tf.id = ${tenantId}), ${TENANT_TOGGLE_DEFAULTS[key]}::text) = 'enabled')`;
}

/** A flag as SQL: its known value, or the expression. */
const flag = (value: boolean | SQL): SQL => (typeof value === 'boolean' ? sql.raw(value ? 'true' : 'false') : value);

/** `rule` when the setting is on: nothing for a known false, the rule for a known true, else "off or rule". */
function whenEnabled(setting: boolean | SQL, rule: SQL): SQL | undefined {
  if (setting === false) return undefined;
  return setting === true ? rule : sql`(not ${setting} or ${rule})`;
}

/**
 * "Espiar pendentes" (setting `spyticket`, issue 23 item 4): whether the viewer may read the ticket's conversation
 * (its messages, and the text search's matches in it). While the setting is off, a pending ticket's messages are read
 * only by its assignee and by those not acting as a user (admins, superadmins, supervisors unless `supervisorAdmin`);
 * with it on, by everyone who sees the ticket. The one statement of the rule: `assertMayReadConversation`
 * (tickets.access.ts) evaluates it for one ticket, the searches add it to their conditions.
 */
export function conversationReadable(
  viewer: Viewer,
  ticket: Pick<TicketRef, 'status' | 'userId'>,
  tenantId: number | Placeholder,
): SQL {
  const actsAsUser = sql`(${viewer.profile} = 'user' or (${viewer.profile} = 'super' and ${tenantFlagEnabledSql(tenantId, 'supervisorAdmin')}))`;
  return sql`(${ticket.status} <> 'pending' or ${ticket.userId} is not distinct from ${viewer.id} or not ${actsAsUser}
    or ${settingEnabledSql(tenantId, 'spyticket')})`;
}

export function ticketVisibility(
  viewer: Viewer,
  ticket: TicketRef,
  settings: VisibilitySettings,
  options: VisibilityOptions,
): SQL {
  const isAdmin = sql`${viewer.profile} in ('admin', 'superadmin')`;
  const actsAsUser =
    settings.supervisorAdmin === false
      ? sql`${viewer.profile} = 'user'`
      : sql`(${viewer.profile} = 'user' or (${viewer.profile} = 'super' and ${flag(settings.supervisorAdmin)}))`;
  const rules: (SQL | undefined)[] = [
    queueScope(viewer, ticket, settings, actsAsUser, options.includeNotQueueDefined),
    // A user's allowed channels (`whatsappAllowed`): none listed = every channel.
    settings.viewerHasChannelList === false
      ? undefined
      : sql`(not ${actsAsUser}
      or not exists (select 1 from user_channels uc where uc.user_id = ${viewer.id})
      or exists (select 1 from user_channels uc where uc.user_id = ${viewer.id} and uc.channel_id = ${ticket.channelId}))`,
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
  const seesAll = options.showAll
    ? sql` or ${viewer.profile} in ('admin', 'superadmin') or (${viewer.profile} = 'super' and not ${actsAsUser})`
    : sql``;
  const applied = rules.filter((rule): rule is SQL => rule !== undefined);
  return sql`(${owned}${seesAll} or (${sql.join(applied, sql` and `)}))`;
}

/**
 * One acting as a user needs the queue (a `user_queues` row), or for a queue-less ticket the tenant flag
 * `nullTickets`; group tickets (`showGroupsForAll`) and closed tickets (`showClosedForAll`) need neither while their
 * flag is on. Other profiles see every queue. Queue-less tickets only when the filter asks for them. Rules whose flag
 * is known to be off drop out of the statement (an agent's list keeps its index-only plan).
 */
function queueScope(
  viewer: Viewer,
  ticket: TicketRef,
  settings: VisibilitySettings,
  actsAsUser: SQL,
  includeNotQueueDefined: boolean,
): SQL {
  const forAll = [
    when(settings.showGroupsForAll, sql`${ticket.isGroup}`),
    when(settings.showClosedForAll, sql`${ticket.status} = 'closed'`),
  ].filter((rule): rule is SQL => rule !== undefined);
  const member = sql`exists (select 1 from user_queues uq where uq.user_id = ${viewer.id} and uq.queue_id = ${ticket.queueId})`;
  const inQueue = sql`(${ticket.queueId} is not null and (not ${actsAsUser} or ${sql.join([member, ...forAll], sql` or `)}))`;
  if (!includeNotQueueDefined) return inQueue;
  const passes = [when(settings.nullTickets, sql`true`), ...forAll].filter((rule): rule is SQL => rule !== undefined);
  const noQueue =
    settings.nullTickets === true
      ? sql`${ticket.queueId} is null`
      : sql`(${ticket.queueId} is null and (not ${actsAsUser}${passes.length > 0 ? sql` or ${sql.join(passes, sql` or `)}` : sql``}))`;
  return sql`(${noQueue} or ${inQueue})`;
}

/** `rule` while the flag is on: nothing for a known false, the rule for a known true, else "flag and rule". */
function when(setting: boolean | SQL, rule: SQL): SQL | undefined {
  if (setting === false) return undefined;
  return setting === true ? rule : sql`(${setting} and ${rule})`;
}
