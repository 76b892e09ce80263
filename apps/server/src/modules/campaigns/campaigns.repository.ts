/**
 * The queries on campaigns and their recipients. Every call runs in a tenant transaction (RLS scopes the rows); the
 * counts read each sent recipient's state from its message (campaigns.tables.ts).
 */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../../platform/db/client.js';
import { contactTags, contacts, tags } from '../contacts/contacts.tables.js';
import { messages } from '../messages/messages.tables.js';
import { campaignContacts, campaigns } from './campaigns.tables.js';

export type CampaignRow = typeof campaigns.$inferSelect;
export type NewCampaign = typeof campaigns.$inferInsert;
export type CampaignPatch = Partial<Omit<NewCampaign, 'id' | 'tenantId' | 'createdAt'>>;
export type RecipientRow = typeof campaignContacts.$inferSelect;

export interface CampaignCounts {
  contactsCount: number;
  pendentesEnvio: number;
  pendentesEntrega: number;
  recebidas: number;
  lidas: number;
  failed: number;
  skipped: number;
}

export const ZERO_COUNTS: CampaignCounts = {
  contactsCount: 0,
  pendentesEnvio: 0,
  pendentesEntrega: 0,
  recebidas: 0,
  lidas: 0,
  failed: 0,
  skipped: 0,
};

export async function listCampaigns(tx: Queryable): Promise<CampaignRow[]> {
  return tx.select().from(campaigns).where(eq(campaigns.kind, 'campaign')).orderBy(desc(campaigns.id));
}

