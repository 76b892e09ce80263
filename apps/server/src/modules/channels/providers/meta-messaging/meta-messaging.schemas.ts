/**
 * The parts of Meta's Messenger Platform and Instagram Messaging webhooks and Graph answers this adapter reads.
 * Objects are loose (Meta adds fields often: an unknown one must never turn a customer's message into a 400), but
 * sizes are bounded: a hostile body cannot make us store megabytes of text or loop over millions of items.
 */
import { z } from 'zod';

/** Meta's text limit is 2,000 characters (Messenger) / 1,000 bytes (Instagram); we accept more, not unbounded. */
const TEXT_MAX = 20_000;
const id = z.string().min(1).max(200);
/** Ids are strings in Meta's payloads; a number (some older fixtures, hand-made tests) is read as its digits. */
const idLike = z.union([id, z.number().int().nonnegative()]).transform(String);
const url = z.string().max(4_000);

const attachmentPayloadSchema = z
  .object({
    url: url.optional(),
    title: z.string().max(1_000).optional(),
    sticker_id: z.union([z.number(), z.string().max(100)]).optional(),
    coordinates: z.object({ lat: z.number(), long: z.number() }).loose().optional(),
    reel_video_id: idLike.optional(),
  })
  .loose();

export const metaAttachmentSchema = z
  .object({
    type: z.string().max(50),
    title: z.string().max(1_000).optional(),
    url: url.optional(),
    payload: attachmentPayloadSchema.nullish(),
  })
  .loose();
export type MetaAttachment = z.infer<typeof metaAttachmentSchema>;

export const metaMessageSchema = z
  .object({
    mid: id,
    text: z.string().max(TEXT_MAX).optional(),
    is_echo: z.boolean().optional(),
    is_deleted: z.boolean().optional(),
    is_unsupported: z.boolean().optional(),
    app_id: idLike.optional(),
    metadata: z.string().max(1_000).optional(),
    quick_reply: z
      .object({ payload: z.string().max(1_000) })
      .loose()
      .optional(),
    reply_to: z
      .object({
        mid: id.optional(),
        story: z.object({ url: url.optional(), id: idLike.optional() }).loose().optional(),
      })
      .loose()
      .optional(),
    attachments: z.array(metaAttachmentSchema).max(50).optional(),
  })
  .loose();
export type MetaMessage = z.infer<typeof metaMessageSchema>;

export const metaMessagingSchema = z
  .object({
    sender: z.object({ id: idLike }).loose(),
    recipient: z.object({ id: idLike }).loose(),
    /** Epoch ms. */
    timestamp: z.number().nonnegative().optional(),
    message: metaMessageSchema.optional(),
    reaction: z
      .object({
        mid: id,
        action: z.enum(['react', 'unreact']),
        reaction: z.string().max(50).optional(),
        emoji: z.string().max(50).optional(),
      })
      .loose()
      .optional(),
    /** Messenger: everything up to `watermark` (epoch ms) was read; Instagram: the message `mid` was read. */
    read: z.object({ watermark: z.number().optional(), mid: id.optional() }).loose().optional(),
    delivery: z
      .object({ mids: z.array(id).max(1_000).optional(), watermark: z.number().optional() })
      .loose()
      .optional(),
    /** The customer edited a message: its mid and new text (`num_edit`: how many times; Messenger allows five). */
    message_edit: z
      .object({
        mid: id,
        text: z.string().max(TEXT_MAX),
        num_edit: z.union([z.number(), z.string().max(20)]).optional(),
      })
      .loose()
      .optional(),
    postback: z
      .object({
        title: z.string().max(1_000).optional(),
        payload: z.string().max(1_000).optional(),
        mid: id.optional(),
      })
      .loose()
      .optional(),
  })
  .loose();
export type MetaMessaging = z.infer<typeof metaMessagingSchema>;

export const metaWebhookSchema = z
  .object({
    object: z.string().max(50),
    entry: z
      .array(
        z
          .object({
            id: idLike,
            time: z.number().optional(),
            messaging: z.array(metaMessagingSchema).max(1_000).optional(),
          })
          .loose(),
      )
      .max(1_000),
  })
  .loose();
export type MetaWebhook = z.infer<typeof metaWebhookSchema>;

/** Graph errors: `{ error: { message, type, code, error_subcode } }`. */
export const graphErrorSchema = z
  .object({
    error: z
      .object({
        message: z.string().optional(),
        type: z.string().optional(),
        code: z.number().optional(),
        error_subcode: z.number().optional(),
      })
      .loose(),
  })
  .loose();

export const sendAnswerSchema = z
  .object({ recipient_id: z.string().optional(), message_id: z.string().min(1) })
  .loose();
export const attachmentUploadSchema = z.object({ attachment_id: z.string().min(1) }).loose();
export const graphNodeSchema = z.object({ id: idLike, name: z.string().optional() }).loose();
export const successSchema = z.object({ success: z.boolean() }).loose();

/** The User Profile API: Messenger answers first/last name, Instagram name and username. */
export const userProfileSchema = z
  .object({
    id: idLike.optional(),
    first_name: z.string().max(500).optional(),
    last_name: z.string().max(500).optional(),
    name: z.string().max(500).optional(),
    username: z.string().max(500).optional(),
    profile_pic: url.optional(),
  })
  .loose();
export type UserProfile = z.infer<typeof userProfileSchema>;

/** `GET /{user-id}/accounts?fields=id,name,access_token,instagram_business_account{id,username}`. */
export const pageAccountsSchema = z
  .object({
    data: z
      .array(
        z
          .object({
            id: idLike,
            name: z.string().max(500).default(''),
            access_token: z.string().min(1).max(2_000),
            instagram_business_account: z
              .object({ id: idLike, username: z.string().max(500).optional() })
              .loose()
              .nullish(),
          })
          .loose(),
      )
      .max(500),
  })
  .loose();
export type PageAccount = z.infer<typeof pageAccountsSchema>['data'][number];

export const SUBSCRIBED_FIELDS = [
  'messages',
  'messaging_postbacks',
  'message_echoes',
  'message_deliveries',
  'message_reads',
  'message_reactions',
] as const;
