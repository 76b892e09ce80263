/**
 * Zod schemas of what Meta sends us: Graph API answers (Cloud API endpoints the client calls) and the WhatsApp
 * Business Account webhook (`object: whatsapp_business_account`). Lenient where Meta adds fields (passthrough is not
 * needed: unknown keys are dropped), strict on the fields we read, with bounds so a hostile body cannot make us keep
 * huge strings.
 */
import { z } from 'zod';

/** Graph's error envelope: `{ error: { message, type, code, error_subcode, fbtrace_id, error_data } }`. */
export const graphErrorSchema = z.object({
  error: z.object({
    message: z.string().max(2000).catch(''),
    type: z.string().max(200).optional().catch(undefined),
    code: z.number().int().optional().catch(undefined),
    error_subcode: z.number().int().optional().catch(undefined),
    fbtrace_id: z.string().max(200).optional().catch(undefined),
    is_transient: z.boolean().optional().catch(undefined),
    error_data: z
      .object({ details: z.string().max(2000).optional() })
      .partial()
      .optional()
      .catch(undefined),
  }),
});
export type GraphError = z.infer<typeof graphErrorSchema>['error'];

/** `GET /{phone-number-id}`. */
export const graphPhoneSchema = z.object({
  id: z.string(),
  display_phone_number: z.string().max(40).optional(),
  verified_name: z.string().max(500).nullish(),
  quality_rating: z.string().max(40).optional(),
});

const paging = z.object({ next: z.string().url().optional() }).partial().optional();

/** A message template as Graph lists it under `/{waba-id}/message_templates`. */
export const graphTemplateSchema = z.object({
  id: z.string().max(100),
  name: z.string().max(512),
  language: z.string().max(20),
  status: z.string().max(40),
  category: z.string().max(60).nullish(),
  components: z.array(z.unknown()).max(50).default([]),
});
export type GraphTemplate = z.infer<typeof graphTemplateSchema>;
export const graphTemplatePageSchema = z.object({ data: z.array(graphTemplateSchema), paging });

export const graphBusinessPageSchema = z.object({
  data: z.array(z.object({ id: z.string().max(100), name: z.string().max(500).nullish() })),
  paging,
});
export const graphWabaPageSchema = graphBusinessPageSchema;
export const graphPhonePageSchema = z.object({ data: z.array(graphPhoneSchema), paging });

/** `POST /{phone-number-id}/messages`. */
export const graphSentSchema = z.object({
  messaging_product: z.literal('whatsapp').optional(),
  contacts: z.array(z.object({ input: z.string().optional(), wa_id: z.string().optional() })).optional(),
  messages: z.array(z.object({ id: z.string().min(1).max(200) })).min(1),
});

/** `POST /{phone-number-id}/media`. */
export const graphUploadSchema = z.object({ id: z.string().min(1).max(200) });

/** `GET /{media-id}`: a short-lived URL (bearer needed) and the file's facts. */
export const graphMediaSchema = z.object({
  url: z.string().url(),
  mime_type: z.string().max(200).optional(),
  file_size: z.coerce.number().int().nonnegative().optional(),
  id: z.string().optional(),
});

// ---------------------------------------------------------------------------------------------------------------
// Webhook (entry[].changes[].value)

const id = z.string().min(1).max(256);
const text = (max: number) => z.string().max(max);
/** Meta sends epoch seconds as a string. */
const seconds = z.union([z.string().regex(/^\d{1,12}$/), z.number().int().nonnegative()]).transform(Number);

const mediaObject = z.object({
  id,
  mime_type: text(200).optional(),
  sha256: text(200).optional(),
  caption: text(4096).optional(),
  filename: text(1024).optional(),
  voice: z.boolean().optional(),
  animated: z.boolean().optional(),
});

const contactCard = z.object({
  name: z
    .object({ formatted_name: text(1024).optional(), first_name: text(512).optional() })
    .partial()
    .optional(),
  phones: z
    .array(z.object({ phone: text(64).optional(), wa_id: text(64).optional(), type: text(64).optional() }))
    .max(20)
    .optional(),
  emails: z
    .array(z.object({ email: text(512).optional() }))
    .max(20)
    .optional(),
  org: z
    .object({ company: text(512).optional() })
    .partial()
    .optional(),
});

