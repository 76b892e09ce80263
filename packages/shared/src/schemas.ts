import { z } from 'zod';
import { PROFILES, SIGNUP_PASSWORD_MIN } from './constants.js';
import { SETTING_KEYS } from './settings.js';
import { tenantFlagsSchema } from './tenant-flags.js';

/** Booleans arrive as strings in query strings and multipart bodies (client-contract §1). */
export const looseBoolean = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
export const idParam = z.coerce.number().int().positive();
export const idParamsSchema = z.object({ id: idParam });

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email()).pipe(z.string().max(254));
export const profileSchema = z.enum(PROFILES);

/** The one password rule (product-spec §5: sign-up, reset, users, preferences): 7+ characters, letter, number, symbol. */
export const strongPasswordSchema = z
  .string()
  .min(SIGNUP_PASSWORD_MIN, { message: 'ERR_WEAK_PASSWORD' })
  .max(128)
  .refine((v) => /[A-Za-z]/.test(v) && /\d/.test(v) && /[^A-Za-z0-9]/.test(v), { message: 'ERR_WEAK_PASSWORD' });

// ---------- auth ----------
export const captchaChallengeSchema = z.object({
  /** false when LOGIN_CAPTCHA=false: the login form then shows no slider and sends no captcha. */
  enabled: z.boolean(),
  /** Signed, single-use challenge id; it hides where the gap is. */
  token: z.string(),
  /** SVG data URLs: the background with a gap, and the piece that fills it. */
  background: z.string(),
  piece: z.string(),
  width: z.number(),
  height: z.number(),
  pieceSize: z.number(),
  pieceY: z.number(),
});
export type CaptchaChallenge = z.infer<typeof captchaChallengeSchema>;

/** The slider answer: the piece's left edge in pixels of the challenge's width. */
export const captchaAnswerSchema = z.object({ token: z.string().min(1).max(2048), x: z.number().min(0).max(10_000) });
export type CaptchaAnswer = z.infer<typeof captchaAnswerSchema>;

