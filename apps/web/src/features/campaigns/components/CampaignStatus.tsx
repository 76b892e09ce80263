/** A campaign's status badge and its progress bar (processed of total recipients), shared by both screens. */
import { Badge, Group, Progress, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { CampaignDeliveryState, CampaignDto, CampaignStatus } from '@conversa/shared';
import { campaignProgress } from '../campaign-rules';

export const STATUS_COLORS: Record<CampaignStatus, string> = {
  pending: 'blue',
  scheduled: 'cyan',
  processing: 'orange',
  canceled: 'gray',
  finished: 'teal',
};

export const DELIVERY_COLORS: Record<CampaignDeliveryState, string> = {
  pending: 'gray',
  sent: 'blue',
  delivered: 'teal',
  read: 'green',
  failed: 'red',
};

export function CampaignStatusBadge({ campaign }: { campaign: Pick<CampaignDto, 'id' | 'status'> }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={STATUS_COLORS[campaign.status]} data-testid={`campaign-status-${campaign.id}`}>
      {t(`campaigns.status.${campaign.status}`)}
    </Badge>
  );
}

/** Mantine's bar is the `progressbar` (aria-valuenow is the percentage); its label says processed of total. */
export function CampaignProgress({ campaign }: { campaign: CampaignDto }) {
  const { t } = useTranslation();
  const { processed, total, percent } = campaignProgress(campaign);
  const label = t('campaigns.progressLabel', { name: campaign.name, processed, total, percent });
  return (
    <Group gap="xs" wrap="nowrap" miw={140}>
      <Progress
        value={percent}
        flex={1}
        size="md"
        radius="sm"
        color={campaign.status === 'finished' ? 'teal' : 'indigo'}
        aria-label={label}
        data-testid={`campaign-progress-${campaign.id}`}
      />
      <Text size="xs" c="dimmed" aria-hidden>
        {processed}/{total}
      </Text>
    </Group>
  );
}
