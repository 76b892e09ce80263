/** Tickets (product-spec §3/§4/§6/§7, client-contract §4 and §20.1/§20.2): DTOs, the attendance filter, bodies. */
import { z } from 'zod';
import { ENABLED_FLAGS, enabledFlagSchema } from './channels.js';
import { contactDtoSchema, contactIdentitySchema, contactWalletSchema } from './contacts.js';
import { looseBoolean } from './schemas.js';

export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/**
 * The log types clients know (client-contract §4.3), and the only ones the server writes: a reopen is `open`, a close
 * without farewell `closed` (details say `force`), a channel move `transfered` (details name the channels).
 */
export const TICKET_LOG_TYPES = [
  'access',
  'closed',
  'create',
  'delete',
  'open',
  'pending',
  'transfered',
  'receivedTransfer',
  'queue',
  'userDefine',
  'retriesLimitQueue',
  'retriesLimitUserDefine',
  'chatBot',
  'autoClose',
] as const;
export type TicketLogType = (typeof TICKET_LOG_TYPES)[number];

export const TICKET_INTEGRATION_FIELDS = [
  'difyStatus',
  'lmStatus',
  'n8nStatus',
  'typebotStatus',
  'dialogflowStatus',
  'chatgptStatus',
] as const;
export type TicketIntegrationField = (typeof TICKET_INTEGRATION_FIELDS)[number];

export const TICKETS_PAGE_SIZE = 40;
export const FAREWELL_CLOSE_DELAY_MS = 30_000;
export const BULK_RESOLVE_BATCH = 10;

/** Arrays arrive as `status[]=a&status[]=b`, `status=a`, or JSON strings; booleans as strings; `[true,false]` = no filter. */
const idArray = z.preprocess(
  (v) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : String(v).split(',')),
  z.array(z.coerce.number().int().positive()).max(500),
);
const filterBoolean = z.preprocess(
  (v) => (Array.isArray(v) ? (v.length === 1 ? v[0] : undefined) : v),
  looseBoolean.optional(),
);

/** The attendance filter (product-spec §3, client-contract §4.1) with its defaults. */
export const ticketListQuerySchema = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(10_000).optional().default(1),
  status: z
    .preprocess(
      (v) => (v === undefined || v === '' ? undefined : Array.isArray(v) ? v : String(v).split(',')),
      z.array(z.enum(TICKET_STATUSES)).min(1).max(3).optional(),
    )
    .transform((v) => v ?? (['open', 'pending'] as TicketStatus[])),
  showAll: filterBoolean.transform((v) => v ?? false),
  queuesIds: idArray,
  whatsappIds: idArray,
  selectedUser: idArray,
  withUnreadMessages: filterBoolean.transform((v) => v ?? false),
  isNotAssignedUser: filterBoolean.transform((v) => v ?? false),
  includeNotQueueDefined: filterBoolean.transform((v) => v ?? true),
  isGroup: filterBoolean,
});
export type TicketListQuery = z.output<typeof ticketListQuerySchema>;
export type TicketListQueryInput = z.input<typeof ticketListQuerySchema>;

/** The web's stored filter (users.configs.filtrosAtendimento). */
export const attendanceFilterSchema = z.object({
  searchParam: z.string().max(200).optional(),
  status: z.array(z.enum(TICKET_STATUSES)).optional(),
  showAll: z.boolean().optional(),
  queuesIds: z.array(z.number()).optional(),
  whatsappIds: z.array(z.number()).optional(),
  selectedUser: z.array(z.number()).optional(),
  tags: z.array(z.number()).optional(),
  kanbans: z.array(z.number()).optional(),
  withUnreadMessages: z.boolean().optional(),
  isNotAssignedUser: z.boolean().optional(),
  includeNotQueueDefined: z.boolean().optional(),
});
export type AttendanceFilter = z.infer<typeof attendanceFilterSchema>;

const integrationStatuses = Object.fromEntries(
  TICKET_INTEGRATION_FIELDS.map((f) => [f, z.enum(ENABLED_FLAGS)]),
) as Record<TicketIntegrationField, z.ZodEnum<{ enabled: 'enabled'; disabled: 'disabled' }>>;

/** A ticket list row (client-contract §20.1). */
export const ticketListItemSchema = z.object({
  id: z.number(),
  status: z.enum(TICKET_STATUSES),
  contactId: z.number(),
  name: z.string(),
  profilePicUrl: z.string().nullable(),
  userId: z.number().nullable(),
  username: z.string().nullable(),
  queueId: z.number().nullable(),
  /** Queue name. */
  queue: z.string().nullable(),
  whatsappId: z.number().nullable(),
  whatsapp: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** Channel type (logo). */
  channel: z.string(),
  isGroup: z.boolean(),
  unreadMessages: z.number(),
  answered: z.boolean(),
  lastMessage: z.string().nullable(),
  /** Epoch milliseconds. */
  lastMessageAt: z.number().nullable(),
  updatedAt: z.string(),
  createdAt: z.string(),
  protocol: z.string(),
  kanban: z.number().nullable(),
  tags: z.array(z.object({ id: z.number(), tag: z.string(), color: z.string() })),
  contact: contactIdentitySchema.extend({ wallets: z.array(contactWalletSchema) }),
  chatFlowId: z.number().nullable(),
  stepChatFlow: z.string().nullable(),
  autoReplyId: z.number().nullable(),
  stepAutoReplyId: z.number().nullable(),
  isTransference: z.boolean(),
  ...integrationStatuses,
});
export type TicketListItem = z.infer<typeof ticketListItemSchema>;

