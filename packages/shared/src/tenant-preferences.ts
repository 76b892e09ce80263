/**
 * Tenant preferences the reference client reads under static `/tenants/...` paths (client-contract §15, §18), with
 * their odd shapes: one-element arrays for business hours and rating, a bare array of one-key colour objects.
 */
import { z } from 'zod';

const time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:mm');

/** O: open all day; C: closed all day; H: open hr1-hr2 and hr3-hr4 (product-spec §6 "Business hours day type"). */
export const businessHoursDaySchema = z.object({
  day: z.coerce.number().int().min(0).max(6),
  label: z.string().max(40),
  type: z.enum(['O', 'C', 'H']),
  hr1: time,
  hr2: time,
  hr3: time,
  hr4: time,
});
export type BusinessHoursDay = z.infer<typeof businessHoursDaySchema>;

/** PUT /tenants/business-hours/: a bare array with each weekday once. */
export const businessHoursInputSchema = z
  .array(businessHoursDaySchema)
  .length(7)
  .refine((days) => new Set(days.map((d) => d.day)).size === 7, { message: 'each weekday once' });

export const messageBusinessHoursInputSchema = z.object({ messageBusinessHours: z.string().max(4000) });

const DAY_LABELS = ['Domingo', 'Segunda-feira', 'Terça-feira', 'Quarta-feira', 'Quinta-feira', 'Sexta-feira', 'Sábado'];
export const DEFAULT_BUSINESS_HOURS: BusinessHoursDay[] = DAY_LABELS.map((label, day) => ({
  day,
  label,
  type: 'O',
  hr1: '08:00',
  hr2: '12:00',
  hr3: '14:00',
  hr4: '18:00',
}));
export const DEFAULT_MESSAGE_BUSINESS_HOURS = '';

export const businessHoursResponseSchema = z.array(
  z.object({ businessHours: z.array(businessHoursDaySchema), messageBusinessHours: z.string() }),
);

export const ratingOptionSchema = z.object({
  rating: z.coerce.number().int().min(0).max(5),
  label: z.string().max(100),
});
export type RatingOption = z.infer<typeof ratingOptionSchema>;
/** PUT /tenants/rating/: a bare array of the options offered to the customer. */
export const ratingInputSchema = z.array(ratingOptionSchema).min(1).max(6);

/** product-spec §9: the scale is 0 to 5. */
export const DEFAULT_RATING: RatingOption[] = ['Ruim', 'Regular', 'Bom', 'Muito bom', 'Excelente', 'Incrível'].map(
  (label, rating) => ({ rating, label }),
);
/** The replies sent while collecting a rating: stored, invalid answer, one more attempt. */
export const DEFAULT_RATING_MESSAGES = {
  ratingStore: 'Obrigado! Sua avaliação foi registrada.',
  ratingStoreError: 'Não conseguimos registrar sua avaliação.',
  ratingStoreAttemp: 'Responda com um número de 0 a 5 para avaliar o atendimento.',
};

export const ratingResponseSchema = z.array(
  z.object({
    id: z.number(),
    rating: z.array(ratingOptionSchema),
    ratingStore: z.string(),
    ratingStoreAttemp: z.string(),
    ratingStoreError: z.string(),
    /** Invalid answers before the rating conversation ends (issue 14). */
    ratingAttempts: z.number(),
  }),
);

/** The colours a client applies as `--q-<key>` CSS variables, in the reference client's order. */
export const SYSTEM_COLOR_KEYS = [
  'primary',
  'secondary',
  'accent',
  'positive',
  'negative',
  'warning',
  'neutral',
  'light',
] as const;
export type SystemColorKey = (typeof SYSTEM_COLOR_KEYS)[number];

export const DEFAULT_SYSTEM_COLORS: Record<SystemColorKey, string> = {
  primary: '#228be6',
  secondary: '#f1f3f5',
  accent: '#be4bdb',
  positive: '#2f9e44',
  negative: '#e03131',
  warning: '#f59f00',
  neutral: '#e0e1e2',
  light: '#a5d8ff',
};

const hexColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, 'hex colour');
/** `{ label: 'Primary', primary: '#…' }`: one object per colour. */
export const systemColorSchema = z.object({ label: z.string().max(40) }).catchall(z.string());
export const systemColorsResponseSchema = z.array(systemColorSchema);
export type SystemColor = z.infer<typeof systemColorSchema>;

/** PUT /tenants/systemColors/: the same array; each object must carry one known colour key with a hex value. */
export const systemColorsInputSchema = z
  .array(z.object({ label: z.string().max(40) }).catchall(z.string().max(40)))
  .max(SYSTEM_COLOR_KEYS.length)
  .transform((items, ctx) => {
    const colors: Partial<Record<SystemColorKey, string>> = {};
    for (const item of items) {
      const key = SYSTEM_COLOR_KEYS.find((k) => item[k] !== undefined);
      const value = key ? item[key] : undefined;
      if (!key || !hexColor.safeParse(value).success) {
        ctx.addIssue({ code: 'custom', message: 'unknown colour or not a hex colour' });
        return z.NEVER;
      }
      colors[key] = value;
    }
    return colors;
  });

