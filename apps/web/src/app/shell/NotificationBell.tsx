import { useState } from 'react';
import {
  ActionIcon,
  Button,
  Group,
  Indicator,
  Loader,
  Popover,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconBell, IconChecks } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { NotificationDto } from '@conversa/shared';
import { formatDateTime } from '../../lib/dates';
import {
  notificationText,
  useBellLive,
  useBellNotifications,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
} from './notifications-api';

/** The header's bell: unread count, the newest notifications; a mention opens its ticket and is marked read. */
export function NotificationBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const list = useBellNotifications();
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  useBellLive();
  const unread = list.data?.unread ?? 0;
  const items = list.data?.notifications ?? [];

  const open = (notification: NotificationDto) => {
    if (!notification.isRead && notification.userId !== null) markRead.mutate(notification.id);
    if (notification.data.ticketId !== undefined) {
      setOpened(false);
      void navigate(`/atendimento/${notification.data.ticketId}`);
    }
  };

  return (
    <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} withinPortal shadow="md">
      <Popover.Target>
        <Tooltip label={t('notifications.title')} disabled={opened}>
          <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={unread === 0} offset={4} color="red">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={unread ? t('notifications.bellUnread', { count: unread }) : t('notifications.title')}
              aria-haspopup="dialog"
              aria-expanded={opened}
              onClick={() => setOpened((o) => !o)}
              data-testid="notification-bell"
            >
              <IconBell size={18} aria-hidden />
            </ActionIcon>
          </Indicator>
        </Tooltip>
      </Popover.Target>
      <Popover.Dropdown p={0} role="dialog" aria-label={t('notifications.title')} data-testid="notification-list">
        <Group justify="space-between" px="sm" py="xs">
          <Text fw={600} size="sm">
            {t('notifications.title')}
          </Text>
          <Button
            size="compact-xs"
            variant="subtle"
            leftSection={<IconChecks size={14} aria-hidden />}
            disabled={unread === 0}
            loading={markAll.isPending}
            onClick={() => markAll.mutate()}
            data-testid="notification-read-all"
          >
            {t('notifications.readAll')}
          </Button>
        </Group>
        {list.isLoading ? (
          <Group justify="center" p="md" role="status" aria-label={t('common.loading')}>
            <Loader size="sm" />
          </Group>
        ) : items.length === 0 ? (
          <Text size="sm" c="dimmed" p="md" ta="center">
            {t('notifications.empty')}
          </Text>
        ) : (
          <ScrollArea.Autosize mah={380} type="auto">
            <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
              {items.map((notification) => (
                <li key={notification.id}>
                  <UnstyledButton
                    w="100%"
                    px="sm"
                    py="xs"
                    onClick={() => open(notification)}
                    bg={notification.isRead ? undefined : 'var(--mantine-primary-color-light)'}
                    data-testid={`notification-${notification.id}`}
                    data-unread={!notification.isRead || undefined}
                  >
                    <Text size="sm" fw={notification.isRead ? 400 : 600} lineClamp={3}>
                      {!notification.isRead ? (
                        <span className="visually-hidden">{t('notifications.unread')}: </span>
                      ) : null}
                      {notificationText(notification)}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {formatDateTime(notification.createdAt)}
                    </Text>
                  </UnstyledButton>
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
