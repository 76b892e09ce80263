/** Channels (product-spec §3 "Session/channel", client-contract §7 and §20.5): DTOs and inputs. */
import { z } from 'zod';
import { distributionModeSchema } from './chat-flows.js';
import {
  CHANNEL_INTEGRATION_KEYS,
  READABLE_INTEGRATION_KEYS,
  keysWith,
  type ChannelFieldAccess,
  type ChannelIntegrationKey,
} from './channel-integrations.js';
import { looseBoolean } from './schemas.js';

export const ENABLED_FLAGS = ['enabled', 'disabled'] as const;
export type EnabledFlag = (typeof ENABLED_FLAGS)[number];
export const enabledFlagSchema = z.union([
  z.enum(ENABLED_FLAGS),
  looseBoolean.transform((v): EnabledFlag => (v ? 'enabled' : 'disabled')),
]);

export const CHANNEL_TYPES = [
  'waba',
  'baileys',
  'whatsapp',
  'meow',
  'evo',
  'telegram',
  'hub',
  'hub_facebook',
  'hub_instagram',
  'hub_email',
  'hub_telegram',
  'instagram',
  'messenger',
] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

/** Status values the clients understand (client-contract §7.2). */
export const CHANNEL_STATUSES = [
  'qrcode',
  'OPENING',
  'CONNECTED',
  'DISCONNECTED',
  'PAIRING',
  'TIMEOUT',
  'DESTROYED',
  'CONFLICT',
] as const;
export type ChannelStatus = (typeof CHANNEL_STATUSES)[number];

export {
  CHANNEL_INTEGRATION_ACCESS,
  CHANNEL_INTEGRATION_KEYS,
  READABLE_INTEGRATION_KEYS,
  SECRET_INTEGRATION_KEYS,
  type ChannelFieldAccess,
  type ChannelIntegrationKey,
  type ChannelIntegrations,
} from './channel-integrations.js';

export const CHANNEL_FLAG_KEYS = [
  'birthdayDate',
  'importMessages',
  'importOldMessagesGroups',
  'importGroupMessages',
  'closedTicketsPostImported',
  'webPush',
  'sendEvaluation',
  'transcribeAudio',
  'selfDistribute',
  'destroyMessage',
  'isButton',
  'wordlist',
  'disableExternalIntegration',
  'waitProcessExternalInteraction',
] as const;
export type ChannelFlagKey = (typeof CHANNEL_FLAG_KEYS)[number];

function flagShape<S extends z.ZodType>(schema: S): Record<ChannelFlagKey, S> {
  return Object.fromEntries(CHANNEL_FLAG_KEYS.map((key) => [key, schema])) as Record<ChannelFlagKey, S>;
}