/** `GET /tickets/{id}` and realtime ticket payloads (client-contract §20.2). */
export const ticketDtoSchema = ticketListItemSchema.extend({
  tenantId: z.number(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  contact: contactDtoSchema,
  whatsapp: z
    .object({
      id: z.number(),
      name: z.string(),
      type: z.string(),
      status: z.string(),
      sendEvaluation: z.enum(ENABLED_FLAGS),
    })
    .nullable(),
  /** Pending scheduled messages (filled once scheduling lands). */
  scheduledMessages: z.array(z.unknown()),
  reasons: z.number().nullable(),
  value: z.number().nullable(),
  lastMessageReceived: z.number().nullable(),
  isFarewellMessage: z.boolean(),
  closingAt: z.string().nullable(),
  closedAt: z.string().nullable(),
  /** The campaign this conversation answers (its name when the customer answered), or null (issue 25). */
  campaign: z.object({ id: z.number(), name: z.string() }).nullable(),
  /**
   * Official channels (waba, messenger, instagram): the customer-service window, open for 24 hours after the
   * customer's last message on that channel (ISO `until`; null when they never wrote). Absent for other channels.
   */
  customerWindow: z.object({ open: z.boolean(), until: z.string().nullable() }).nullable().optional(),
});
export type TicketDto = z.infer<typeof ticketDtoSchema>;

/**
 * The 409 ERR_OTHER_OPEN_TICKET of `POST /tickets` (client-contract §4.3). When the caller may see the contact's
 * active ticket: `error` is that ticket JSON-encoded (reference clients parse it and open the ticket), `code` the
 * catalogue code and `ticket` the ticket. When the caller may not see it, the plain error body: nothing of the ticket.
 */
export const ticketConflictSchema = z.union([
  z.object({ error: z.string(), code: z.literal('ERR_OTHER_OPEN_TICKET'), ticket: ticketDtoSchema }),
  z.object({ error: z.literal('ERR_OTHER_OPEN_TICKET') }),
]);
export type TicketConflictBody = z.infer<typeof ticketConflictSchema>;

/** The newest message of a ticket found by its text (`GET /tickets` with `searchParam`): the list shows and opens it. */
export const ticketSearchMatchSchema = z.object({ id: z.number(), body: z.string(), createdAt: z.string() });
export type TicketSearchMatch = z.infer<typeof ticketSearchMatchSchema>;

export const ticketListResponseSchema = z.object({
  tickets: z.array(ticketListItemSchema.extend({ searchMatch: ticketSearchMatchSchema.optional() })),
  /** Matching tickets, counted up to 1,000 (`countCapped` true beyond: the count runs the visibility policy per row). */
  count: z.number(),
  countCapped: z.boolean(),
  hasMore: z.boolean(),
});
export type TicketListResponse = z.infer<typeof ticketListResponseSchema>;

export const ticketLogDtoSchema = z.object({
  id: z.number(),
  type: z.enum(TICKET_LOG_TYPES),
  createdAt: z.string(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type TicketLogDto = z.infer<typeof ticketLogDtoSchema>;

const nullableId = z.union([z.coerce.number().int().positive(), z.null(), z.literal('').transform(() => null)]);

/**
 * `PUT /tickets/{id}`: status/userId transitions, transfer, and the allow-listed single fields of client-contract
 * §4.3. Unknown keys are dropped (clients echo whole objects).
 */
export const ticketUpdateSchema = z.object({
  status: z.enum(TICKET_STATUSES).optional(),
  userId: nullableId.optional(),
  queueId: nullableId.optional(),
  isTransference: z.union([looseBoolean, z.coerce.number()]).optional(),
  isFarewellMessage: looseBoolean.optional(),
  /** Resolve: send the channel's farewell (default true when the channel has one). */
  sendFarewell: looseBoolean.optional(),
  /** Resolve: the closing message picked or written in the resolve dialog, sent instead of the channel's. */
  farewellMessage: z.string().max(1000).optional(),
  reasons: nullableId.optional(),
  value: z.union([z.coerce.number().min(0).max(1e12), z.null()]).optional(),
  unreadMessages: z.coerce.number().int().min(0).max(1).optional(),
  whatsapp: nullableId.optional(),
  difyStatus: enabledFlagSchema.optional(),
  lmStatus: enabledFlagSchema.optional(),
  n8nStatus: enabledFlagSchema.optional(),
  typebotStatus: enabledFlagSchema.optional(),
  dialogflowStatus: enabledFlagSchema.optional(),
  chatgptStatus: enabledFlagSchema.optional(),
});
export type TicketUpdateInput = z.input<typeof ticketUpdateSchema>;

export const ticketCloseSchema = z.object({ status: z.literal('closed').optional(), userId: nullableId.optional() });
export const ticketChatBotSchema = z.object({ chatFlowId: nullableId });
export const ticketChannelIdSchema = z.object({
  whatsappId: z.coerce.number().int().positive(),
  channel: z.string().optional(),
});
export const ticketsChannelSchema = z.object({
  whatsappId: z.coerce.number().int().positive(),
  newWhatsappId: z.coerce.number().int().positive(),
  channel: z.string().optional(),
  newChannel: z.string().optional(),
});
/** `POST /closeAllOpen` and `/closeAllPending` (client-contract §7.1): the channel whose tickets close. */
export const closeAllSchema = z.object({ whatsappId: z.coerce.number().int().positive() });
export const ticketCreateSchema = z.object({
  contactId: z.coerce.number().int().positive(),
  /** Channel id (the clients' `channelId` / `whatsappId`). */
  channelId: z.coerce.number().int().positive().optional(),
  whatsappId: z.coerce.number().int().positive().optional(),
  channel: z.string().optional(),
  userId: nullableId.optional(),
  queueId: nullableId.optional(),
  status: z.enum(['open', 'pending']).optional(),
  isActiveDemand: looseBoolean.optional(),
});
export type TicketCreateInput = z.input<typeof ticketCreateSchema>;
