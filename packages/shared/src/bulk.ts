/**
 * Mass sending (product-spec §2 `/massa`, §5 rules; client-contract §12 `/bulk/`, `/bulkVariable/`, `/bulkClose/`):
 * a batch of numbers sent one message each on one channel, paced by a random pause between `min` and `max` seconds.
 * A batch is a list of the outbound engine like a campaign (issue 25), started at once and listed apart.
 *
 * The contract's clients send numbers as typed, `min`/`max` as numbers or strings, and every option field even when
 * empty; the schemas read empty strings and the string `null` as absent.
 */
import { z } from 'zod';

/** Channel types whose contacts are phone numbers, where a batch of numbers can go (waba needs a template). */
export const BULK_CHANNEL_TYPES = ['baileys', 'whatsapp', 'meow', 'evo', 'hub'] as const;
/** Numbers one batch may hold. */
export const BULK_MAX_NUMBERS = 10_000;
export const BULK_MIN_SECONDS = 1;
export const BULK_MAX_SECONDS = 3600;
export const BULK_MESSAGE_MAX = 4000;

const absent = (value: unknown) =>
  value === '' || value === 'null' || value === 'undefined' || value === null ? undefined : value;
const optionalText = (max: number) => z.preprocess(absent, z.string().trim().max(max).optional());
const seconds = z.preprocess(absent, z.coerce.number().int().min(BULK_MIN_SECONDS).max(BULK_MAX_SECONDS));
const httpUrl = z.preprocess(
  absent,
  z
    .string()
    .trim()
    .max(2048)
    .refine((value) => /^https?:\/\/[^\s]+$/i.test(value))
    .optional(),
);

/** The digits of a number as typed ("+55 (11) 99999-0000"), or null when it is no phone number (8-15 digits). */
export function bulkNumberDigits(value: string): string | null {
  const digits = value.replace(/[\s()+.-]/g, '');
  return /^\d{8,15}$/.test(digits) ? digits : null;
}

/** The send options common to the tabs: a text, a media URL with its description, or an .ogg voice note URL. */
const sendOptions = {
  message: optionalText(BULK_MESSAGE_MAX),
  mediaUrl: httpUrl,
  mediaDescription: optionalText(1024),
  voiceUrl: httpUrl,
};

/** `POST /bulk/` and `/bulkClose/` (JSON). `ticketId`, `whatsappType`, `groups`, `idFront`, `sendType` are read and ignored. */
export const bulkSendSchema = z.object({
  whatsappId: z.preprocess(absent, z.coerce.number().int().positive()),
  arrayNumbers: z
    .array(z.union([z.string(), z.number()]).transform(String))
    .min(1)
    .max(BULK_MAX_NUMBERS),
  min: seconds,
  max: seconds,
  ...sendOptions,
});
export type BulkSend = z.output<typeof bulkSendSchema>;

/**
 * `POST /bulk/` naming a `ticketId`: one send into that ticket, at once (client-contract §8: the family's clients send a
 * quick message's file this way, its `mediaUrl`/`voiceUrl` being our public address of it). The caption is optional.
 */
export const bulkTicketSendSchema = z.object({
  ticketId: z.preprocess(absent, z.coerce.number().int().positive()),
  ...sendOptions,
  idFront: optionalText(100),
});
export type BulkTicketSend = z.output<typeof bulkTicketSendSchema>;

/** Whether a `/bulk/` body is the ticket send (a `ticketId` that is not empty). */
export const isBulkTicketSend = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && absent((body as { ticketId?: unknown }).ticketId) !== undefined;

/** `POST /bulkVariable/`: `number` holds one "number,var1,var2" line per recipient. */
export const bulkVariableSchema = z.object({
  whatsappId: z.preprocess(absent, z.coerce.number().int().positive()),
  number: z.string().max(2_000_000),
  min: seconds,
  max: seconds,
  ...sendOptions,
});
export type BulkVariable = z.output<typeof bulkVariableSchema>;

/** The text fields of the multipart `/bulkClose/` (its file is `medias`). */
export const bulkFormFieldsSchema = z.object({
  whatsappId: z.preprocess(absent, z.coerce.number().int().positive()),
  arrayNumbers: z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value.split(/[\s,;]+/).filter(Boolean);
    }
  }, bulkSendSchema.shape.arrayNumbers),
  min: seconds,
  max: seconds,
  message: optionalText(BULK_MESSAGE_MAX),
  mediaLocalDescription: optionalText(1024),
  voiceLocal: z.preprocess(absent, z.enum(['true', 'false', 'enabled', 'disabled']).optional()),
});
export type BulkFormFields = z.output<typeof bulkFormFieldsSchema>;

export const BULK_STATUSES = ['processing', 'finished', 'canceled'] as const;

export const bulkBatchDtoSchema = z.object({
  id: z.number(),
  status: z.enum(BULK_STATUSES),
  channelId: z.number().nullable(),
  userId: z.number().nullable(),
  total: z.number(),
  pendentesEnvio: z.number(),
  pendentesEntrega: z.number(),
  recebidas: z.number(),
  lidas: z.number(),
  failed: z.number(),
  skipped: z.number(),
  min: z.number(),
  max: z.number(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type BulkBatchDto = z.infer<typeof bulkBatchDtoSchema>;
export const bulkBatchListSchema = z.array(bulkBatchDtoSchema);
