/** Internal notifications (product-spec §3 "Notification", client-contract §16). */
import { z } from 'zod';
import { looseBoolean } from './schemas.js';

export const NOTIFICATIONS_PAGE_SIZE = 20;

/** What a notification points at; a mention in a note carries its ticket, note, author and an excerpt. */
export const notificationDataSchema = z.object({
  kind: z.string().optional(),
  ticketId: z.number().optional(),
  noteId: z.number().optional(),
  authorName: z.string().optional(),
  excerpt: z.string().optional(),
});
export type NotificationData = z.infer<typeof notificationDataSchema>;

export const notificationDtoSchema = z.object({
  id: z.number(),
  message: z.string(),
  /** The recipient; null = everyone in the tenant. */
  userId: z.number().nullable(),
  isRead: z.boolean(),
  createdAt: z.string(),
  /** The recipient's name (client-contract §16), null for a tenant-wide notification. */
  user: z.object({ name: z.string() }).nullable(),
  senderId: z.number().nullable(),
  data: notificationDataSchema,
});
export type NotificationDto = z.infer<typeof notificationDtoSchema>;

export const notificationListQuerySchema = z.object({
  pageNumber: z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  rowsPerPage: z.coerce.number().int().min(1).max(100).catch(NOTIFICATIONS_PAGE_SIZE).default(NOTIFICATIONS_PAGE_SIZE),
});

export const notificationListSchema = z.object({
  notifications: z.array(notificationDtoSchema),
  count: z.number(),
  /** The caller's own unread notifications (the bell's badge); tenant-wide ones are read or unread for all. */
  unread: z.number(),
  hasMore: z.boolean(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

/** PUT /notifications/{id}: `{ isRead, userId }` (userId echoed by clients, ignored). */
export const notificationUpdateSchema = z.object({ isRead: looseBoolean });

/** POST /notifications (admin): to one user of the tenant, or to everyone when userId is absent. */
export const notificationInputSchema = z.object({
  message: z.string().trim().min(1).max(1000),
  userId: z.coerce.number().int().positive().nullable().optional(),
});

/** `{T}:notification`, sent only to the recipient's sockets (every socket of the tenant for a tenant-wide one). */
export type NotificationEvent =
  | { action: 'create'; notification: NotificationDto }
  | { action: 'update'; notification: NotificationDto }
  | { action: 'delete'; notificationId: number }
  | { action: 'readAll' };
