/**
 * Ingestion's campaign hook (issue 25), in the transaction that stores customers' messages of private chats, before
 * the chatbot's hook:
 * - **Answers.** A new conversation of a contact a campaign reached on that channel in the last
 *   `CAMPAIGN_ANSWER_DAYS` days (the newest such send not answered yet) is the campaign's: the ticket takes the
 *   campaign's queue when it names one (the chatbot then leaves it to that queue's humans, chatbot.routing.ts) and
 *   carries the campaign's id and name; the recipient row is marked answered. Only new tickets look (one indexed
 *   statement for a batch); a message on an open conversation is already where an agent works.
 * - **Opt-out.** A message that is, in whole, one of the tenant's stop words (setting `campaignStopWords`, default
 *   "SAIR,STOP", compared without case or accents) flags its contact: every later campaign skips them
 *   (`ERR_CONTACT_OPTED_OUT`). Only messages of a stop word's length read the (cached) setting.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { normalizeAnswer } from '@conversa/shared';
import type { Queryable, Tx } from '../../platform/db/client.js';
import type { EventBus } from '../../platform/events/bus.js';
import { contacts } from '../contacts/contacts.tables.js';
import { findSetting } from '../settings/index.js';
import type { TicketRow } from '../tickets/index.js';
import { tickets } from '../tickets/tickets.tables.js';
import { campaignContacts, campaigns } from './campaigns.tables.js';

/** How long after a campaign's send a new conversation of that contact counts as its answer. */
export const CAMPAIGN_ANSWER_DAYS = 7;
/** How long a node keeps a tenant's stop words before reading them again (its own changes drop them at once). */
export const STOP_WORDS_TTL_MS = 5_000;
/** No stop word is longer: longer messages never read the setting. */
const MAX_STOP_WORD = 40;

/** A customer's message of a private chat on its ticket (the ticket row as stored, changed here in place). */
export interface CampaignInbound {
  ticket: TicketRow;
  created: boolean;
  channelId: number;
  body: string;
}

export interface CampaignIngestionHook {
  afterStore(tx: Tx, tenantId: number, stored: readonly CampaignInbound[]): Promise<void>;
}

/** The tenant's stop words, normalised; empty when the opt-out is off. */
export const parseStopWords = (value: string): string[] =>
  value
    .split(',')
    .map((word) => normalizeAnswer(word))
    .filter((word) => word !== '' && word.length <= MAX_STOP_WORD);

export function createCampaignIngestionHook(
  options: { events?: EventBus; ttlMs?: number; now?: () => number } = {},
): CampaignIngestionHook {
  const ttl = options.ttlMs ?? STOP_WORDS_TTL_MS;
  const now = options.now ?? Date.now;
  const cached = new Map<number, { words: string[]; at: number }>();
  options.events?.subscribe('settings.updated', (event) => {
    if (event.setting.key === 'campaignStopWords') cached.delete(event.tenantId);
  });
  const stopWordsOf = async (tx: Queryable, tenantId: number): Promise<string[]> => {
    const entry = cached.get(tenantId);
    if (entry && now() - entry.at < ttl) return entry.words;
    const words = parseStopWords(await findSetting(tx, tenantId, 'campaignStopWords'));
    cached.set(tenantId, { words, at: now() });
    return words;
  };
  return {
    async afterStore(tx, tenantId, stored) {
      const created = stored.filter((s) => s.created && !s.ticket.isGroup);
      if (created.length > 0) await attributeAnswers(tx, tenantId, created);
      const candidates = stored.filter((s) => s.body.length <= MAX_STOP_WORD * 2 && s.body.trim() !== '');
      if (candidates.length === 0) return;
      const words = await stopWordsOf(tx, tenantId);
      if (words.length === 0) return;
      const optedOut = candidates
        .filter((s) => words.includes(normalizeAnswer(s.body).replace(/[.!]+$/, '')))
        .map((s) => s.ticket.contactId);
      if (optedOut.length === 0) return;
      await tx
        .update(contacts)
        .set({ campaignOptOutAt: sql`now()` })
        .where(and(inArray(contacts.id, [...new Set(optedOut)]), isNull(contacts.campaignOptOutAt)));
    },
  };
}

/** New tickets that answer a campaign's recent send take its queue and name (the file's comment). */
async function attributeAnswers(tx: Tx, tenantId: number, created: readonly CampaignInbound[]): Promise<void> {
  // One channel's messages (ingestion stores a channel's messages together).
  const byContact = new Map(created.map((s) => [s.ticket.contactId, s]));
  const channelId = created[0]!.channelId;
  const sends = await tx
    .selectDistinctOn([campaignContacts.contactId], {
      recipientId: campaignContacts.id,
      contactId: campaignContacts.contactId,
      campaignId: campaigns.id,
      name: campaigns.name,
      queueId: campaigns.queueId,
    })
    .from(campaignContacts)
    .innerJoin(campaigns, eq(campaigns.id, campaignContacts.campaignId))
    .where(
      and(
        eq(campaignContacts.tenantId, tenantId),
        inArray(campaignContacts.contactId, [...byContact.keys()]),
        eq(campaigns.channelId, channelId),
        sql`${campaignContacts.messageId} is not null`,
        isNull(campaignContacts.answeredAt),
        sql`${campaignContacts.sentAt} > now() - make_interval(days => ${CAMPAIGN_ANSWER_DAYS})`,
      ),
    )
    .orderBy(campaignContacts.contactId, sql`${campaignContacts.sentAt} desc`);
  for (const send of sends) {
    const inbound = byContact.get(send.contactId);
    if (!inbound) continue;
    const ticket = inbound.ticket;
    // A ticket the channel already gave to an agent keeps its queue; a free one takes the campaign's.
    const queueId = ticket.userId === null && send.queueId !== null ? send.queueId : ticket.queueId;
    await tx
      .update(tickets)
      .set({ campaignId: send.campaignId, campaignName: send.name, queueId })
      .where(eq(tickets.id, ticket.id));
    Object.assign(ticket, { campaignId: send.campaignId, campaignName: send.name, queueId });
    await tx
      .update(campaignContacts)
      .set({ answeredAt: sql`now()` })
      .where(eq(campaignContacts.id, send.recipientId));
  }
}
