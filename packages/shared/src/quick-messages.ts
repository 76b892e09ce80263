/**
 * Quick messages (mensagens rápidas): product-spec §3 "Quick message", client-contract §8 `/fastreply`.
 * The key (the shortcut typed after `/`) is 1 to 60 characters without spaces (product-spec §9), unique per tenant
 * whatever its case; the message is required unless a file is attached, up to 4000 characters.
 */
import { z } from 'zod';
import { enabledFlagSchema, ENABLED_FLAGS } from './channels.js';
import { MESSAGE_BODY_MAX_LENGTH } from './messages.js';
import { looseBoolean } from './schemas.js';

export const QUICK_MESSAGE_KEY_MAX = 60;
export const QUICK_MESSAGE_TEXT_MAX = 4000;

export const quickMessageDtoSchema = z.object({
  id: z.number(),
  key: z.string(),
  message: z.string(),
  /** The public file name: the file is `{URL_API}/public/{tenantId}/{media}`. */
  media: z.string().nullable(),
  /** `enabled`: the file is a recorded voice note, sent as a ptt audio. */
  voice: z.enum(ENABLED_FLAGS),
  mediaType: z.string().nullable(),
  /** The absolute public URL of the file (our web app's convenience; clients may build it from `media`). */
  mediaUrl: z.string().nullable(),
  isActive: z.boolean(),
});
export type QuickMessageDto = z.infer<typeof quickMessageDtoSchema>;

/** `null`, `undefined` or empty: the clients' ways of saying "no file". */
const noneString = z.enum(['null', 'undefined', '']);

/**
 * The text fields of POST/PUT /fastreply (multipart or JSON). A leading `/` of the key is dropped (people type the
 * shortcut as they use it). `medias` as a string can only say "no new file" (the reference client sends `null` on
 * every save without a chosen file, edits included): on PUT it keeps the current file; `removeMedia=true` removes it.
 */
export const quickMessageFieldsSchema = z.object({
  key: z
    .string()
    .trim()
    .transform((v) => v.replace(/^\/+/, ''))
    .pipe(z.string().min(1).max(QUICK_MESSAGE_KEY_MAX).regex(/^\S+$/)),
  message: z.string().max(QUICK_MESSAGE_TEXT_MAX).optional(),
  medias: z.union([noneString, z.null()]).optional(),
  removeMedia: looseBoolean.optional(),
  voice: z.union([enabledFlagSchema, noneString.transform(() => 'disabled' as const)]).optional(),
  isActive: looseBoolean.optional(),
});
export type QuickMessageFields = z.output<typeof quickMessageFieldsSchema>;
export type QuickMessageInput = z.input<typeof quickMessageFieldsSchema>;

/** POST /messages/{ticketId} with a stored quick message's file: sent as media without a new upload. */
export const sendQuickMessageSchema = z.object({
  quickMessageId: z.coerce.number().int().positive(),
  /** The caption, its variables already filled by the client; the quick message's own text when absent. */
  body: z.string().max(MESSAGE_BODY_MAX_LENGTH).optional(),
  idFront: z.string().min(1).max(100).optional(),
});
export type SendQuickMessageInput = z.input<typeof sendQuickMessageSchema>;
export type SendQuickMessage = z.output<typeof sendQuickMessageSchema>;
