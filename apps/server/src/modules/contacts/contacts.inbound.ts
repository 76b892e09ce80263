/**
 * Contacts seen on a channel (ingestion): find-or-create by the provider's id on its own field (telegramId,
 * messengerId, instagramPK) or by the E.164 number. Concurrent first messages of one contact meet on the partial
 * unique indexes: the insert does nothing on any conflict and the row is then selected, so exactly one contact exists.
 *
 * A number is stored as the provider gave it (WhatsApp's JID digits: replies must reach that JID) and found in both
 * of its Brazilian ninth-digit forms (`ninthDigitForms`, one `= any(...)` on the tenant's number index), the stored
 * form first: a contact saved as 55 DDD 9XXXX-XXXX who writes from the 8-digit JID (or the other way round) is one
 * contact with one ticket, and the stored number is never rewritten.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { ContactDto } from '@conversa/shared';
import type { Tx } from '../../platform/db/client.js';
import { arrayLiteral, statement } from '../../platform/db/statements.js';
import type { TenantId } from '../../platform/db/tenancy.js';
import { loadContactDtos } from './contacts.dto.js';
import type { ContactRow } from './contacts.repository.js';
import { ninthDigitForms, normalizeNumber } from './contacts.number.js';
import { contacts } from './contacts.tables.js';

export type InboundIdField = 'telegramId' | 'messengerId' | 'instagramPK' | 'number';

/** What a channel tells about a chat or group member (a subset of the channels' InboundParty). */
export interface InboundContactFacts {
  /** Provider id of the chat or member. */
  id: string;
  idField: InboundIdField;
  name: string;
  /** A phone number, when the provider gives one. */
  number: string | null;
  isGroup: boolean;
  profilePicUrl?: string | null;
}

/**
 * The value stored in the key field: numbers as E.164 digits, read as international first (a provider's digits carry
 * the country code: WhatsApp's 14155550123 is a US number, not a Brazilian one with DDD 14), then as Brazilian
 * (a number written without it); group ids and channel ids as given.
 */
function keyValue(facts: InboundContactFacts): string | null {
  if (facts.idField !== 'number' || facts.isGroup) return facts.id;
  const given = facts.number ?? facts.id;
  return normalizeNumber(`+${given.replace(/\D/g, '')}`) ?? normalizeNumber(given);
}

/** A person's number is looked up in its ninth-digit forms; ids and group ids as they are. */
const lookupValues = (facts: InboundContactFacts, key: string): string[] =>
  facts.idField === 'number' && !facts.isGroup ? ninthDigitForms(key) : [key];

const ID_FIELDS: readonly InboundIdField[] = ['telegramId', 'messengerId', 'instagramPK', 'number'];

/** The contact whose key field holds the value: one statement per field, built once (ingestion runs them per message). */
const byKey = new Map(
  ID_FIELDS.map((field) => [
    field,
    statement(`contact_by_${field}`, ['tenantId', 'value'], (q, p) =>
      q
        .select()
        .from(contacts)
        .where(and(eq(contacts.tenantId, p.tenantId), eq(contacts[field], p.value)))
        .limit(1),
    ),
  ]),
);

/** The contacts whose key field holds one of the values (ingestion's batches). */
const byKeys = new Map(
  ID_FIELDS.map((field) => [
    field,
    statement(`contacts_by_${field}_many`, ['tenantId', 'values'], (q, p) =>
      q
        .select()
        .from(contacts)
        .where(and(eq(contacts.tenantId, p.tenantId), sql`${contacts[field]} = any(${p.values}::text[])`)),
    ),
  ]),
);

async function findByKey(tx: Tx, tenantId: TenantId, field: InboundIdField, value: string) {
  const [row] = await byKey.get(field)!(tx, { tenantId, value });
  return row;
}

/** The contact of these facts: by its key, a number in either ninth-digit form (the exact one preferred). */
async function findContact(tx: Tx, tenantId: TenantId, facts: InboundContactFacts, key: string) {
  const values = lookupValues(facts, key);
  if (values.length === 1) return findByKey(tx, tenantId, facts.idField, key);
  const rows = await byKeys.get('number')!(tx, { tenantId, values: arrayLiteral(values) });
  return rows.find((row) => row.number === key) ?? rows[0];
}

/** A new contact (its row), unless one of the unique keys (a provider id, the number) is taken: then nothing. */
const insertIgnoringConflicts = statement(
  'contact_insert_inbound',
  ['tenantId', 'name', 'isGroup', 'profilePicUrl', 'number', 'telegramId', 'messengerId', 'instagramPK'],
  (q, p) => q.insert(contacts).values(p).onConflictDoNothing().returning(),
);

/** The row a first message makes: the key in its field, and the number (E.164) when the provider gave one. */
function newContactValues(tenantId: TenantId, facts: InboundContactFacts, key: string) {
  return {
    tenantId,
    name: facts.name.trim() || key,
    isGroup: facts.isGroup,
    profilePicUrl: facts.profilePicUrl ?? null,
    number: facts.idField === 'number' ? key : facts.number ? normalizeNumber(facts.number) : null,
    telegramId: null,
    messengerId: null,
    instagramPK: null,
    [facts.idField]: key,
  };
}

