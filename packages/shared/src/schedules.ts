/**
 * Scheduled messages (client-contract §5.1 `/messagesSchedule`, `/scheduleMessages`; product-spec §9), the
 * auto-close times and the signature rule (client-contract §5.2).
 *
 * `scheduleDate` arrives as the contract's `yyyy-MM-dd HH:mm`, a wall-clock time in the tenant's timezone, or (our
 * web client) as an ISO-8601 instant with `Z` or an offset. Answers carry the instant (`scheduleDate`, ISO UTC) and the
 * same time on the tenant's wall clock (`scheduleLocal`, `yyyy-MM-dd HH:mm`).
 */
import { z } from 'zod';

/** product-spec §9: none, or every 5, 10, ... 45, 60 days. */
export const SCHEDULE_RECURRENCE_DAYS = [5, 10, 15, 20, 25, 30, 35, 40, 45, 60] as const;
export const SCHEDULE_MAX_REPETITIONS = 50;
export const SCHEDULE_STATUSES = ['pending', 'sending', 'sent', 'canceled', 'failed'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** product-spec §9 inactivity options, in minutes: 10 min, 1 h, 1 day, 5 days, 10 days. */
export const AUTO_CLOSE_TIMES = ['10', '60', '1440', '7200', '14400'] as const;
export function isAutoCloseTime(value: string): boolean {
  return (AUTO_CLOSE_TIMES as readonly string[]).includes(value);
}

const LOCAL_RE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const ISO_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The wall clock of `date` in `timeZone` as a UTC timestamp (ms) with the same fields. */
function wallClockMs(date: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(date);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
}

/** `yyyy-MM-dd HH:mm` of `date` on the wall clock of `timeZone`. */
export function toWallClock(date: Date, timeZone: string): string {
  return new Date(wallClockMs(date, timeZone)).toISOString().slice(0, 16).replace('T', ' ');
}

/** The instant a wall-clock `yyyy-MM-dd HH:mm` names in `timeZone`; null when the text is no valid date-time. */
export function fromWallClock(local: string, timeZone: string): Date | null {
  const m = LOCAL_RE.exec(local.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(guess);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return null;
  // Offset at the guess, then again at the result (a DST change between the two moves it once more).
  const first = guess - (wallClockMs(new Date(guess), timeZone) - guess);
  return new Date(guess - (wallClockMs(new Date(first), timeZone) - first));
}

/** A `scheduleDate` as sent: wall clock in the tenant's timezone, or an ISO instant. Null when unreadable. */
export function parseScheduleDate(value: string, timeZone: string): Date | null {
  const text = value.trim();
  if (ISO_RE.test(text)) {
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? null : date;
  }
  return fromWallClock(text, timeZone);
}

/** The same wall-clock time `days` later in `timeZone` (a recurrence keeps 09:00 across DST changes). */
export function addDaysOnWallClock(date: Date, days: number, timeZone: string): Date {
  const wall = new Date(wallClockMs(date, timeZone) + days * 86_400_000);
  return fromWallClock(wall.toISOString().slice(0, 19).replace('T', ' '), timeZone) ?? wall;
}

/**
 * Signature rule (client-contract §5.2, product-spec §6): an agent's text is signed when the tenant stops users from
 * disabling their signature (setting `signed` enabled; `userDisableSignature` enabled, the key the reference client
 * reads at start, means the same), else when the user's own switch is on (`configs.signature`). A user who never
 * chose is not signed by the server: the reference client prefixes the body itself when its user signs, so a server
 * default of "on" would sign the messages of every reference-client user who chose not to.
 */
export function signsMessages(input: {
  userSignature: boolean | undefined;
  signedSetting: string;
  userDisableSignatureSetting: string;
  /** The tenant's own switch (`agentSignature`, ours): `disabled` turns every agent's signature off. */
  agentSignatureSetting: string;
}): boolean {
  if (input.agentSignatureSetting === 'disabled') return false;
  if (signatureForced({ signed: input.signedSetting, userDisableSignature: input.userDisableSignatureSetting })) {
    return true;
  }
  // Off until the user turns it on: clients of the family prefix the body themselves when their user signs
  // (client-contract §5.2), so a server default would sign for their users who chose not to.
  return input.userSignature ?? false;
}

/** Whether the tenant forces the signature (the user's own switch is then not offered). */
export function signatureForced(settings: {
  signed?: string | undefined;
  userDisableSignature?: string | undefined;
}): boolean {
  return settings.signed === 'enabled' || settings.userDisableSignature === 'enabled';
}

/** The signed body: `*<name>*:\n <body>`, never twice (the reference client prefixes it itself). */
export function signBody(body: string, name: string): string {
  const prefix = `*${name}*:`;
  if (!name.trim() || body.startsWith(prefix)) return body;
  return `${prefix}\n ${body}`;
}

const looseId = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().positive());
const optionalId = z
  .union([looseId, z.literal(''), z.null()])
  .optional()
  .transform((v) => (v === '' || v === undefined ? null : v));

/** `null`, `''`, `0` and `'none'` mean no recurrence; otherwise one of SCHEDULE_RECURRENCE_DAYS. */
export const recurrenceDaysSchema = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === '' || v === 0 || v === '0' || v === 'none') return null;
    const n = Number(v);
    if (!(SCHEDULE_RECURRENCE_DAYS as readonly number[]).includes(n)) {
      ctx.addIssue({ code: 'custom', message: 'ERR_VALIDATION' });
      return z.NEVER;
    }
    return n;
  });