export const loginInputSchema = z.object({
  email: emailSchema,
  password: z.string().min(1).max(256),
  captcha: captchaAnswerSchema.optional(),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const userConfigsSchema = z.object({
  filtrosAtendimento: z.record(z.string(), z.unknown()).nullable().optional(),
  isDark: z.boolean().optional(),
  /** Sign my messages (`*<name>*:` before the text); the tenant's `signed` setting forces it on. */
  signature: z.boolean().optional(),
});
export type UserConfigs = z.infer<typeof userConfigsSchema>;

const refSchema = z.object({ id: z.number(), name: z.string() });

export const loginResponseSchema = z.object({
  token: z.string(),
  username: z.string(),
  email: z.string(),
  profile: profileSchema,
  userId: z.number(),
  tenantId: z.number(),
  queues: z.array(refSchema),
  blockWavoip: z.boolean(),
  whatsappAllowed: z.array(refSchema),
  configs: userConfigsSchema,
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const refreshResponseSchema = z.object({ token: z.string() });
export const passwordResetRequestSchema = z.object({ email: emailSchema });
export const resetPasswordInputSchema = z.object({
  token: z.string().min(10).max(512),
  password: strongPasswordSchema,
});

export const signupInputSchema = z.object({
  name: z.string().trim().min(2).max(120),
  cpfCnpj: z.string().trim().min(11).max(18),
  email: emailSchema,
  mobilePhone: z
    .string()
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(z.string().min(10).max(13)),
  password: strongPasswordSchema,
  planId: z.coerce.number().int().positive(),
  userName: z.string().trim().min(2).max(120).optional(),
  /** The slider answer, as the login's (absent when the captcha is off). */
  captcha: captchaAnswerSchema.optional(),
});
export type SignupInput = z.input<typeof signupInputSchema>;
/** POST /signup answers this for a new and a registered address alike: the rest goes by e-mail. */
export const signupAcceptedSchema = z.object({ status: z.literal('confirmation_sent') });
export type SignupAccepted = z.infer<typeof signupAcceptedSchema>;
export const signupConfirmInputSchema = z.object({ token: z.string().min(20).max(512) });

export const plansResponseSchema = z.object({ plan: z.array(z.lazy(() => planDtoSchema)) });

export const planDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  value: z.number(),
  connections: z.number(),
  users: z.number(),
  trial: z.enum(['enabled', 'disabled']),
  trialPeriod: z.number(),
});
export type PlanDto = z.infer<typeof planDtoSchema>;

// ---------- users ----------
export const userDtoSchema = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  profile: profileSchema,
  tenantId: z.number(),
  isOnline: z.boolean(),
  blockWavoip: z.boolean(),
  /** The user's queues; clients read the name as `queue` (client-contract §20.6) or `name`. */
  queues: z.array(refSchema.extend({ queue: z.string() })),
  whatsappAllowed: z.array(refSchema),
  configs: userConfigsSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserDto = z.infer<typeof userDtoSchema>;

export const userListQuerySchema = z.object({
  searchParam: z.string().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  rowsPerPage: z.coerce.number().int().min(1).max(200).optional(),
});
export const userListResponseSchema = z.object({
  users: z.array(userDtoSchema),
  count: z.number(),
  hasMore: z.boolean(),
});

/** GET /users/ for an agent: what a transfer needs (who, which queues, online), no e-mails or settings. */
export const transferUserDtoSchema = userDtoSchema.pick({
  id: true,
  name: true,
  profile: true,
  queues: true,
  isOnline: true,
});
export type TransferUserDto = z.infer<typeof transferUserDtoSchema>;
export const transferUserListResponseSchema = z.object({
  users: z.array(transferUserDtoSchema),
  count: z.number(),
  hasMore: z.boolean(),
});

/** Queues and channels arrive as ids or as the objects GET returned (client-contract §21.7). */
const idOrObjectList = z
  .array(z.union([z.coerce.number().int().positive(), z.object({ id: z.coerce.number().int().positive() }).loose()]))
  .transform((items) => items.map((item) => (typeof item === 'number' ? item : item.id)));

export const createUserInputSchema = z.object({
  name: z.string().trim().min(1).max(120),
  email: emailSchema,
  /** The product's one password rule (product-spec §5), as sign-up and reset: ERR_WEAK_PASSWORD. */
  password: strongPasswordSchema,
  profile: profileSchema.default('user'),
  blockWavoip: looseBoolean.optional().default(false),
  queues: idOrObjectList.optional(),
  whatsappAllowed: idOrObjectList.optional(),
});
export type CreateUserInput = z.input<typeof createUserInputSchema>;

export const updateUserInputSchema = z.object({
  name: z.string().trim().min(1).max(120).optional(),
  email: emailSchema.optional(),
  /** Empty keeps the current password; anything else follows the one rule (ERR_WEAK_PASSWORD). */
  password: z
    .string()
    .transform((v) => v || undefined)
    .pipe(strongPasswordSchema.optional())
    .optional(),
  /** Required when a user changes their own password or e-mail. */
  currentPassword: z
    .string()
    .max(256)
    .optional()
    .transform((v) => v || undefined),
  profile: profileSchema.optional(),
  blockWavoip: looseBoolean.optional(),
  queues: idOrObjectList.optional(),
  whatsappAllowed: idOrObjectList.optional(),
});
/** PUT /users/{id}: after one's own password change, the renewed session's access token (the refresh cookie is set). */
export const updateUserResponseSchema = userDtoSchema.extend({ token: z.string().optional() });
export type UpdateUserInput = z.input<typeof updateUserInputSchema>;

export const userOnlineInputSchema = z.object({ isOnline: looseBoolean });

export const userTenantDtoSchema = userDtoSchema.extend({ tenant: z.object({ id: z.number(), name: z.string() }) });
export const userTenantListResponseSchema = z.object({
  users: z.array(userTenantDtoSchema),
  count: z.number(),
  hasMore: z.boolean(),
});
/** GET /userTenants/: the users of every tenant, or of one (`tenantId`, the superadmin's company filter). */
export const userTenantListQuerySchema = userListQuerySchema.extend({ tenantId: idParam.optional() });
export const createUserTenantInputSchema = createUserInputSchema.extend({
  tenantId: z.coerce.number().int().positive(),
});
export const updateUserTenantInputSchema = updateUserInputSchema.extend({
  tenantId: z.coerce.number().int().positive(),
});
export const deleteUserTenantInputSchema = z.object({ tenantId: z.coerce.number().int().positive() });

export const chatPrivadoUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  profile: profileSchema,
  isOnline: z.boolean(),
  count: z.number(),
  text: z.string().nullable(),
  timestamp: z.number().nullable(),
  read: z.boolean().nullable(),
  senderId: z.number().nullable(),
});

