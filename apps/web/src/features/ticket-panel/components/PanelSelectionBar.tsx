/** The ticket panel's selection bar: how many are chosen, select all / clear, and the mass actions' buttons. */
import { Button, Group, Text } from '@mantine/core';
import { IconArrowsExchange, IconCircleCheck, IconMailOpened } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TicketDto } from '@conversa/shared';

export function PanelSelectionBar({
  tickets,
  chosenCount,
  running,
  onToggle: toggle,
  onClose,
  onTransfer,
  onMarkRead,
}: {
  /** The listed tickets (undefined while loading). */
  tickets: TicketDto[] | undefined;
  chosenCount: number;
  running: boolean;
  onToggle: (ids: number[], on: boolean) => void;
  onClose: () => void;
  onTransfer: () => void;
  onMarkRead: () => void;
}) {
  const { t } = useTranslation();
  const none = chosenCount === 0 || running;
  return (
    <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
      <Text size="sm" aria-live="polite" data-testid="panel-selected">
        {t('ticketPanel.selected', { count: chosenCount, total: tickets?.length ?? 0 })}
      </Text>
      <Group gap="xs">
        <Button
          size="sm"
          variant="default"
          disabled={(tickets?.length ?? 0) === 0 || running}
          onClick={() =>
            toggle(
              (tickets ?? []).map((ticket) => ticket.id),
              chosenCount !== (tickets?.length ?? 0),
            )
          }
          data-testid="panel-select-all"
        >
          {chosenCount === (tickets?.length ?? 0) && chosenCount > 0
            ? t('ticketPanel.clearSelection')
            : t('ticketPanel.selectAll')}
        </Button>
        <Button
          size="sm"
          leftSection={<IconCircleCheck size={16} aria-hidden />}
          disabled={none}
          onClick={onClose}
          data-testid="panel-action-close"
        >
          {t('ticketPanel.actions.close')}
        </Button>
        <Button
          size="sm"
          variant="light"
          leftSection={<IconArrowsExchange size={16} aria-hidden />}
          disabled={none}
          onClick={onTransfer}
          data-testid="panel-action-transfer"
        >
          {t('ticketPanel.actions.transfer')}
        </Button>
        <Button
          size="sm"
          variant="light"
          leftSection={<IconMailOpened size={16} aria-hidden />}
          disabled={none}
          onClick={onMarkRead}
          data-testid="panel-action-read"
        >
          {t('ticketPanel.actions.markRead')}
        </Button>
      </Group>
    </Group>
  );
}
