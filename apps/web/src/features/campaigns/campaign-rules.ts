/** What a campaign's status allows (product-spec §5) and how far its sending went. */
import { CAMPAIGN_EDITABLE_STATUSES, type CampaignDto } from '@conversa/shared';

/** Only pending or canceled campaigns may be edited, started or have their recipients changed. */
export const isEditable = (campaign: Pick<CampaignDto, 'status'>) =>
  CAMPAIGN_EDITABLE_STATUSES.includes(campaign.status);

/** Scheduled or processing campaigns may be canceled (product-spec §4). */
export const isCancelable = (campaign: Pick<CampaignDto, 'status'>) =>
  campaign.status === 'scheduled' || campaign.status === 'processing';

/** Processed (sent, failed or skipped) of every recipient. */
export function campaignProgress(campaign: Pick<CampaignDto, 'contactsCount' | 'pendentesEnvio'>) {
  const total = campaign.contactsCount;
  const processed = Math.min(total, Math.max(0, total - campaign.pendentesEnvio));
  return { processed, total, percent: total > 0 ? Math.round((processed / total) * 100) : 0 };
}