export const channelDtoSchema = z.object({
  id: z.number(),
  tenantId: z.number(),
  name: z.string(),
  type: z.enum(CHANNEL_TYPES),
  number: z.string().nullable(),
  status: z.enum(CHANNEL_STATUSES),
  qrcode: z.string().nullable(),
  /** The code of a pairing-code login, shown while the status is PAIRING (an addition to the contract). */
  pairingCode: z.string().nullable(),
  retries: z.number(),
  profilePic: z.string().nullable(),
  isDefault: z.boolean(),
  isActive: z.boolean(),
  queueId: z.number().nullable(),
  userId: z.number().nullable(),
  chatFlowId: z.number().nullable(),
  wabaId: z.string().nullable(),
  wabaVersion: z.string(),
  wabaBSP: z.string().nullable(),
  instagramUser: z.string().nullable(),
  wppUser: z.string().nullable(),
  proxyUrl: z.string().nullable(),
  proxyUser: z.string().nullable(),
  webversion: z.string().nullable(),
  remotePath: z.string().nullable(),
  farewellMessage: z.string().nullable(),
  closeKeyWord: z.string().nullable(),
  webhook: z.string().nullable(),
  birthdayDateMessage: z.string().nullable(),
  birthdayDateHour: z.number().nullable(),
  bDateFileName: z.string().nullable(),
  importOldMessages: z.string().nullable(),
  importRecentMessages: z.string().nullable(),
  queueIdImportMessages: z.number().nullable(),
  ...flagShape(z.enum(ENABLED_FLAGS)),
  /**
   * How the channel's new unassigned tickets (without a queue that distributes) go to its online users: N none,
   * R random, B balanced (an addition to the contract). `selfDistribute` is enabled exactly when it is not N.
   */
  distribution: distributionModeSchema,
  /** Non-secret integration settings (secret keys are left out). */
  integrations: z.partialRecord(z.enum(READABLE_INTEGRATION_KEYS as [ChannelIntegrationKey]), z.string()),
  /** Which secret fields (CHANNEL_SECRET_FIELDS and SECRET_INTEGRATION_KEYS) hold a value. */
  configuredSecrets: z.array(z.string()),
  /**
   * Meta channels (waba, messenger, instagram): the callback URL and verify token to paste into Meta's app dashboard
   * (the token is derived from the channel's webhook secret, never the secret). Null for other types.
   */
  metaWebhook: z.object({ url: z.string(), verifyToken: z.string() }).nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ChannelDto = z.infer<typeof channelDtoSchema>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((v) => (v === '' ? null : v));
const optionalId = z
  .union([z.coerce.number().int().positive(), z.literal('').transform(() => null), z.null()])
  .optional();

/**
 * POST/PUT /whatsapp body. Clients echo the whole object back (client-contract §21.10): unknown keys are dropped,
 * read-only fields ignored. A secret left absent or empty on PUT keeps the stored one.
 */
export const channelInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  type: z.enum(CHANNEL_TYPES),
  number: optionalText(40),
  isDefault: looseBoolean.optional(),
  isActive: looseBoolean.optional(),
  queueId: optionalId,
  userId: optionalId,
  chatFlowId: optionalId,
  tokenTelegram: optionalText(200),
  tokenAPI: optionalText(500),
  metaAppSecret: optionalText(500),
  wabaId: optionalText(200),
  bmToken: optionalText(1000),
  wabaVersion: optionalText(20),
  wabaBSP: optionalText(60),
  instagramUser: optionalText(200),
  instagramKey: optionalText(500),
  wppUser: optionalText(200),
  wppPass: optionalText(500),
  proxyUrl: optionalText(500),
  proxyUser: optionalText(200),
  proxyPass: optionalText(500),
  webversion: optionalText(60),
  remotePath: optionalText(500),
  farewellMessage: optionalText(4000),
  closeKeyWord: optionalText(200),
  webhook: optionalText(1000),
  birthdayDateMessage: optionalText(4000),
  /** 0..23; 'HH:mm' is accepted and its minutes ignored. */
  birthdayDateHour: z
    .union([
      z.coerce.number().int().min(0).max(23),
      z
        .string()
        .regex(/^\d{1,2}:\d{2}$/)
        .transform((v) => Number(v.split(':')[0]))
        .pipe(z.number().int().min(0).max(23)),
      z.null(),
    ])
    .optional(),
  bDateFileName: optionalText(300),
  importOldMessages: z.iso.datetime({ offset: true }).nullable().optional(),
  importRecentMessages: z.iso.datetime({ offset: true }).nullable().optional(),
  queueIdImportMessages: optionalId,
  wavoipToken: optionalText(2000),
  ...flagShape(enabledFlagSchema.optional()),
  /**
   * Writing a new mode sets `selfDistribute` (enabled exactly when not N); without one, `selfDistribute` enabled
   * makes an N channel B and disabled makes it N. A mode equal to the stored one is no change (clients echo it).
   */
  distribution: distributionModeSchema.optional(),
  integrations: z.partialRecord(z.enum(CHANNEL_INTEGRATION_KEYS), z.string().max(20_000)).optional(),
});

export type ChannelInputParsed = z.output<typeof channelInputSchema>;
export type ChannelInput = z.input<typeof channelInputSchema>;

export const CHANNEL_FIELD_ACCESS = {
  name: 'readable',
  type: 'readable',
  number: 'readable',
  isDefault: 'readable',
  isActive: 'readable',
  queueId: 'readable',
  userId: 'readable',
  chatFlowId: 'readable',
  tokenTelegram: 'secret',
  tokenAPI: 'secret',
  metaAppSecret: 'secret',
  wabaId: 'readable',
  bmToken: 'secret',
  wabaVersion: 'readable',
  wabaBSP: 'readable',
  instagramUser: 'readable',
  instagramKey: 'secret',
  wppUser: 'readable',
  wppPass: 'secret',
  proxyUrl: 'readable',
  proxyUser: 'readable',
  proxyPass: 'secret',
  webversion: 'readable',
  remotePath: 'readable',
  farewellMessage: 'readable',
  closeKeyWord: 'readable',
  webhook: 'readable',
  birthdayDateMessage: 'readable',
  birthdayDateHour: 'readable',
  bDateFileName: 'readable',
  importOldMessages: 'readable',
  importRecentMessages: 'readable',
  queueIdImportMessages: 'readable',
  /** Voice-call tokens (a comma list): credentials of the call provider. */
  wavoipToken: 'secret',
  ...(Object.fromEntries(CHANNEL_FLAG_KEYS.map((key) => [key, 'readable'])) as Record<ChannelFlagKey, 'readable'>),
  distribution: 'readable',
  /** Per key in CHANNEL_INTEGRATION_ACCESS. */
  integrations: 'readable',
} as const satisfies Record<keyof ChannelInputParsed, ChannelFieldAccess>;

