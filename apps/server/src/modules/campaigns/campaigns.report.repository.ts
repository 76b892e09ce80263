/**
 * The report's queries: a page of a campaign's recipients with the state each one's message gives it, keyset on
 * campaign_contacts.id. The state follows countsOf (campaigns.repository.ts) rule for rule, so the report's rows add up
 * to the list's counts: not processed is pending; processed without a message skipped; a message with a send error or
 * canceled failed; else its ack (3+ read, 2 delivered, below that sent).
 */
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { CampaignReportState } from '@conversa/shared';
import type { Queryable } from '../../platform/db/client.js';
import { contacts } from '../contacts/contacts.tables.js';
import { messages } from '../messages/messages.tables.js';
import { tenants } from '../tenants/tenants.tables.js';
import { campaignContacts } from './campaigns.tables.js';

const failed = sql`(${messages.isDelayed} or ${messages.status} = 'canceled')`;

export const recipientState = sql<CampaignReportState>`case
  when not ${campaignContacts.processed} then 'pending'
  when ${campaignContacts.messageId} is null then 'skipped'
  when ${failed} then 'failed'
  when ${messages.ack} >= 3 then 'read'
  when ${messages.ack} >= 2 then 'delivered'
  else 'sent'
end`;

export interface ReportRow {
  id: number;
  contactId: number;
  name: string;
  number: string | null;
  state: CampaignReportState;
  reason: string | null;
  messageRandom: number | null;
  sentAt: Date | null;
}

/** Up to `limit` recipients of the campaign after `afterId` (a campaign_contacts id), in the added order. */
export async function reportPage(
  tx: Queryable,
  campaignId: number,
  afterId: number,
  limit: number,
): Promise<ReportRow[]> {
  const rows = await tx
    .select({
      id: campaignContacts.id,
      contactId: campaignContacts.contactId,
      name: contacts.name,
      number: contacts.number,
      state: recipientState,
      // A skip's reason is the row's; a failed send's is its message's send error (as the recipients list says).
      reason: sql<
        string | null
      >`coalesce(${campaignContacts.reason}, case when ${failed} then ${messages.sendError} end)`,
      messageRandom: campaignContacts.messageRandom,
      sentAt: campaignContacts.sentAt,
    })
    .from(campaignContacts)
    .innerJoin(contacts, eq(contacts.id, campaignContacts.contactId))
    .leftJoin(messages, eq(messages.id, campaignContacts.messageId))
    .where(and(eq(campaignContacts.campaignId, campaignId), gt(campaignContacts.id, afterId)))
    .orderBy(asc(campaignContacts.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, sentAt: row.sentAt ?? null }));
}

/** The company's time zone (the export writes the send times on its clock). */
export async function tenantTimeZone(tx: Queryable, tenantId: number): Promise<string> {
  const [row] = await tx.select({ timeZone: tenants.timezone }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.timeZone ?? 'America/Sao_Paulo';
}
