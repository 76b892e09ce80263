/**
 * Wire shapes of the WhatsApp Cloud API (`waba`) calls of client-contract §7.2 / §5.3: channel verification, the
 * business managers of the tenant's Meta token, the template cache and the `/wabameta*` sends. The reference client
 * sends more fields than these (`from`, `tokenApi`, `read`, `fromMe`, ...): the bodies accept and ignore them; the
 * ticket named by `ticketId` decides the channel and the recipient.
 */
import { z } from 'zod';
import { messageDtoSchema } from './messages.js';

const ticketId = z.coerce.number().int().positive();
const idFront = z.string().min(1).max(100).optional();
/** The message replied to: its id, or the whole object the client echoes (only `id` is read). */
const quotedMsg = z
  .union([z.coerce.number().int().positive(), z.object({ id: z.coerce.number().int().positive() }).loose(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? null : typeof v === 'number' ? v : v.id));
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => v || null);

// ---- channel verification -------------------------------------------------------------------------------------

/**
 * `POST /wabametaVerifyPhone`: the form's credentials checked against Graph before the channel is saved. With
 * `whatsappId` (an existing channel) an empty token or business account id takes the stored one (secrets are
 * write-only in the form); an empty token without a channel takes the tenant's `wabaToken`.
 */
export const wabaVerifyPhoneSchema = z
  .object({
    tokenAPI: z.string().trim().max(1000).nullish(),
    wabaId: z.string().trim().min(1).max(64),
    bmToken: z.string().trim().max(64).nullish(),
    wabaVersion: z.string().trim().max(10).nullish(),
    whatsappId: z.coerce.number().int().positive().nullish(),
  })
  .loose();
export type WabaVerifyPhoneInput = z.input<typeof wabaVerifyPhoneSchema>;

export const wabaVerifyPhoneResponseSchema = z.object({
  ok: z.literal(true),
  /** The phone number Graph reports for the phone number id (digits). */
  number: z.string(),
  verifiedName: z.string().nullable(),
});
export type WabaVerifyPhoneResponse = z.infer<typeof wabaVerifyPhoneResponseSchema>;

export const wabaPhoneNumberSchema = z.object({
  id: z.string(),
  displayPhoneNumber: z.string(),
  verifiedName: z.string().nullable(),
});
export const wabaBusinessAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  phoneNumbers: z.array(wabaPhoneNumberSchema),
});
/** `POST /wabametaVerifyBms {}`: the WhatsApp Business Accounts (and their numbers) of the tenant's Meta token. */
export const wabaVerifyBmsResponseSchema = z.object({ data: z.array(wabaBusinessAccountSchema) });
export type WabaBusinessAccount = z.infer<typeof wabaBusinessAccountSchema>;
export type WabaVerifyBmsResponse = z.infer<typeof wabaVerifyBmsResponseSchema>;

// ---- templates ------------------------------------------------------------------------------------------------

export const wabaTemplateDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  language: z.string(),
  /** APPROVED, PENDING, REJECTED, PAUSED, DISABLED ... as Graph tells. */
  status: z.string(),
  category: z.string().nullable(),
  /** Graph's components (HEADER, BODY, FOOTER, BUTTONS) as received. */
  components: z.array(z.unknown()),
});
export type WabaTemplateDto = z.infer<typeof wabaTemplateDtoSchema>;

/** `GET /wabametaTemplate/{tokenApi}?refresh=`: `tokenApi` is the channel id, its phone number id or 'undefined'. */
export const wabaTemplateParamsSchema = z.object({ tokenApi: z.string().trim().min(1).max(200) });
export const wabaTemplateQuerySchema = z
  .object({
    refresh: z
      .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
      .optional()
      .transform((v) => v === true || v === 'true' || v === '1'),
  })
  .loose();
export const wabaTemplateListResponseSchema = z.object({ data: z.array(wabaTemplateDtoSchema) });
export type WabaTemplateListResponse = z.infer<typeof wabaTemplateListResponseSchema>;

/**
 * `POST /wabametaTemplateComponents` (client-contract §7.2): Graph's component objects as the client built them
 * (`{ type: 'body', parameters: [{ type: 'text', text }] }`, header media, button payloads). The reference client's
 * extra fields (`from`, `phone_number_id`, `body` as a JSON string, `mediaType`, `sendType`, ...) are ignored.
 */
export const wabaTemplateSendSchema = z
  .object({
    ticketId,
    idFront,
    templateName: z.string().trim().min(1).max(512),
    language: z.string().trim().min(2).max(15),
    components: z
      .array(z.object({ type: z.string().min(1).max(20) }).loose())
      .max(20)
      .default([]),
    quotedMsg,
  })
  .loose();