/** Write-only fields: never sent back; the DTO lists which are set in `configuredSecrets`. */
export const CHANNEL_SECRET_FIELDS = keysWith(CHANNEL_FIELD_ACCESS, 'secret');
export type ChannelSecretField = (typeof CHANNEL_SECRET_FIELDS)[number];

// The DTO is written out (its types differ from the input's), so the compiler checks it against the table instead.
type SecretsInDto = Extract<keyof ChannelDto, ChannelSecretField>;
const dtoHasNoSecret: [SecretsInDto] extends [never] ? true : SecretsInDto = true;
void dtoHasNoSecret;

/** NotificaMe hub channel types: `hub` is WhatsApp through the hub. */
export const HUB_CHANNEL_TYPES = [
  'hub',
  'hub_facebook',
  'hub_instagram',
  'hub_email',
  'hub_telegram',
] as const satisfies readonly ChannelType[];

/** Channel types this product can connect today; the add form shows the others disabled. */
export const SUPPORTED_CHANNEL_TYPES: readonly ChannelType[] = [
  'telegram',
  'baileys',
  'whatsapp',
  'evo',
  'meow',
  'waba',
  'messenger',
  'instagram',
  ...HUB_CHANNEL_TYPES,
];

/** Meta's official channels: webhooks signed with the app secret, the 24-hour customer-service window. */
export const META_CHANNEL_TYPES = ['waba', 'messenger', 'instagram'] as const satisfies readonly ChannelType[];
/** NotificaMe hub channels: `hub` and `hub_*` (client-contract §5.3: any type containing `hub`). */
export const isHubChannelType = (type: string): boolean => type === 'hub' || type.startsWith('hub_');
/** How long the customer-service window of an official channel stays open after the customer's last message. */
export const CUSTOMER_WINDOW_MS = 24 * 3600 * 1000;

/** `{T}:whatsappSession` payload fields (client-contract §19); also the answer of the /whatsappsession calls. */
export const channelSessionStateSchema = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string().nullable(),
  status: z.enum(CHANNEL_STATUSES),
  qrcode: z.string().nullable(),
  /** The code of a pairing-code login, shown while the status is PAIRING (an addition to the contract). */
  pairingCode: z.string().nullable(),
  retries: z.number(),
  updatedAt: z.string(),
});
export type ChannelSessionState = z.infer<typeof channelSessionStateSchema>;

/** `POST /setDefault` body: `{ whatsappId, …extra }` (client-contract §7.1). */
export const setDefaultChannelSchema = z.object({ whatsappId: z.coerce.number().int().positive() });

/** `PUT /whatsappsession/{id}` body `{ id, isQrcode }`: a new connection attempt (or QR code). */
export const restartSessionSchema = z
  .object({
    id: z.coerce.number().int().positive().optional(),
    isQrcode: looseBoolean.optional(),
    /**
     * QR channels: log in with a pairing code for this phone number (country code and number, digits) instead of a
     * QR code. An addition to the contract; absent means a QR login.
     */
    pairingNumber: z
      .string()
      .transform((value) => value.replace(/\D/g, ''))
      .pipe(z.string().regex(/^\d{10,15}$/))
      .optional(),
  })
  .optional();

/** `GET /whatsappTenantsAll` rows (superadmin): every tenant's channels without their settings. */
export const tenantChannelSummarySchema = z.object({
  id: z.number(),
  tenantId: z.number(),
  name: z.string(),
  type: z.enum(CHANNEL_TYPES),
  number: z.string().nullable(),
  status: z.enum(CHANNEL_STATUSES),
  isDefault: z.boolean(),
  updatedAt: z.string(),
});
export type TenantChannelSummary = z.infer<typeof tenantChannelSummarySchema>;
