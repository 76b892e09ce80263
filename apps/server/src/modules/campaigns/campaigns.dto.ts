/** Campaign rows as the clients read them (client-contract §12). */
import type { CampaignContactDto, CampaignDeliveryState, CampaignDto, CampaignRecipientDto } from '@conversa/shared';
import { ZERO_COUNTS, type CampaignCounts, type CampaignRow, type listRecipients } from './campaigns.repository.js';

export function toCampaignDto(row: CampaignRow, counts: CampaignCounts = ZERO_COUNTS): CampaignDto {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    start: row.startAt?.toISOString() ?? null,
    status: row.status,
    sessionId: row.channelId,
    delay: row.delaySeconds,
    message1: row.message1,
    message2: row.message2,
    message3: row.message3,
    mediaUrl: row.mediaUrl,
    mediaName: row.mediaName,
    mediaType: row.mediaType,
    queueId: row.queueId,
    messageOrder: row.messageOrder,
    userId: row.userId,
    ...counts,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type RecipientJoin = Awaited<ReturnType<typeof listRecipients>>[number];

/** The state a recipient's message gives it (campaigns.repository.ts countsOf says the same in SQL). */
export function deliveryStateOf(row: Pick<RecipientJoin, 'recipient' | 'ack' | 'isDelayed' | 'messageStatus'>) {
  const { recipient } = row;
  let state: CampaignDeliveryState = 'pending';
  if (recipient.processed && recipient.messageId === null) state = 'failed';
  else if (recipient.messageId !== null && row.ack !== null) {
    if (row.isDelayed || row.messageStatus === 'canceled') state = 'failed';
    else if (row.ack >= 3) state = 'read';
    else if (row.ack >= 2) state = 'delivered';
    else if (row.ack >= 1) state = 'sent';
  }
  return state;
}

export function toRecipientDto(row: RecipientJoin): CampaignRecipientDto {
  const { recipient } = row;
  const state = deliveryStateOf(row);
  const campaignContact: CampaignContactDto = {
    id: recipient.id,
    campaignId: recipient.campaignId,
    contactId: recipient.contactId,
    state,
    ack: row.ack ?? 0,
    messageRandom: recipient.messageRandom,
    body: recipient.body,
    messageId: recipient.messageId,
    ticketId: recipient.ticketId,
    reason: recipient.reason ?? (state === 'failed' ? row.sendError : null),
    sentAt: recipient.sentAt?.toISOString() ?? null,
  };
  return {
    id: row.contact.id,
    name: row.contact.name,
    number: row.contact.number,
    tags: row.tags,
    campaignContacts: [campaignContact],
  };
}
