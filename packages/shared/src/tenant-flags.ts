/**
 * Tenant-level toggles (client-contract §10): stored in `tenants.flags` (jsonb), answered as fields of
 * `GET /tenants/{id}` and written one at a time by `PUT /tenants<Name>/{id} { id, <field>: value }`. Switches hold
 * `enabled`/`disabled` like the settings; limits are numbers. A flag never written has its default.
 */
import { z } from 'zod';

const toggle = z.enum(['enabled', 'disabled']);

export const TENANT_TOGGLE_DEFAULTS = {
  showChatBot: 'disabled',
  /**
   * Users (and supervisors acting as users) see tickets without a queue. Enabled by default: it is what the
   * installation did before the flag existed, and disabling it narrows an agent's list to the queues they serve.
   */
  nullTickets: 'enabled',
  fixConnections: 'disabled',
  forcePendingUser: 'disabled',
  noRedis: 'disabled',
  supervisorAdmin: 'disabled',
  groupTickets: 'disabled',
  updateNames: 'disabled',
  forceAdmin: 'disabled',
  serviceTransfer: 'disabled',
  forceOpenChatWindow: 'disabled',
  walletExternalInteraction: 'disabled',
  waitProcessExternalInteraction: 'disabled',
  showGroupsForAll: 'disabled',
  showClosedForAll: 'disabled',
  ignoreIgStories: 'disabled',
  baileysMediaPersist: 'disabled',
  audioPlugin: 'disabled',
  audioModule: 'disabled',
} as const satisfies Record<string, 'enabled' | 'disabled'>;

export const TENANT_LIMIT_DEFAULTS = {
  /** Absence-message sends per ticket. */
  maxRetries: 3,
  /** Internal chat page size. */
  privateMessageLimit: 20,
  /** Tickets fetched per page by the reference client. */
  ticketLimit: 40,
} as const;

export type TenantToggleKey = keyof typeof TENANT_TOGGLE_DEFAULTS;
export type TenantLimitKey = keyof typeof TENANT_LIMIT_DEFAULTS;
export type TenantFlagKey = TenantToggleKey | TenantLimitKey;

export const TENANT_TOGGLE_KEYS = Object.keys(TENANT_TOGGLE_DEFAULTS) as TenantToggleKey[];
export const TENANT_LIMIT_KEYS = Object.keys(TENANT_LIMIT_DEFAULTS) as TenantLimitKey[];

/** A switch as clients send it: the two strings, or a boolean (some forms bind a checkbox). */
export const tenantToggleValueSchema = z
  .union([toggle, z.boolean(), z.enum(['true', 'false'])])
  .transform((value): 'enabled' | 'disabled' =>
    value === true || value === 'true' || value === 'enabled' ? 'enabled' : 'disabled',
  );
export const tenantLimitValueSchema = z.coerce.number().int().min(1).max(1000);

const toggleFields = Object.fromEntries(
  TENANT_TOGGLE_KEYS.map((key) => [
    key,
    toggle.catch(TENANT_TOGGLE_DEFAULTS[key]).default(TENANT_TOGGLE_DEFAULTS[key]),
  ]),
) as { [K in TenantToggleKey]: z.ZodDefault<z.ZodCatch<typeof toggle>> };
const limitFields = Object.fromEntries(
  TENANT_LIMIT_KEYS.map((key) => [
    key,
    z.number().int().min(1).max(1000).catch(TENANT_LIMIT_DEFAULTS[key]).default(TENANT_LIMIT_DEFAULTS[key]),
  ]),
) as { [K in TenantLimitKey]: z.ZodDefault<z.ZodCatch<z.ZodNumber>> };

/**
 * The flags of a tenant with their defaults: parsing the stored jsonb (`{}` or partial, possibly with an older or
 * broken value) always gives every field, a broken value its default.
 */
export const tenantFlagsSchema = z.object({ ...toggleFields, ...limitFields });
export type TenantFlags = z.output<typeof tenantFlagsSchema>;

export function readTenantFlags(stored: unknown): TenantFlags {
  const parsed = tenantFlagsSchema.safeParse(stored && typeof stored === 'object' ? stored : {});
  return parsed.success ? parsed.data : tenantFlagsSchema.parse({});
}

/** The §10 toggle calls this server answers: path (without `/:id`) -> the one field it stores. */
export const TENANT_FLAG_PATHS = {
  '/tenantsShowChatbot': 'showChatBot',
  '/tenantsNullTickets': 'nullTickets',
  '/tenantsFixConnections': 'fixConnections',
  '/tenantsForcePending': 'forcePendingUser',
  '/tenantsNoRedis': 'noRedis',
  '/tenantsSupervisorAdmin': 'supervisorAdmin',
  '/tenantsGroupTickets': 'groupTickets',
  '/tenantsUpdateNames': 'updateNames',
  '/tenantsForceAdmin': 'forceAdmin',
  '/tenantsMaxRetries': 'maxRetries',
  '/tenantsPrivateMessageLimit': 'privateMessageLimit',
  '/tenantsTicketLimit': 'ticketLimit',
  '/tenantsServiceTransfer': 'serviceTransfer',
  '/tenantsWindowChat': 'forceOpenChatWindow',
  '/tenantsWalletExternal': 'walletExternalInteraction',
  '/tenantsWaitExternal': 'waitProcessExternalInteraction',
  '/tenantsShowGroupsForAll': 'showGroupsForAll',
  '/tenantsShowClosedForAll': 'showClosedForAll',
  '/tenantsIgnoreIgStories': 'ignoreIgStories',
  '/tenantsBailesyMediaPersist': 'baileysMediaPersist',
  '/tenantsAudioPlugin': 'audioPlugin',
  '/tenantsAudioModule': 'audioModule',
} as const satisfies Record<string, TenantFlagKey>;
export type TenantFlagPath = keyof typeof TENANT_FLAG_PATHS;

export const isTenantLimitKey = (key: TenantFlagKey): key is TenantLimitKey => key in TENANT_LIMIT_DEFAULTS;

/** The body of one toggle call: `{ id?, <field>: value }` (the id in the path is what counts). */
export function tenantFlagInputSchema(field: TenantFlagKey) {
  const value = isTenantLimitKey(field) ? tenantLimitValueSchema : tenantToggleValueSchema;
  return z.object({ id: z.unknown().optional(), [field]: value }) as z.ZodObject<
    {
      id: z.ZodOptional<z.ZodUnknown>;
    } & Record<string, typeof value>
  >;
}

/** The answer of a toggle call: the tenant id and all its flags. */
export const tenantFlagsResponseSchema = tenantFlagsSchema.extend({ id: z.number() });
export type TenantFlagsResponse = z.infer<typeof tenantFlagsResponseSchema>;