export const wabaInboundMessageSchema = z.object({
  id,
  /** The sender's phone (wa_id); absent for a user known only by a business-scoped user id. */
  from: text(64).optional(),
  /** Business-scoped user id (BSUID, e.g. `BR.1502576394655843`). */
  from_user_id: text(256).optional(),
  /** A message written in a group the business takes part in (Groups API): the group's id; `from` is the member. */
  group_id: text(256).optional(),
  timestamp: seconds,
  type: text(64),
  context: z
    .object({ id: text(256).optional(), from: text(64).optional(), forwarded: z.boolean().optional() })
    .optional(),
  text: z.object({ body: text(65536) }).optional(),
  image: mediaObject.optional(),
  audio: mediaObject.optional(),
  video: mediaObject.optional(),
  document: mediaObject.optional(),
  sticker: mediaObject.optional(),
  location: z
    .object({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      name: text(1024).optional(),
      address: text(2048).optional(),
    })
    .optional(),
  contacts: z.array(contactCard).max(20).optional(),
  interactive: z
    .object({
      type: text(64),
      button_reply: z.object({ id: text(256), title: text(256) }).optional(),
      list_reply: z.object({ id: text(256), title: text(256), description: text(1024).optional() }).optional(),
    })
    .optional(),
  button: z.object({ payload: text(1024).optional(), text: text(1024) }).optional(),
  reaction: z.object({ message_id: id, emoji: text(64).optional() }).optional(),
  /** Edits (WhatsApp Business app "coexistence" numbers): the original id and the new content. */
  edit: z
    .object({
      original_message_id: id,
      message: z
        .object({ text: z.object({ body: text(65536) }).optional(), caption: text(4096).optional() })
        .passthrough()
        .optional(),
    })
    .optional(),
  errors: z
    .array(z.object({ code: z.number().int().optional(), title: text(1024).optional() }))
    .max(10)
    .optional(),
});
export type WabaInboundMessage = z.infer<typeof wabaInboundMessageSchema>;

const statusError = z.object({
  code: z.number().int().optional(),
  title: text(1024).optional(),
  message: text(1024).optional(),
  error_data: z
    .object({ details: text(2048).optional() })
    .partial()
    .optional(),
});

export const wabaStatusSchema = z.object({
  id,
  status: z.enum(['sent', 'delivered', 'read', 'failed', 'deleted', 'warning', 'played']).or(text(40)),
  timestamp: seconds,
  recipient_id: text(64).optional(),
  recipient_user_id: text(256).optional(),
  conversation: z
    .object({ id: text(256).optional() })
    .partial()
    .optional(),
  pricing: z
    .object({ category: text(64).optional(), billable: z.boolean().optional() })
    .partial()
    .optional(),
  errors: z.array(statusError).max(10).optional(),
});
export type WabaStatus = z.infer<typeof wabaStatusSchema>;

export const wabaChangeValueSchema = z.object({
  messaging_product: z.literal('whatsapp').optional(),
  metadata: z.object({ display_phone_number: text(40).optional(), phone_number_id: id }),
  contacts: z
    .array(
      z.object({
        wa_id: text(64).optional(),
        user_id: text(256).optional(),
        profile: z
          .object({ name: text(1024).optional(), username: text(256).optional() })
          .partial()
          .optional(),
      }),
    )
    .max(100)
    .optional(),
  messages: z.array(wabaInboundMessageSchema).max(1000).optional(),
  statuses: z.array(wabaStatusSchema).max(1000).optional(),
  errors: z.array(statusError).max(10).optional(),
});
export type WabaChangeValue = z.infer<typeof wabaChangeValueSchema>;

export const wabaWebhookSchema = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z
    .array(
      z.object({
        id: text(100),
        changes: z.array(z.object({ field: text(100), value: z.unknown() })).max(100),
      }),
    )
    .max(100),
});
