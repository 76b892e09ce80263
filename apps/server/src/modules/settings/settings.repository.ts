import { and, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { ENABLED, SETTING_DEFAULTS, SETTING_KEYS, type SettingKey } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import { settings } from './settings.tables.js';

export async function insertDefaultSettings(tx: Queryable, tenantId: number): Promise<void> {
  await tx
    .insert(settings)
    .values(SETTING_KEYS.map((key) => ({ tenantId, key, value: SETTING_DEFAULTS[key] })))
    .onConflictDoNothing();
}

export async function listSettings(tx: Queryable, tenantId: number): Promise<{ key: string; value: string }[]> {
  const rows = await tx
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(eq(settings.tenantId, tenantId));
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  return SETTING_KEYS.map((key) => ({ key, value: stored.get(key) ?? SETTING_DEFAULTS[key] }));
}

export async function upsertSetting(tx: Queryable, tenantId: number, key: SettingKey, value: string): Promise<void> {
  await tx
    .insert(settings)
    .values({ tenantId, key, value })
    .onConflictDoUpdate({ target: [settings.tenantId, settings.key], set: { value, updatedAt: sql`now()` } });
}

export async function findSetting(tx: Queryable, tenantId: number, key: SettingKey): Promise<string> {
  const [row] = await tx
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.tenantId, tenantId), eq(settings.key, key)));
  return row?.value ?? SETTING_DEFAULTS[key];
}

/**
 * "The setting is enabled" as a boolean SQL expression evaluated inside the query that uses it (PostgreSQL runs it
 * once per query as an init plan): a rule that depends on a setting costs no round trip of its own.
 */
export function settingEnabledSql(tenantId: number | Placeholder, key: SettingKey): SQL {
  return sql`(coalesce((select s.value from ${settings} s where s.tenant_id = ${tenantId} and s.key = ${key}), ${SETTING_DEFAULTS[key]}) = ${ENABLED})`;
}

/** The current values of `keys` (defaults where unset), with their rows locked until the transaction ends. */
export async function lockSettings<K extends SettingKey>(
  tx: Queryable,
  tenantId: number,
  keys: readonly K[],
): Promise<Record<K, string>> {
  const rows = await tx
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(and(eq(settings.tenantId, tenantId), inArray(settings.key, [...keys])))
    .for('update');
  const stored = new Map(rows.map((row) => [row.key, row.value]));
  return Object.fromEntries(keys.map((key) => [key, stored.get(key) ?? SETTING_DEFAULTS[key]])) as Record<K, string>;
}

/**
 * Tenant preferences with a shape of their own (business hours, rating, colours) are stored as JSON in this table
 * under a reserved key: never a setting key (GET /settings lists only those), so clients cannot read or write them
 * through /settings, and they share the table's tenant isolation.
 */
export type TenantDocumentName =
  'businessHours' | 'messageBusinessHours' | 'rating' | 'ratingMessages' | 'systemColors' | 'autoCloseSince';
const documentKey = (name: TenantDocumentName) => `doc:${name}`;

export async function findTenantDocument(tx: Queryable, tenantId: number, name: TenantDocumentName): Promise<unknown> {
  const [row] = await tx
    .select({ value: settings.value })
    .from(settings)
    .where(and(eq(settings.tenantId, tenantId), eq(settings.key, documentKey(name))));
  return row === undefined ? undefined : JSON.parse(row.value);
}

export async function saveTenantDocument(
  tx: Queryable,
  tenantId: number,
  name: TenantDocumentName,
  document: unknown,
): Promise<void> {
  const value = JSON.stringify(document);
  await tx
    .insert(settings)
    .values({ tenantId, key: documentKey(name), value })
    .onConflictDoUpdate({ target: [settings.tenantId, settings.key], set: { value, updatedAt: sql`now()` } });
}

/**
 * When auto-close was last switched on (issue 23): inactivity is never counted from before it. Written as epoch
 * milliseconds under the reserved document key when `autoClose` goes from off to on, in the setting's transaction.
 */
export async function markAutoCloseSince(tx: Queryable, tenantId: number): Promise<void> {
  await tx.execute(sql`insert into ${settings} (tenant_id, key, value)
      values (${tenantId}, ${documentKey('autoCloseSince')}, (floor(extract(epoch from now()) * 1000))::bigint::text)
      on conflict (tenant_id, key) do update set value = excluded.value, updated_at = now()`);
}

/**
 * The moment inactivity may start counting from for the tenant, as SQL evaluated inside the caller's query: the
 * stored switch-on time, else (auto-close switched on before that time was kept) when the `autoClose` row was last
 * written, else now (never switched on: nothing is idle yet).
 */
export function autoCloseSinceSql(tenantId: number | Placeholder): SQL {
  return sql`coalesce(
      (select case when d.value ~ '^[0-9]{1,15}$' then to_timestamp(d.value::bigint / 1000.0) end
         from ${settings} d where d.tenant_id = ${tenantId} and d.key = ${documentKey('autoCloseSince')}),
      (select a.updated_at from ${settings} a where a.tenant_id = ${tenantId} and a.key = 'autoClose'),
      now())`;
}
