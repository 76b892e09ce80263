import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChannelStatus } from '@conversa/shared';
import { STATUS_COLOR } from '../hooks/channel-display';

/** The live status of a channel: a polite live region, so a screen reader hears it change. */
export function ChannelStatusBadge({ id, status }: { id: number; status: ChannelStatus }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={STATUS_COLOR[status]}
      variant="light"
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-testid={`channel-status-${id}`}
      data-status={status}
    >
      {t(`channels.status.${status}`)}
    </Badge>
  );
}
