/**
 * Wire shapes of the Facebook page calls (client-contract §7.2): `POST /fb/register-pages` connects a Messenger or
 * Instagram channel to a page the user manages (the page list is read with the user's token from Facebook Login) and
 * `POST /fb/logout-pages` disconnects it. The reference client sends the whole channel object as `whatsapp`: only its
 * `id` is read, and the channel is re-loaded in the caller's tenant (never trusted from the body).
 */
import { z } from 'zod';
import { channelDtoSchema } from './channels.js';

/** A channel id, or the channel object the client echoes (only `id` is read). */
const channelRef = z
  .union([
    z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }).loose(),
  ])
  .transform((v) => (typeof v === 'number' ? v : v.id));

export const registerPagesSchema = z
  .object({
    whatsapp: channelRef,
    /** The Facebook user id (Facebook Login's `userID`) whose pages are listed. */
    accountId: z
      .string()
      .trim()
      .regex(/^\d{1,40}$/),
    /** The user access token of Facebook Login; used once, never stored. */
    userToken: z.string().trim().min(1).max(2_000),
  })
  .loose();
export type RegisterPagesInput = z.input<typeof registerPagesSchema>;

export const pageDetailSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The Instagram professional account linked to the page, when there is one. */
  instagramId: z.string().nullable(),
});
export type PageDetail = z.infer<typeof pageDetailSchema>;

export const registerPagesResponseSchema = z.object({
  page_details: z.array(pageDetailSchema),
  channel: channelDtoSchema,
});
export type RegisterPagesResponse = z.infer<typeof registerPagesResponseSchema>;

export const logoutPagesSchema = z.object({ whatsapp: channelRef }).loose();
export type LogoutPagesInput = z.input<typeof logoutPagesSchema>;

export const logoutPagesResponseSchema = z.object({ ok: z.literal(true) });
