/**
 * The message templates of a waba channel's business account, cached in `waba_templates` so the template picker and
 * every template send read them without a Graph call. A sync replaces the channel's cache with Graph's listing
 * (upsert by channel + name + language, delete the ones gone); the cache is stale after an hour, when the next read
 * syncs again. Also the template rules of a send: it must be cached APPROVED, its body parameters must match the
 * template's `{{n}}` placeholders, and the stored message's body is a readable rendering of what the customer sees.
 */
import { and, asc, eq, isNull, notInArray, or, sql } from 'drizzle-orm';
import type { WabaTemplateDto } from '@conversa/shared';
import type { Queryable } from '../../../../platform/db/client.js';
import { wabaTemplates } from '../../channels.tables.js';
import type { GraphTemplate } from './waba.schemas.js';

export const TEMPLATE_CACHE_TTL_MS = 3600 * 1000;

export type WabaTemplateRow = typeof wabaTemplates.$inferSelect;

export const toTemplateDto = (row: WabaTemplateRow): WabaTemplateDto => ({
  id: row.id,
  name: row.name,
  language: row.language,
  status: row.status,
  category: row.category,
  components: row.components,
});

export async function listCachedTemplates(tx: Queryable, channelId: number): Promise<WabaTemplateRow[]> {
  return tx
    .select()
    .from(wabaTemplates)
    .where(eq(wabaTemplates.channelId, channelId))
    .orderBy(asc(wabaTemplates.name), asc(wabaTemplates.language));
}

/** An empty cache, or one synced more than an hour ago, is read from Graph again. */
export function cacheIsStale(rows: readonly WabaTemplateRow[], now: number = Date.now()): boolean {
  if (rows.length === 0) return true;
  const oldest = Math.min(...rows.map((row) => row.syncedAt.getTime()));
  return now - oldest >= TEMPLATE_CACHE_TTL_MS;
}

/**
 * Makes the channel's cache Graph's listing: each template upserted by (channel, name, language), the rows Graph no
 * longer lists deleted. Runs in the caller's tenant transaction.
 */
export async function replaceTemplates(
  tx: Queryable,
  tenantId: number,
  channelId: number,
  templates: readonly GraphTemplate[],
  now: Date = new Date(),
): Promise<void> {
  // Graph lists one row per name + language; a repeated pair keeps its last listing (the unique index wants one).
  const unique = new Map(templates.map((t) => [`${t.name}\u0000${t.language}`, t]));
  const rows = [...unique.values()].map((t) => ({
    tenantId,
    channelId,
    providerId: t.id,
    name: t.name,
    language: t.language,
    status: t.status,
    category: t.category ?? null,
    components: t.components,
    syncedAt: now,
  }));
  const kept = rows.map((row) => row.providerId);
  const ofChannel = eq(wabaTemplates.channelId, channelId);
  // Rows without a Graph id, or with an id Graph no longer lists, are gone.
  const gone = kept.length
    ? and(ofChannel, or(isNull(wabaTemplates.providerId), notInArray(wabaTemplates.providerId, kept)))
    : ofChannel;
  await tx.delete(wabaTemplates).where(gone);
  if (rows.length === 0) return;
  await tx
    .insert(wabaTemplates)
    .values(rows)
    .onConflictDoUpdate({
      target: [wabaTemplates.channelId, wabaTemplates.name, wabaTemplates.language],
      set: {
        providerId: sql`excluded.provider_id`,
        status: sql`excluded.status`,
        category: sql`excluded.category`,
        components: sql`excluded.components`,
        syncedAt: sql`excluded.synced_at`,
      },
    });
}

/** The cached template a send names, only when Graph approved it. */
export async function findApprovedTemplate(
  tx: Queryable,
  channelId: number,
  name: string,
  language: string,
): Promise<WabaTemplateRow | null> {
  const [row] = await tx
    .select()
    .from(wabaTemplates)
    .where(
      and(
        eq(wabaTemplates.channelId, channelId),
        eq(wabaTemplates.name, name),
        eq(wabaTemplates.language, language),
        eq(wabaTemplates.status, 'APPROVED'),
      ),
    )
    .limit(1);
  return row ?? null;
}

// ---- the template's components and the sent parameters --------------------------------------------------------

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;
const kindOf = (component: unknown): string =>
  isObject(component) && typeof component.type === 'string' ? component.type.toUpperCase() : '';

/** The component of a type (HEADER, BODY, FOOTER, BUTTONS) of Graph's template or of a send (lower case there). */
function componentOf(components: readonly unknown[], type: string): Loose | undefined {
  return components.find((c) => kindOf(c) === type) as Loose | undefined;
}
const textOf = (component: Loose | undefined): string =>
  component && typeof component.text === 'string' ? component.text : '';

/** Placeholders: positional `{{1}}` or named `{{first_name}}` (Graph's named parameters). */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** How many distinct placeholders the template's BODY has: a send must give exactly that many body parameters. */
export function bodyParameterCount(templateComponents: readonly unknown[]): number {
  const names = new Set([...textOf(componentOf(templateComponents, 'BODY')).matchAll(PLACEHOLDER)].map((m) => m[1]));
  return names.size;
}

/** The parameters of one component of a send (`{ type: 'body', parameters: [...] }`). */
export function sentParameters(sent: readonly unknown[], type: string): Loose[] {
  const parameters = componentOf(sent, type)?.parameters;
  return Array.isArray(parameters) ? parameters.filter(isObject) : [];
}

/** A parameter as the customer reads it: text, or the fallback of a currency or date. */
function parameterText(parameter: Loose | undefined): string | null {
  if (!parameter) return null;
  if (typeof parameter.text === 'string') return parameter.text;
  for (const key of ['currency', 'date_time']) {
    const value = parameter[key];
    if (isObject(value) && typeof value.fallback_value === 'string') return value.fallback_value;
  }
  return null;
}

/** `{{n}}` filled from the n-th parameter (or the one whose `parameter_name` is n); unknown ones stay as written. */
function fill(text: string, parameters: readonly Loose[]): string {
  return text.replace(PLACEHOLDER, (whole, key: string) => {
    const named = parameters.find((p) => p.parameter_name === key);
    const value = parameterText(named ?? (/^\d+$/.test(key) ? parameters[Number(key) - 1] : undefined));
    return value ?? whole;
  });
}

/**
 * The readable text of a template send, stored as the message's body (the chat, the ticket list and searches show
 * it): header text, body and footer with the sent parameters filled in, and the buttons' labels.
 */
export function renderTemplatePreview(templateComponents: readonly unknown[], sent: readonly unknown[]): string {
  const header = componentOf(templateComponents, 'HEADER');
  const headerText = header && (header.format === undefined || header.format === 'TEXT') ? textOf(header) : '';
  const buttons = componentOf(templateComponents, 'BUTTONS')?.buttons;
  const labels = Array.isArray(buttons)
    ? buttons.flatMap((b) => (isObject(b) && typeof b.text === 'string' ? [`[${b.text}]`] : []))
    : [];
  return [
    headerText && `*${fill(headerText, sentParameters(sent, 'HEADER'))}*`,
    fill(textOf(componentOf(templateComponents, 'BODY')), sentParameters(sent, 'BODY')),
    textOf(componentOf(templateComponents, 'FOOTER')) && `_${textOf(componentOf(templateComponents, 'FOOTER'))}_`,
    labels.join(' '),
  ]
    .filter(Boolean)
    .join('\n\n');
}
