/**
 * Campaigns (product-spec §3 "Campaign", §4 states, §5 rules, §9 up to three messages; client-contract §12
 * `/campaigns`). A campaign is one of the outbound engine's lists: recipients, a message chosen per recipient, sends
 * paced on one channel.
 *
 * The client sends the form as multipart strings (`null` arrives as the string `'null'`); the JSON body of our web
 * client carries the same fields. `start` is the contract's wall-clock `yyyy-MM-dd HH:mm` (or `T`) in the company's
 * time zone, or an ISO-8601 instant.
 */
import { z } from 'zod';
import { contactTagSchema } from './contacts.js';

/** product-spec §4: pending -> scheduled -> processing -> finished; canceled from pending, scheduled or processing. */
export const CAMPAIGN_STATUSES = ['pending', 'scheduled', 'processing', 'canceled', 'finished'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];
/** product-spec §5: only these may be edited or scheduled. */
export const CAMPAIGN_EDITABLE_STATUSES: readonly CampaignStatus[] = ['pending', 'canceled'];

/** product-spec §9. */
export const CAMPAIGN_MESSAGES_MAX = 3;
/** Seconds between two sends of a campaign when the form names none, and the bounds a form may name. */
export const CAMPAIGN_DEFAULT_DELAY_SECONDS = 20;
export const CAMPAIGN_MIN_DELAY_SECONDS = 1;
export const CAMPAIGN_MAX_DELAY_SECONDS = 3600;
/** product-spec §9: recipients reporting spam above this share block a number (shown before a start). */
export const SPAM_WARNING_PERCENT = 2;

/**
 * A recipient's delivery state (product-spec §4 names delivered, pending and failed; sent and read are the acks in
 * between and after, as every channel reports them).
 */
export const CAMPAIGN_DELIVERY_STATES = ['pending', 'sent', 'delivered', 'read', 'failed'] as const;
export type CampaignDeliveryState = (typeof CAMPAIGN_DELIVERY_STATES)[number];

/** How the messages are chosen per recipient: in turn (1, 2, 3, 1...) or at random (the spec's anti-spam variation). */
export const CAMPAIGN_MESSAGE_ORDERS = ['rotate', 'random'] as const;
export type CampaignMessageOrder = (typeof CAMPAIGN_MESSAGE_ORDERS)[number];

/** A form field: the multipart string `'null'` and the empty string read as absent. */
const nullableText = (max: number) =>
  z.preprocess(
    (value) => (value === 'null' || value === 'undefined' || value === '' ? null : value),
    z.string().max(max).nullable().optional(),
  );
const nullableId = z.preprocess(
  (value) => (value === 'null' || value === '' || value === undefined ? null : value),
  z.coerce.number().int().positive().nullable(),
);

export const campaignInputSchema = z.object({
  name: z.string().trim().min(1).max(200),
  /** Required to schedule (product-spec §5), optional while the campaign is a draft. */
  start: nullableText(40),
  sessionId: nullableId,
  delay: z.preprocess(
    (value) => (value === 'null' || value === '' || value === undefined || value === null ? undefined : value),
    z.coerce
      .number()
      .int()
      .min(CAMPAIGN_MIN_DELAY_SECONDS)
      .max(CAMPAIGN_MAX_DELAY_SECONDS)
      .default(CAMPAIGN_DEFAULT_DELAY_SECONDS),
  ),
  message1: nullableText(4096),
  message2: nullableText(4096),
  message3: nullableText(4096),
  mediaUrl: nullableText(2048),
  queueId: nullableId.optional(),
  messageOrder: z.enum(CAMPAIGN_MESSAGE_ORDERS).optional(),
});
export type CampaignInput = z.output<typeof campaignInputSchema>;

export const campaignDtoSchema = z.object({
  id: z.number(),
  tenantId: z.number(),
  name: z.string(),
  /** The start instant (ISO), or null for a draft without one. */
  start: z.string().nullable(),
  status: z.enum(CAMPAIGN_STATUSES),
  sessionId: z.number().nullable(),
  delay: z.number(),
  message1: z.string().nullable(),
  message2: z.string().nullable(),
  message3: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaType: z.string().nullable(),
  queueId: z.number().nullable(),
  messageOrder: z.enum(CAMPAIGN_MESSAGE_ORDERS),
  userId: z.number().nullable(),
  contactsCount: z.number(),
  /** Recipients not sent yet. */
  pendentesEnvio: z.number(),
  /** Sent, not yet delivered. */
  pendentesEntrega: z.number(),
  /** Delivered (read included). */
  recebidas: z.number(),
  lidas: z.number(),
  failed: z.number(),
  /** Recipients left out at the send: opted out, blocked, or no longer reachable. */
  skipped: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CampaignDto = z.infer<typeof campaignDtoSchema>;
export const campaignListResponseSchema = z.array(campaignDtoSchema);

/** One recipient row, as `campaignContacts[]` of a contact carries it (client-contract §12). */
export const campaignContactDtoSchema = z.object({
  id: z.number(),
  campaignId: z.number(),
  contactId: z.number(),
  state: z.enum(CAMPAIGN_DELIVERY_STATES),
  /** The ack of the sent message (0 queued, 1 sent, 2 delivered, 3 read), as the ancestor's rows carried it. */
  ack: z.number(),
  /** The message chosen for this recipient (1-3), once sent. */
  messageRandom: z.number().nullable(),
  body: z.string().nullable(),
  messageId: z.number().nullable(),
  ticketId: z.number().nullable(),
  reason: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type CampaignContactDto = z.infer<typeof campaignContactDtoSchema>;

export const campaignRecipientDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string().nullable(),
  tags: z.array(contactTagSchema),
  campaignContacts: z.array(campaignContactDtoSchema),
});
export type CampaignRecipientDto = z.infer<typeof campaignRecipientDtoSchema>;
export const campaignRecipientListSchema = z.array(campaignRecipientDtoSchema);

/** `POST /campaigns/contacts/{id}`: the contacts to add (the client sends whole contact objects; only `id` is read). */
export const campaignContactsAddSchema = z
  .array(z.object({ id: z.coerce.number().int().positive() }).loose())
  .min(1)
  .max(50_000);

/** `POST /campaigns/{id}/contacts/tags` (ours): every contact of these tags. */
export const campaignContactsByTagsSchema = z.object({ tagIds: z.array(z.number().int().positive()).min(1).max(100) });

export const campaignDuplicateResponseSchema = z.object({ status: z.literal('success'), data: campaignDtoSchema });
