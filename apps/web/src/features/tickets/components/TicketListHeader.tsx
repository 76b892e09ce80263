import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, TextInput, Title, Tooltip } from '@mantine/core';
import {
  IconBell,
  IconBellOff,
  IconFilter,
  IconPlus,
  IconSearch,
  IconVolume,
  IconVolumeOff,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  notificationState,
  requestNotificationPermission,
  setSoundMuted,
  useSoundMuted,
  type NotificationState,
} from '../hooks/ticket-alerts';

interface TicketListHeaderProps {
  search: string;
  onSearch: (value: string) => void;
  activeFilters: number;
  onOpenFilter: () => void;
  onNewTicket: () => void;
}

/** Title, new ticket, sound and desktop-notification toggles, the advanced filter and the search box. */
export function TicketListHeader({
  search,
  onSearch,
  activeFilters,
  onOpenFilter,
  onNewTicket,
}: TicketListHeaderProps) {
  const { t } = useTranslation();
  const muted = useSoundMuted();
  const [permission, setPermission] = useState<NotificationState>(notificationState);
  const notificationsLabel =
    permission === 'granted'
      ? t('tickets.notifications.on')
      : permission === 'denied'
        ? t('tickets.notifications.denied')
        : permission === 'unsupported'
          ? t('tickets.notifications.unsupported')
          : t('tickets.notifications.ask');
  return (
    <>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Title order={1} size="h4" data-testid="page-title">
          {t('tickets.title')}
        </Title>
        <Group gap={4} wrap="nowrap">
          <Tooltip label={muted ? t('tickets.sound.off') : t('tickets.sound.on')}>
            <ActionIcon
              variant="subtle"
              data-testid="tickets-sound-toggle"
              aria-pressed={muted}
              aria-label={t('tickets.sound.mute')}
              onClick={() => setSoundMuted(!muted)}
            >
              {muted ? <IconVolumeOff size={18} aria-hidden /> : <IconVolume size={18} aria-hidden />}
            </ActionIcon>
          </Tooltip>
          <Tooltip label={notificationsLabel}>
            <ActionIcon
              variant="subtle"
              data-testid="tickets-notifications"
              aria-label={notificationsLabel}
              disabled={permission !== 'default'}
              onClick={() => void requestNotificationPermission().then(setPermission)}
            >
              {permission === 'granted' ? <IconBell size={18} aria-hidden /> : <IconBellOff size={18} aria-hidden />}
            </ActionIcon>
          </Tooltip>
          <Button
            size="compact-sm"
            leftSection={<IconPlus size={14} aria-hidden />}
            data-testid="tickets-new"
            onClick={onNewTicket}
          >
            {t('tickets.new')}
          </Button>
        </Group>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          size="sm"
          value={search}
          onChange={(event) => onSearch(event.currentTarget.value)}
          placeholder={t('tickets.searchPlaceholder')}
          aria-label={t('tickets.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          data-testid="tickets-search"
        />
        <Button
          variant={activeFilters > 0 ? 'light' : 'default'}
          size="sm"
          px="xs"
          data-testid="tickets-filter-open"
          onClick={onOpenFilter}
          leftSection={<IconFilter size={16} aria-hidden />}
          rightSection={
            activeFilters > 0 ? (
              <Badge size="xs" circle>
                {activeFilters}
              </Badge>
            ) : null
          }
        >
          {t('tickets.filter.short')}
        </Button>
      </Group>
    </>
  );
}