export type WabaTemplateSendInput = z.input<typeof wabaTemplateSendSchema>;

// ---- sends ----------------------------------------------------------------------------------------------------

/** `POST /wabametaText`: the §5.2 text fields plus `ticketId`. */
export const wabaTextSchema = z
  .object({
    ticketId,
    body: z.string().trim().min(1).max(4096),
    idFront,
    quotedMsg,
  })
  .loose();
export type WabaTextInput = z.input<typeof wabaTextSchema>;

export const WABA_URL_MEDIA_TYPES = ['image', 'video', 'audio', 'application', 'sticker'] as const;
const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/ }));

/** `POST /wabametaFileUrl`: a file Meta fetches from a public URL (no upload through this server). */
export const wabaFileUrlSchema = z
  .object({
    ticketId,
    url: httpUrl,
    mediaType: z.enum(WABA_URL_MEDIA_TYPES).optional(),
    caption: optionalText(1024),
    filename: optionalText(240),
    idFront,
  })
  .loose();
export type WabaFileUrlInput = z.input<typeof wabaFileUrlSchema>;

/** `POST /wabametaSticker` as JSON (the multipart form is the same as `/wabametaFile` with `isSticker`). */
export const wabaStickerUrlSchema = z.object({ ticketId, url: httpUrl, idFront }).loose();

/** Meta's limits of a reply-buttons message. */
export const WABA_BUTTON_LIMITS = { buttons: 3, title: 20, body: 1024, header: 60, footer: 60 } as const;

/** `POST /wabametaButton`: 1..3 reply buttons, titles of 1..20 characters, unique (case-insensitive). */
export const wabaButtonSchema = z
  .object({
    ticketId,
    body: z.string().trim().min(1).max(WABA_BUTTON_LIMITS.body),
    buttons: z
      .array(
        z.object({
          id: z.string().trim().max(256).nullish(),
          title: z.string().trim().min(1).max(WABA_BUTTON_LIMITS.title),
        }),
      )
      .min(1)
      .max(WABA_BUTTON_LIMITS.buttons)
      .refine((buttons) => new Set(buttons.map((b) => b.title.toLowerCase())).size === buttons.length, {
        message: 'ERR_VALIDATION',
      }),
    header: optionalText(WABA_BUTTON_LIMITS.header),
    footer: optionalText(WABA_BUTTON_LIMITS.footer),
    idFront,
  })
  .loose();
export type WabaButtonInput = z.input<typeof wabaButtonSchema>;

/** Meta's limits of a list message: 10 sections, 10 rows in all. */
export const WABA_LIST_LIMITS = {
  sections: 10,
  rows: 10,
  rowTitle: 24,
  rowDescription: 72,
  sectionTitle: 24,
  button: 20,
  body: 4096,
  header: 60,
  footer: 60,
} as const;

/** `POST /wabametaList`: a body, the label of the button that opens the list, and its sections of rows. */
export const wabaListSchema = z
  .object({
    ticketId,
    body: z.string().trim().min(1).max(WABA_LIST_LIMITS.body),
    button: z.string().trim().min(1).max(WABA_LIST_LIMITS.button),
    sections: z
      .array(
        z.object({
          title: optionalText(WABA_LIST_LIMITS.sectionTitle),
          rows: z
            .array(
              z.object({
                id: z.string().trim().max(200).nullish(),
                title: z.string().trim().min(1).max(WABA_LIST_LIMITS.rowTitle),
                description: optionalText(WABA_LIST_LIMITS.rowDescription),
              }),
            )
            .min(1),
        }),
      )
      .min(1)
      .max(WABA_LIST_LIMITS.sections)
      .refine((sections) => sections.reduce((n, s) => n + s.rows.length, 0) <= WABA_LIST_LIMITS.rows, {
        message: 'ERR_VALIDATION',
      }),
    header: optionalText(WABA_LIST_LIMITS.header),
    footer: optionalText(WABA_LIST_LIMITS.footer),
    idFront,
  })
  .loose();
export type WabaListInput = z.input<typeof wabaListSchema>;

/** `POST /wabametaReaction`: `messageId` is our message id or its provider id; an empty emoji removes it. */
export const wabaReactionSchema = z
  .object({
    ticketId,
    messageId: z.union([z.coerce.number().int().positive(), z.string().trim().min(1).max(200)]),
    emojiReaction: z.string().max(16),
  })
  .loose();
export type WabaReactionInput = z.input<typeof wabaReactionSchema>;

export const wabaSendResponseSchema = z.object({ data: messageDtoSchema });
export const wabaReactionResponseSchema = z.object({ ok: z.literal(true) });
