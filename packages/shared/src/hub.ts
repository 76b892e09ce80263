/**
 * NotificaMe hub channels (client-contract §7.2 "Hub"): the hub's own channel names mapped to our channel types, and
 * the wire shapes of the `/hub-*` routes. The hub account is the tenant's (`hubToken`); each hub channel is reached by
 * its id (the "channel token" the hub's API takes as `from`), stored on our channel as `wabaId`.
 */
import { z } from 'zod';
import type { ChannelType, HUB_CHANNEL_TYPES } from './channels.js';

/** The hub's channel names we run as channels, and their types (WhatsApp through the hub is plain `hub`). */
export const HUB_TYPE_BY_NAME = {
  whatsapp: 'hub',
  facebook: 'hub_facebook',
  instagram: 'hub_instagram',
  email: 'hub_email',
  telegram: 'hub_telegram',
} as const satisfies Record<string, (typeof HUB_CHANNEL_TYPES)[number]>;
export type HubChannelName = keyof typeof HUB_TYPE_BY_NAME;
export const HUB_CHANNEL_NAMES = Object.keys(HUB_TYPE_BY_NAME) as HubChannelName[];

/** Our type for a hub channel name; null for the hub's channels we do not run (webchat, ...). */
export function hubChannelTypeOf(channel: string): ChannelType | null {
  return (HUB_TYPE_BY_NAME as Record<string, ChannelType>)[channel] ?? null;
}

/** The hub's channel name of one of our hub types (the path segment of its send call). */
export function hubChannelNameOf(type: ChannelType): HubChannelName | null {
  const found = Object.entries(HUB_TYPE_BY_NAME).find(([, t]) => t === type);
  return found ? (found[0] as HubChannelName) : null;
}

/** GET /hub-channel/: the hub account's channels, and the channel of ours that runs each (null: none yet). */
export const hubChannelSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The hub's channel name: whatsapp, instagram, facebook, email, telegram, ... */
  channel: z.string(),
  /** True when a channel of ours runs it and is connected. */
  connected: z.boolean(),
  whatsappId: z.number().nullable(),
});
export type HubChannelDto = z.infer<typeof hubChannelSchema>;
export const hubChannelListResponseSchema = z.object({ status: z.literal('ok'), data: z.array(hubChannelSchema) });

/** POST /hub-channel/: run one of the hub account's channels as a channel of ours. */
export const hubChannelCreateInputSchema = z
  .object({
    id: z.string().trim().min(1).max(200),
    name: z.string().trim().min(1).max(120),
    channel: z.string().trim().min(1).max(40),
  })
  .loose();

/** POST /hub-channel-setagain/ and /hub-template/: the channel of ours (`whatsappId`). */
export const hubWhatsappIdInputSchema = z.object({ whatsappId: z.coerce.number().int().positive() }).loose();
export const hubOkResponseSchema = z.object({ ok: z.literal(true) });

/** A template of a WhatsApp hub channel as the hub lists it (Meta's shape, passed through). */
export const hubTemplateSchema = z
  .object({
    id: z.union([z.string(), z.number()]).optional(),
    name: z.string(),
    language: z.string().optional(),
    status: z.string().optional(),
    category: z.string().nullish(),
    components: z.array(z.unknown()).optional(),
  })
  .loose();
export type HubTemplate = z.infer<typeof hubTemplateSchema>;
/** POST /hub-template/: the reference client reads `data.data[]`. */
export const hubTemplatesResponseSchema = z.object({ data: z.object({ data: z.array(hubTemplateSchema) }) });

/**
 * POST /send-template/ (client-contract §7.2): the ticket decides the channel and the recipient; `whatsappId`,
 * `recipientNumber`, `userId`, `fromMe`, `read` and the other echoed fields are accepted and ignored.
 */
export const hubSendTemplateInputSchema = z
  .object({
    ticketId: z.coerce.number().int().positive(),
    templateName: z.string().trim().min(1).max(512),
    language: z
      .union([z.string().trim().min(1).max(20), z.object({ code: z.string().trim().min(1).max(20) }).loose()])
      .transform((value) => (typeof value === 'string' ? value : value.code)),
    components: z.array(z.unknown()).max(20).default([]),
    body: z.string().max(20_000).nullish(),
    idFront: z.string().max(200).nullish(),
    quotedMsg: z.unknown().optional(),
  })
  .loose();
export type HubSendTemplateInput = z.infer<typeof hubSendTemplateInputSchema>;