export async function findCampaign(tx: Queryable, id: number, lock = false): Promise<CampaignRow | undefined> {
  const query = tx.select().from(campaigns).where(eq(campaigns.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function insertCampaign(tx: Queryable, values: NewCampaign): Promise<CampaignRow> {
  const [row] = await tx.insert(campaigns).values(values).returning();
  return row!;
}

export async function updateCampaign(tx: Queryable, id: number, patch: CampaignPatch): Promise<CampaignRow> {
  const [row] = await tx
    .update(campaigns)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(eq(campaigns.id, id))
    .returning();
  return row!;
}

export async function deleteCampaign(tx: Queryable, id: number): Promise<void> {
  await tx.delete(campaigns).where(eq(campaigns.id, id));
}

/**
 * The counts of each campaign (client-contract §12: pendentesEnvio, pendentesEntrega, recebidas, lidas): a recipient
 * not processed is pending send; a skipped one (processed, no message) counts apart; a sent one is what its message
 * says (send error: failed; ack 3+: read and received; ack 2: received; else pending delivery).
 */
export async function countsOf(tx: Queryable, ids: number[]): Promise<Map<number, CampaignCounts>> {
  const out = new Map<number, CampaignCounts>();
  if (ids.length === 0) return out;
  const failed = sql`(${messages.isDelayed} or ${messages.status} = 'canceled')`;
  const rows = await tx
    .select({
      campaignId: campaignContacts.campaignId,
      contactsCount: sql<number>`count(*)::int`,
      pendentesEnvio: sql<number>`count(*) filter (where not ${campaignContacts.processed})::int`,
      skipped: sql<number>`count(*) filter (where ${campaignContacts.processed} and ${campaignContacts.messageId} is null)::int`,
      failed: sql<number>`count(*) filter (where ${messages.id} is not null and ${failed})::int`,
      pendentesEntrega: sql<number>`count(*) filter (where ${messages.id} is not null and not ${failed} and ${messages.ack} < 2)::int`,
      recebidas: sql<number>`count(*) filter (where ${messages.id} is not null and not ${failed} and ${messages.ack} >= 2)::int`,
      lidas: sql<number>`count(*) filter (where ${messages.id} is not null and not ${failed} and ${messages.ack} >= 3)::int`,
    })
    .from(campaignContacts)
    .leftJoin(messages, eq(messages.id, campaignContacts.messageId))
    .where(inArray(campaignContacts.campaignId, ids))
    .groupBy(campaignContacts.campaignId);
  for (const { campaignId, ...counts } of rows) out.set(campaignId, counts);
  return out;
}

/** The campaign's recipients with their contact, tags and the state their message gives them, in the added order. */
export async function listRecipients(tx: Queryable, campaignId: number) {
  const rows = await tx
    .select({
      recipient: campaignContacts,
      contact: { id: contacts.id, name: contacts.name, number: contacts.number },
      ack: messages.ack,
      isDelayed: messages.isDelayed,
      messageStatus: messages.status,
      sendError: messages.sendError,
    })
    .from(campaignContacts)
    .innerJoin(contacts, eq(contacts.id, campaignContacts.contactId))
    .leftJoin(messages, eq(messages.id, campaignContacts.messageId))
    .where(eq(campaignContacts.campaignId, campaignId))
    .orderBy(asc(campaignContacts.id));
  const contactIds = rows.map((row) => row.contact.id);
  const tagRows =
    contactIds.length === 0
      ? []
      : await tx
          .select({ contactId: contactTags.contactId, id: tags.id, tag: tags.tag, color: tags.color })
          .from(contactTags)
          .innerJoin(tags, eq(tags.id, contactTags.tagId))
          .where(inArray(contactTags.contactId, contactIds))
          .orderBy(asc(tags.tag));
  const tagsOf = new Map<number, { id: number; tag: string; color: string }[]>();
  for (const { contactId, ...tag } of tagRows) tagsOf.set(contactId, [...(tagsOf.get(contactId) ?? []), tag]);
  return rows.map((row) => ({ ...row, tags: tagsOf.get(row.contact.id) ?? [] }));
}

/** Rows per insert statement when a list is added (well under PostgreSQL's 65,535 parameters). */
const ADD_CHUNK = 5_000;

/**
 * Adds the tenant's contacts among `contactIds` (another tenant's ids find nothing: RLS), groups left out; answers how
 * many were new (a contact already listed is not added twice).
 */
export async function addRecipients(
  tx: Tx,
  tenantId: number,
  campaignId: number,
  contactIds: number[],
): Promise<number> {
  let added = 0;
  const unique = [...new Set(contactIds)];
  for (let i = 0; i < unique.length; i += ADD_CHUNK) {
    const chunk = unique.slice(i, i + ADD_CHUNK);
    const found = await tx
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(inArray(contacts.id, chunk), eq(contacts.isGroup, false)))
      .orderBy(asc(contacts.id));
    if (found.length === 0) continue;
    const rows = await tx
      .insert(campaignContacts)
      .values(found.map(({ id }) => ({ tenantId, campaignId, contactId: id })))
      .onConflictDoNothing()
      .returning({ id: campaignContacts.id });
    added += rows.length;
  }
  return added;
}

/** The tenant's contacts carrying any of these tags (not groups). */
export async function contactsWithTags(tx: Queryable, tagIds: number[]): Promise<number[]> {
  const rows = await tx
    .selectDistinct({ id: contactTags.contactId })
    .from(contactTags)
    .innerJoin(contacts, eq(contacts.id, contactTags.contactId))
    .where(and(inArray(contactTags.tagId, tagIds), eq(contacts.isGroup, false)));
  return rows.map((row) => row.id);
}

export async function removeRecipient(tx: Queryable, campaignId: number, contactId: number): Promise<boolean> {
  const rows = await tx
    .delete(campaignContacts)
    .where(and(eq(campaignContacts.campaignId, campaignId), eq(campaignContacts.contactId, contactId)))
    .returning({ id: campaignContacts.id });
  return rows.length > 0;
}

export async function removeAllRecipients(tx: Queryable, campaignId: number): Promise<void> {
  await tx.delete(campaignContacts).where(eq(campaignContacts.campaignId, campaignId));
}

/** Copies the recipients of one campaign to another (a duplicate starts with the same list, none sent). */
export async function copyRecipients(tx: Tx, tenantId: number, from: number, to: number): Promise<void> {
  const rows = await tx
    .select({ contactId: campaignContacts.contactId })
    .from(campaignContacts)
    .where(eq(campaignContacts.campaignId, from))
    .orderBy(asc(campaignContacts.id));
  for (let i = 0; i < rows.length; i += ADD_CHUNK) {
    const chunk = rows.slice(i, i + ADD_CHUNK);
    await tx.insert(campaignContacts).values(chunk.map(({ contactId }) => ({ tenantId, campaignId: to, contactId })));
  }
}

export async function hasRecipients(tx: Queryable, campaignId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: campaignContacts.id })
    .from(campaignContacts)
    .where(eq(campaignContacts.campaignId, campaignId))
    .limit(1);
  return Boolean(row);
}