export function systemColorsList(colors: Partial<Record<SystemColorKey, string>>): SystemColor[] {
  return SYSTEM_COLOR_KEYS.map((key) => ({
    label: key[0]!.toUpperCase() + key.slice(1),
    [key]: colors[key] ?? DEFAULT_SYSTEM_COLORS[key],
  }));
}

/** GET /tenants/date: the end of the paid or trial period, null when there is none. */
export const tenantDueDateResponseSchema = z.object({ dueDate: z.string().nullable() });

// ---------- gateway defaults (client-contract §10) ----------

/** An http(s) API URL ('' or null clears it): "The Evolution and Wuzapi API URLs must be valid" (product-spec §5). */
const gatewayUrl = z
  .string()
  .trim()
  .max(500)
  .nullable()
  .transform((value) => value || null)
  .refine((value) => value === null || isGatewayUrl(value), { message: 'an http(s) URL' });

export function isGatewayUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0 && !url.username;
  } catch {
    return false;
  }
}

/** PUT /tenantsWuzapiHost/{id}: `{ id, wuzapiHost }`. */
export const tenantWuzapiHostInputSchema = z.object({ wuzapiHost: gatewayUrl });
/** PUT /tenantsEvolutionHost/{id}: `{ id, evoHost, evoToken }`; an absent or empty key keeps the stored one. */
export const tenantEvolutionHostInputSchema = z.object({
  evoHost: gatewayUrl,
  evoToken: z.string().trim().max(500).nullish(),
});
/** The answer of both: the tenant's gateway defaults, the key write-only. */
export const tenantGatewaysResponseSchema = z.object({
  id: z.number(),
  wuzapiHost: z.string().nullable(),
  evoHost: z.string().nullable(),
  evoTokenConfigured: z.boolean(),
});
export type TenantGateways = z.infer<typeof tenantGatewaysResponseSchema>;

/**
 * PUT /tenantsMetaUpdate/{id} `{ id, metaToken, wabaToken }` and PUT /tenantsHubToken/{id} `{ id, hubToken }`: the
 * tokens are write-only. An absent or empty one keeps the stored value; `null` clears it.
 */
const writeOnlyToken = z
  .union([z.string().trim().max(2000), z.null()])
  .optional()
  .transform((value) => (value === '' ? undefined : value));
export const tenantMetaTokensInputSchema = z.object({ metaToken: writeOnlyToken, wabaToken: writeOnlyToken });
export const tenantHubTokenInputSchema = z.object({ hubToken: writeOnlyToken });
/** The answer of both, and fields of GET /tenants/{id}: only whether each token is stored. */
export const tenantTokensResponseSchema = z.object({
  metaTokenConfigured: z.boolean(),
  wabaTokenConfigured: z.boolean(),
  hubTokenConfigured: z.boolean(),
});
export type TenantTokensState = z.infer<typeof tenantTokensResponseSchema>;

// ---------- business hours: is the company open at an instant ----------

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** The weekday (0 Sunday) and the minute of the day of `at` on the wall clock of `timeZone` (IANA). */
export function wallClock(at: Date, timeZone: string): { day: number; minute: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(get('weekday'));
  return { day, minute: Number(get('hour')) * 60 + Number(get('minute')) };
}

/**
 * The intervals of an H day: hr1-hr2, and hr3-hr4 unless both are equal (one interval). An interval whose end is not
 * after its start runs past midnight into the next day (22:00-02:00 is 22:00 to 02:00 of the next day).
 */
function intervalsOf(day: BusinessHoursDay): [number, number][] {
  const list: [number, number][] = [[minutesOf(day.hr1), minutesOf(day.hr2)]];
  if (day.hr3 !== day.hr4) list.push([minutesOf(day.hr3), minutesOf(day.hr4)]);
  return list.filter(([start, end]) => start !== end);
}

/**
 * Whether the company attends at `at` (product-spec §4 "Business hours day type"): O open all day, C closed all day,
 * H within its intervals, in the tenant's time zone. The part of the previous day's interval that runs past midnight
 * counts too.
 */
export function isWithinBusinessHours(days: readonly BusinessHoursDay[], timeZone: string, at: Date): boolean {
  const { day, minute } = wallClock(at, timeZone);
  const today = days.find((d) => d.day === day);
  if (today?.type === 'O') return true;
  if (today?.type === 'H') {
    for (const [start, end] of intervalsOf(today)) {
      if (end > start ? minute >= start && minute < end : minute >= start) return true;
    }
  }
  const yesterday = days.find((d) => d.day === (day + 6) % 7);
  if (yesterday?.type === 'H') {
    for (const [start, end] of intervalsOf(yesterday)) if (end <= start && minute < end) return true;
  }
  return false;
}