// ---------- settings ----------
/** `configured` comes only with write-only keys (SECRET_SETTING_KEYS), whose `value` is always ''. */
export const settingDtoSchema = z.object({ key: z.string(), value: z.string(), configured: z.boolean().optional() });
export type SettingDto = z.infer<typeof settingDtoSchema>;
export const updateSettingInputSchema = z.object({
  key: z.enum(SETTING_KEYS as [string, ...string[]]),
  value: z.string().max(4000),
});

// ---------- tenants ----------
export const tenantDtoSchema = z.object({
  id: z.number(),
  status: z.enum(['active', 'inactive']),
  name: z.string(),
  identity: z.string().nullable(),
  maxUsers: z.number(),
  maxConnections: z.number(),
  trial: z.enum(['enabled', 'disabled']),
  trialPeriod: z.number(),
  hideUnoficial: z.boolean(),
  /** Null = the installation's default quota. */
  mediaQuotaBytes: z.number().nullable(),
  /** Gateway defaults (client-contract §10); the Evolution key is write-only: only whether one is stored. */
  wuzapiHost: z.string().nullable(),
  evoHost: z.string().nullable(),
  evoTokenConfigured: z.boolean(),
  /** Meta and hub tokens (issue 15), write-only like the Evolution key. */
  metaTokenConfigured: z.boolean(),
  wabaTokenConfigured: z.boolean(),
  hubTokenConfigured: z.boolean(),
  /** IANA zone in which the tenant's dates, business hours and schedules are read (the panel's "today", say). */
  timezone: z.string(),
  createdAt: z.string(),
});
export type TenantDto = z.infer<typeof tenantDtoSchema>;

// ---------- tenants (auth helper) ----------
/** Tenant counts arrive as numbers or numeric strings from the superadmin form. */
const tenantLimitSchema = z.coerce.number().int().min(0).max(1_000_000);
const tenantFields = {
  name: z.string().trim().min(1).max(120),
  status: z.enum(['active', 'inactive']),
  maxUsers: tenantLimitSchema,
  maxConnections: tenantLimitSchema,
  /** CPF/CNPJ or any document id; empty means none. */
  identity: z.string().trim().max(40).nullable(),
  trial: z.enum(['enabled', 'disabled']),
  trialPeriod: z.coerce.number().int().min(0).max(3650),
};

/** POST /tenants/ (superadmin). Extra fields the reference client sends (asaas*, metaToken, bmToken) are ignored. */
export const createTenantInputSchema = z.object({
  name: tenantFields.name,
  status: tenantFields.status.default('active'),
  maxUsers: tenantFields.maxUsers,
  maxConnections: tenantFields.maxConnections,
  identity: tenantFields.identity.optional(),
  trial: tenantFields.trial.default('disabled'),
  trialPeriod: tenantFields.trialPeriod.default(0),
});
export type CreateTenantInput = z.input<typeof createTenantInputSchema>;

/** PUT /tenantsUpdate/{id} (superadmin): the fields sent change, the others stay (no defaults here on purpose). */
export const updateTenantInputSchema = z.object({
  name: tenantFields.name.optional(),
  status: tenantFields.status.optional(),
  maxUsers: tenantFields.maxUsers.optional(),
  maxConnections: tenantFields.maxConnections.optional(),
  identity: tenantFields.identity.optional(),
  trial: tenantFields.trial.optional(),
  trialPeriod: tenantFields.trialPeriod.optional(),
  /** Media storage quota in bytes; null (or empty) = the installation's default (MEDIA_TENANT_QUOTA_BYTES). */
  mediaQuotaBytes: z
    .union([
      z.coerce
        .number()
        .int()
        .positive()
        .max(2 ** 50),
      z.null(),
      z.literal('').transform(() => null),
    ])
    .optional(),
});
export type UpdateTenantInput = z.input<typeof updateTenantInputSchema>;

/** GET /tenants/{anything}: the caller's own tenant, as a one-element array (client-contract §10, §21.11). */
export const ownTenantDtoSchema = tenantDtoSchema.merge(tenantFlagsSchema);
export type OwnTenantDto = z.infer<typeof ownTenantDtoSchema>;
/** With the tenant's toggles of client-contract §10 as fields (tenant-flags.ts). */
export const ownTenantResponseSchema = z.array(ownTenantDtoSchema).length(1);
export const tenantListResponseSchema = z.array(tenantDtoSchema);
