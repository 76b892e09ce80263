/**
 * The parts of the Telegram Bot API (https://core.telegram.org/bots/api) this adapter reads. Objects are loose:
 * Telegram adds fields often, and an unknown field must never turn a customer's message into a 400.
 */
import { z } from 'zod';

export const telegramUserSchema = z
  .object({
    id: z.number().int(),
    is_bot: z.boolean().optional(),
    first_name: z.string(),
    last_name: z.string().optional(),
    username: z.string().optional(),
  })
  .loose();

export const telegramChatSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(['private', 'group', 'supergroup', 'channel']),
    title: z.string().optional(),
    username: z.string().optional(),
    first_name: z.string().optional(),
    last_name: z.string().optional(),
  })
  .loose();

const fileSchema = z
  .object({
    file_id: z.string().min(1),
    file_size: z.number().int().optional(),
    mime_type: z.string().optional(),
    file_name: z.string().optional(),
  })
  .loose();

const locationSchema = z.object({ latitude: z.number(), longitude: z.number() }).loose();

export const telegramMessageSchema = z
  .object({
    message_id: z.number().int(),
    from: telegramUserSchema.optional(),
    chat: telegramChatSchema,
    date: z.number().int(),
    edit_date: z.number().int().optional(),
    text: z.string().optional(),
    caption: z.string().optional(),
    photo: z.array(fileSchema).optional(),
    document: fileSchema.optional(),
    audio: fileSchema.optional(),
    voice: fileSchema.optional(),
    video: fileSchema.optional(),
    video_note: fileSchema.optional(),
    animation: fileSchema.optional(),
    sticker: fileSchema.extend({ emoji: z.string().optional() }).optional(),
    location: locationSchema.optional(),
    venue: z.object({ location: locationSchema, title: z.string(), address: z.string() }).loose().optional(),
    contact: z
      .object({
        phone_number: z.string(),
        first_name: z.string(),
        last_name: z.string().optional(),
        vcard: z.string().optional(),
      })
      .loose()
      .optional(),
    reply_to_message: z.object({ message_id: z.number().int(), chat: telegramChatSchema }).loose().optional(),
  })
  .loose();
export type TelegramMessage = z.infer<typeof telegramMessageSchema>;
export type TelegramFile = z.infer<typeof fileSchema>;

export const telegramReactionUpdateSchema = z
  .object({
    chat: telegramChatSchema,
    message_id: z.number().int(),
    user: telegramUserSchema.optional(),
    date: z.number().int(),
    new_reaction: z.array(z.object({ type: z.string(), emoji: z.string().optional() }).loose()),
  })
  .loose();
export type TelegramReactionUpdate = z.infer<typeof telegramReactionUpdateSchema>;

export const telegramUpdateSchema = z
  .object({
    update_id: z.number().int(),
    message: telegramMessageSchema.optional(),
    edited_message: telegramMessageSchema.optional(),
    message_reaction: telegramReactionUpdateSchema.optional(),
  })
  .loose();
export type TelegramUpdate = z.infer<typeof telegramUpdateSchema>;

/** Every Bot API answer: `{ ok: true, result }` or `{ ok: false, error_code, description }`. */
export const telegramResponseSchema = z.union([
  z.object({ ok: z.literal(true), result: z.unknown() }),
  z.object({
    ok: z.literal(false),
    error_code: z.number().int(),
    description: z.string().default(''),
    parameters: z.object({ retry_after: z.number().optional() }).loose().optional(),
  }),
]);

export const telegramSentMessageSchema = z.object({ message_id: z.number().int(), date: z.number().int() }).loose();
export const telegramBotSchema = z
  .object({ id: z.number().int(), is_bot: z.boolean(), first_name: z.string(), username: z.string() })
  .loose();
export const telegramFileInfoSchema = z
  .object({ file_id: z.string(), file_path: z.string().optional(), file_size: z.number().optional() })
  .loose();

/** The updates the webhook asks for: what becomes messages, edits and reactions. */
export const TELEGRAM_ALLOWED_UPDATES = ['message', 'edited_message', 'message_reaction'] as const;

/** Bot API limits: a text message and a media caption. */
export const TELEGRAM_TEXT_MAX = 4096;
export const TELEGRAM_CAPTION_MAX = 1024;