const repetitionsSchema = z
  .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
  .pipe(z.number().int().min(1).max(SCHEDULE_MAX_REPETITIONS));

export const scheduleDateInputSchema = z.string().trim().min(1).max(40);

/** POST /messagesSchedule (JSON, or the fields of a multipart request as strings). */
export const scheduleCreateSchema = z
  .object({
    contactId: looseId,
    channelId: optionalId,
    /** The reference client's older name for the channel. */
    whatsappId: optionalId,
    ticketId: optionalId,
    body: z.string().max(10_000).optional().default(''),
    scheduleDate: scheduleDateInputSchema,
    idFront: z.string().max(200).nullish(),
    recurrenceDays: recurrenceDaysSchema,
    repetitions: repetitionsSchema.optional().default(1),
  })
  .loose();
export type ScheduleCreateInput = z.output<typeof scheduleCreateSchema>;

/** PUT /messagesSchedule/{id}: only while pending. */
export const scheduleUpdateSchema = z.object({
  body: z.string().max(10_000).optional(),
  scheduleDate: scheduleDateInputSchema.optional(),
  recurrenceDays: recurrenceDaysSchema,
  repetitions: repetitionsSchema.optional(),
});
export type ScheduleUpdateInput = z.output<typeof scheduleUpdateSchema>;

export const scheduleListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  rowsPerPage: z.coerce.number().int().min(1).max(100).optional().default(20),
  ticketId: z.coerce.number().int().positive().optional(),
  status: z.enum(SCHEDULE_STATUSES).optional(),
});

export const scheduledMessageDtoSchema = z.object({
  id: z.number(),
  ticketId: z.number().nullable(),
  contactId: z.number(),
  contactName: z.string(),
  channelId: z.number().nullable(),
  body: z.string(),
  /** The instant, ISO UTC. */
  scheduleDate: z.string(),
  /** The same instant on the tenant's wall clock, `yyyy-MM-dd HH:mm`. */
  scheduleLocal: z.string(),
  isDeleted: z.boolean(),
  status: z.enum(SCHEDULE_STATUSES),
  mediaName: z.string().nullable(),
  mediaType: z.string().nullable(),
  recurrenceDays: z.number().nullable(),
  repetitionsLeft: z.number(),
  messageId: z.number().nullable(),
  /** Why a `failed` row was not sent (an error code: the author may no longer write there, the channel is gone...). */
  error: z.string().nullable().optional(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type ScheduledMessageDto = z.infer<typeof scheduledMessageDtoSchema>;

export const scheduleListResponseSchema = z.object({
  messages: z.array(scheduledMessageDtoSchema),
  total: z.number(),
  page: z.number(),
  totalPages: z.number(),
  /** The tenant's timezone, in which `scheduleLocal` is written. */
  timezone: z.string(),
});
export type ScheduleListResponse = z.infer<typeof scheduleListResponseSchema>;
