/**
 * The parts of the NotificaMe hub API (https://hub.notificame.com.br/v1, header `X-API-Token`) this provider reads.
 * The hub publishes no schema; the shapes follow what its integrations send and receive (sources in ARCHITECTURE.md
 * "NotificaMe hub"): the n8n node `n8n-nodes-notificame-hub` (send bodies, `GET /templates/{channel}`,
 * `POST /subscriptions`), a Chatwoot integration (webhook samples of MESSAGE and MESSAGE_STATUS, the WhatsApp media
 * download `POST /channels/whatsapp/media`) and `GET /channels` answers. Objects are loose: the hub adds fields, and
 * an unknown field must never turn a customer's message into a 400.
 */
import { z } from 'zod';

/** Webhook times come as "2024-03-29 10:38:07 pm" (UTC), and sometimes as epoch seconds/ms or ISO strings. */
const hubTime = z.union([z.string().max(64), z.number()]).optional();

export const hubContentSchema = z
  .object({
    type: z.string().max(40),
    text: z.string().max(100_000).optional(),
    fileUrl: z.string().max(4000).optional(),
    /** Some channels (audio on Instagram) send `url` instead of `fileUrl`. */
    url: z.string().max(4000).optional(),
    fileMimeType: z.string().max(200).optional(),
    fileName: z.string().max(1000).optional(),
    fileCaption: z.string().max(100_000).optional(),
    latitude: z.union([z.number(), z.string().max(40)]).optional(),
    longitude: z.union([z.number(), z.string().max(40)]).optional(),
    name: z.string().max(1000).optional(),
    address: z.string().max(1000).optional(),
    /** Replies to buttons and lists carry the chosen option's title (and id). */
    payload: z.unknown().optional(),
  })
  .loose();
export type HubContent = z.infer<typeof hubContentSchema>;

const visitorSchema = z
  .object({
    name: z.string().max(1000).optional(),
    firstName: z.string().max(1000).optional(),
    lastName: z.string().max(1000).optional(),
    picture: z.string().max(4000).optional(),
  })
  .loose();

export const hubMessageSchema = z
  .object({
    id: z.string().min(1).max(200),
    from: z.string().min(1).max(400),
    to: z.string().max(400).optional(),
    direction: z.string().max(10).optional(),
    channel: z.string().max(40).optional(),
    visitor: visitorSchema.optional(),
    contents: z.array(hubContentSchema).max(50),
    timestamp: hubTime,
  })
  .loose();
export type HubMessage = z.infer<typeof hubMessageSchema>;

export const hubMessageEventSchema = z
  .object({
    type: z.literal('MESSAGE'),
    id: z.string().max(200).optional(),
    timestamp: hubTime,
    subscriptionId: z.string().max(200).optional(),
    channel: z.string().max(40).optional(),
    direction: z.string().max(10).optional(),
    message: hubMessageSchema,
  })
  .loose();

export const hubStatusEventSchema = z
  .object({
    type: z.literal('MESSAGE_STATUS'),
    timestamp: hubTime,
    subscriptionId: z.string().max(200).optional(),
    channel: z.string().max(40).optional(),
    messageId: z.string().min(1).max(200),
    contentIndex: z.number().int().optional(),
    messageStatus: z
      .object({
        timestamp: hubTime,
        code: z.string().max(40),
        description: z.string().max(2000).optional(),
        providerMessageId: z.string().max(400).optional(),
        error: z
          .object({ message: z.string().max(2000).optional() })
          .loose()
          .nullish(),
      })
      .loose(),
  })
  .loose();

/** Every webhook call names its kind; MESSAGE and MESSAGE_STATUS are then read by their own schema. */
export const hubWebhookKindSchema = z.object({ type: z.string().max(40) }).loose();

/** `GET /channels`: the account's channels (`id` is the token the send calls take as `from`). */
export const hubChannelListSchema = z.array(
  z.object({ id: z.string().min(1), name: z.string().default(''), channel: z.string().default('') }).loose(),
);
export type HubAccountChannel = z.infer<typeof hubChannelListSchema>[number];

/** `POST /channels/{channel}/messages` answers the hub's message id. */
export const hubSentSchema = z.object({ id: z.string().min(1) }).loose();

/** `POST /subscriptions` answers the subscription with its id. */
export const hubSubscriptionSchema = z.object({ id: z.string().min(1) }).loose();

/** `GET /templates/{channel}`: a bare array or Meta's `{ data: [...] }`. */
export const hubTemplateListSchema = z.union([
  z.array(z.unknown()),
  z.object({ data: z.array(z.unknown()) }).transform((answer) => answer.data),
]);
