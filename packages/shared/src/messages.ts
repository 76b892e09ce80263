/** Messages (product-spec §3 "Message", client-contract §5 and §20.3): DTOs and inputs. */
import { z } from 'zod';
import { contactIdentitySchema } from './contacts.js';
import { looseBoolean } from './schemas.js';
import { ticketDtoSchema } from './tickets.js';

export const MESSAGE_MEDIA_TYPES = [
  'chat',
  'image',
  'video',
  'audio',
  'ptt',
  'application',
  'sticker',
  'vcard',
  'location',
  'notes',
  'transcription',
  'transfer',
  // official channels (issue 15): a template sent, interactive sends (buttons, list) and the customer's choice of
  // one of their options, and a provider message type this product cannot show (stored as such, body says which)
  'templates',
  'button',
  'list',
  'interactive',
  'button_reply',
  'unsupported',
] as const;
export type MessageMediaType = (typeof MESSAGE_MEDIA_TYPES)[number];

/** received (inbound), pending (waiting to be sent or scheduled), sended (worked), canceled (scheduled, canceled). */
export const MESSAGE_STATUSES = ['received', 'pending', 'sended', 'canceled'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** The `sendType` of a message imported from a QR session's history at a login (its DTO carries `syncTime`). */
export const IMPORTED_SEND_TYPE = 'import';

export const MEDIA_STATUSES = ['none', 'pending', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

export const MESSAGES_PAGE_SIZE = 30;
export const FORWARD_MAX_MESSAGES = 10;
/**
 * The longest message text stored and sent (characters): agents' sends and edits past it are refused
 * (ERR_VALIDATION); a provider's inbound text past it is stored cut here, the whole text kept as a `.txt` file on the
 * same message (server: messages.body-cap.ts).
 */
export const MESSAGE_BODY_MAX_LENGTH = 20_000;
/** Largest upload or downloaded media accepted (bytes). */
export const MEDIA_MAX_BYTES = 64 * 1024 * 1024;
/** Media types accepted on upload (prefix match on the MIME type). */
export const MEDIA_ALLOWED_MIME_PREFIXES = ['image/', 'video/', 'audio/', 'application/', 'text/'] as const;

const quotedSchema = z.object({
  id: z.number(),
  messageId: z.string().nullable(),
  body: z.string(),
  mediaType: z.enum(MESSAGE_MEDIA_TYPES),
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  fromMe: z.boolean(),
  isDeleted: z.boolean(),
  contact: z.object({ name: z.string() }).nullable(),
});

export const messageDtoSchema = z.object({
  id: z.number(),
  messageId: z.string().nullable(),
  ticketId: z.number(),
  contactId: z.number(),
  body: z.string(),
  mediaType: z.enum(MESSAGE_MEDIA_TYPES),
  /** Signed, expiring URL of the stored media; null while it downloads or when there is none. */
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaMime: z.string().nullable(),
  mediaSize: z.number().nullable(),
  mediaStatus: z.enum(MEDIA_STATUSES),
  fromMe: z.boolean(),
  read: z.boolean(),
  ack: z.number(),
  status: z.enum(MESSAGE_STATUSES),
  sendType: z.string().nullable(),
  isDelayed: z.boolean(),
  /** Why the provider refused the message (undelivered, or a `failed` status of an official channel); else null. */
  sendError: z.string().nullable(),
  isDeleted: z.boolean(),
  deletedAt: z.string().nullable(),
  edition: z.string().nullable(),
  editedAt: z.string().nullable(),
  reaction: z.string().nullable(),
  reactionFromMe: z.string().nullable(),
  isSticker: z.boolean(),
  /** The id the sending client generated (client-contract §5.2), echoed so that client can swap its pending bubble. */
  idFront: z.string().nullable(),
  /** Location `{latitude, longitude, name?}` or vCard text, as JSON/text. */
  meta: z.string().nullable(),
  quotedMsg: quotedSchema.nullable(),
  /** Sender in groups. */
  contact: contactIdentitySchema.nullable(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** In the history, the summary that separates tickets; in socket events the whole ticket (messageEventDtoSchema). */
  ticket: z.object({
    id: z.number(),
    status: z.string(),
    userId: z.number().nullable(),
    unreadMessages: z.number(),
    answered: z.boolean(),
    createdAt: z.string(),
  }),
  scheduleDate: z.string().nullable(),
  timestamp: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Imported from the session's history (client-contract §20.3 `syncTime`): when it was imported; else null. */
  syncTime: z.string().nullable().optional(),
});
export type MessageDto = z.infer<typeof messageDtoSchema>;

/**
 * A message as `chat:create|update|ack|delete` carry it (client-contract §19): its ticket is the whole ticket (the
 * list row's fields and more), which clients merge into their list and read unguarded.
 */
export const messageEventDtoSchema = messageDtoSchema.extend({ ticket: ticketDtoSchema });
export type MessageEventDto = z.infer<typeof messageEventDtoSchema>;

export const messageListQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export const messageListResponseSchema = z.object({
  messages: z.array(messageDtoSchema),
  /** Messages waiting to be sent (pending, not scheduled). */
  messagesOffLine: z.array(messageDtoSchema),
  hasMore: z.boolean(),
});
export type MessageListResponse = z.infer<typeof messageListResponseSchema>;

/** `POST /messages/{ticketId}` JSON body (client-contract §5.2); unknown keys dropped. */
export const sendMessageSchema = z.object({
  body: z.string().max(MESSAGE_BODY_MAX_LENGTH),
  fromMe: looseBoolean.optional(),
  read: z.union([looseBoolean, z.coerce.number()]).optional(),
  mediaUrl: z.string().max(0).optional(),
  /** The message replied to: its id (or the whole object the client echoes). */
  quotedMsg: z
    .union([z.coerce.number().int().positive(), z.object({ id: z.coerce.number().int().positive() }).loose(), z.null()])
    .optional()
    .transform((v) => (v === null || v === undefined ? null : typeof v === 'number' ? v : v.id)),
  idFront: z.string().min(1).max(100).optional(),
  sendType: z.enum(['farewell', 'evaluation', 'protocol', 'templates', 'chat']).optional(),
  scheduleDate: z.null().optional(),
});
export type SendMessageInput = z.input<typeof sendMessageSchema>;

export const deleteMessageSchema = z.object({
  id: z.coerce.number().int().positive(),
  messageId: z.string().max(200).nullable().optional(),
});
export const editMessageSchema = z.object({
  messageId: z.union([z.coerce.number().int().positive(), z.string().min(1).max(200)]),
  ticketId: z.coerce.number().int().positive(),
  body: z.string().max(MESSAGE_BODY_MAX_LENGTH).optional(),
  newBody: z.string().min(1).max(MESSAGE_BODY_MAX_LENGTH),
});
export const patchMessageSchema = z.object({ body: z.string().min(1).max(MESSAGE_BODY_MAX_LENGTH) });
export const reactionMessageSchema = z.object({
  messageId: z.union([z.coerce.number().int().positive(), z.string().min(1).max(200)]),
  ticketId: z.coerce.number().int().positive(),
  /** An emoji; empty removes the reaction. */
  reaction: z.string().max(16),
});
export const forwardMessagesSchema = z.object({
  messages: z
    .array(z.union([z.coerce.number().int().positive(), z.object({ id: z.coerce.number().int().positive() }).loose()]))
    .min(1)
    .max(FORWARD_MAX_MESSAGES)
    .transform((items) => items.map((item) => (typeof item === 'number' ? item : item.id))),
  contact: z
    .union([z.coerce.number().int().positive(), z.object({ id: z.coerce.number().int().positive() }).loose()])
    .transform((v) => (typeof v === 'number' ? v : v.id)),
});
export const searchMessageQuerySchema = z.object({
  searchTerm: z.string().trim().min(1).max(200),
  pageNumber: z.coerce.number().int().min(1).max(1_000).optional().default(1),
});
export const searchMessageResponseSchema = z.object({
  tickets: z.array(
    z.object({
      id: z.number(),
      status: z.string(),
      channel: z.string(),
      isGroup: z.boolean(),
      whatsappId: z.number().nullable(),
      lastMessage: z.string().nullable(),
      name: z.string(),
      /** The matching message. */
      message: z.object({ id: z.number(), body: z.string(), createdAt: z.string() }),
    }),
  ),
  hasMore: z.boolean(),
});

/**
 * What an official channel sends beyond a body and a stored file (stored on the message, handed to the adapter by the
 * send job). Templates carry Graph's component objects as the client built them (client-contract §7.2).
 */
export type OutboundPayload =
  | { kind: 'template'; name: string; language: string; components: unknown[] }
  | {
      kind: 'buttons';
      body: string;
      header?: string | null;
      footer?: string | null;
      buttons: { id: string; title: string }[];
    }
  | {
      kind: 'list';
      body: string;
      header?: string | null;
      footer?: string | null;
      /** The label of the button that opens the list. */
      button: string;
      sections: { title: string; rows: { id: string; title: string; description?: string | null }[] }[];
    }
  | {
      kind: 'media-url';
      url: string;
      mediaType: 'image' | 'video' | 'audio' | 'application' | 'sticker';
      caption?: string | null;
      filename?: string | null;
    };