/**
 * The contact for these facts, created when new. Null when the provider id cannot be stored (a "number" that is no
 * valid phone number).
 */
export async function upsertInboundContact(
  tx: Tx,
  tenantId: TenantId,
  facts: InboundContactFacts,
): Promise<ContactRow | null> {
  const key = keyValue(facts);
  if (!key) return null;
  const existing = await findContact(tx, tenantId, facts, key);
  if (existing) return existing;
  const base = newContactValues(tenantId, facts, key);
  const [inserted] = await insertIgnoringConflicts(tx, base);
  // Not inserted: a concurrent first message made the contact (we waited for its commit), or the number is taken.
  const created = inserted ?? (await findContact(tx, tenantId, facts, key));
  if (created || facts.idField === 'number') return created ?? null;
  // The phone number already belongs to another contact: keep the channel id on a contact of its own.
  const [own] = await insertIgnoringConflicts(tx, { ...base, number: null });
  return own ?? (await findByKey(tx, tenantId, facts.idField, key)) ?? null;
}

/**
 * `upsertInboundContact` for many facts at once (one channel's batch): the known contacts in one statement per key
 * field, the new ones in one insert; what that insert did not make (a concurrent first message, a phone number that
 * belongs to another contact) goes through `upsertInboundContact` one by one. Same order as `facts`.
 */
export async function upsertInboundContacts(
  tx: Tx,
  tenantId: TenantId,
  facts: readonly InboundContactFacts[],
): Promise<(ContactRow | null)[]> {
  const keys = facts.map(keyValue);
  const found = new Map<string, ContactRow>();
  const slot = (field: InboundIdField, key: string) => `${field}:${key}`;
  for (const field of new Set(facts.map((f) => f.idField))) {
    const values = new Set(facts.flatMap((f, i) => (keys[i] && f.idField === field ? lookupValues(f, keys[i]) : [])));
    if (values.size === 0) continue;
    const rows = await byKeys.get(field)!(tx, { tenantId, values: arrayLiteral([...values]) });
    for (const row of rows) found.set(slot(field, row[field]!), row);
  }
  /** The known contact of a fact: by its key, else by its number's other ninth-digit form. */
  const known = (f: InboundContactFacts, key: string) =>
    lookupValues(f, key)
      .map((value) => found.get(slot(f.idField, value)))
      .find((row) => row !== undefined);
  const missing = new Map<string, { facts: InboundContactFacts; key: string }>();
  facts.forEach((f, i) => {
    const key = keys[i];
    if (key && !known(f, key)) missing.set(slot(f.idField, key), { facts: f, key });
  });
  if (missing.size > 0) {
    const inserted = await tx
      .insert(contacts)
      .values([...missing.values()].map(({ facts: f, key }) => newContactValues(tenantId, f, key)))
      .onConflictDoNothing()
      .returning();
    for (const row of inserted) {
      for (const field of ID_FIELDS) {
        const value = row[field];
        if (value && missing.has(slot(field, value))) found.set(slot(field, value), row);
      }
    }
    for (const [at, { facts: f }] of missing) {
      if (found.has(at)) continue;
      const row = await upsertInboundContact(tx, tenantId, f);
      if (row) found.set(at, row);
    }
  }
  return facts.map((f, i) => {
    const key = keys[i];
    return key ? (found.get(slot(f.idField, key)) ?? known(f, key) ?? null) : null;
  });
}

/** The id of the known contact a provider's chat names, or null (nothing is created). */
export async function findInboundContactId(
  tx: Tx,
  tenantId: TenantId,
  facts: InboundContactFacts,
): Promise<number | null> {
  const key = keyValue(facts);
  return key ? ((await findContact(tx, tenantId, facts, key))?.id ?? null) : null;
}

/** A provider's profile change (name, picture) applied to a known contact; its DTO for the contacts.updated event. */
export async function applyInboundContactUpdate(
  tx: Tx,
  tenantId: TenantId,
  facts: InboundContactFacts,
): Promise<ContactDto | null> {
  const key = keyValue(facts);
  if (!key) return null;
  const found = await findContact(tx, tenantId, facts, key);
  if (!found) return null;
  const patch: Partial<typeof contacts.$inferInsert> = {};
  if (facts.name.trim() && facts.name.trim() !== found.name) patch.name = facts.name.trim();
  if (facts.profilePicUrl !== undefined && facts.profilePicUrl !== found.profilePicUrl) {
    patch.profilePicUrl = facts.profilePicUrl;
  }
  if (Object.keys(patch).length === 0) return null;
  const [row] = await tx
    .update(contacts)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(contacts.id, found.id))
    .returning();
  const [dto] = await loadContactDtos(tx, [row!]);
  return dto ?? null;
}
