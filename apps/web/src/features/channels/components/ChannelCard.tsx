import { ActionIcon, Badge, Button, Card, Group, Stack, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import {
  IconHistoryToggle,
  IconPencil,
  IconPlugConnected,
  IconPlugConnectedX,
  IconQrcode,
  IconRefresh,
  IconStarFilled,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChannelDto } from '@conversa/shared';
import { isLiveChannelType } from '../../../lib/live-channels';
import type { SessionAction } from '../api/channels';
import { canConnect, channelHandle, formatUpdatedAt, TYPE_COLOR, TYPE_ICON } from '../hooks/channel-display';
import { ChannelStatusBadge } from './ChannelStatusBadge';

interface ChannelCardProps {
  channel: ChannelDto;
  /** Admins change channels; a supervisor only sees them. */
  canManage: boolean;
  /** The session action running for this channel, if any. */
  pending: SessionAction | null;
  onSession: (channel: ChannelDto, action: SessionAction) => void;
  onShowQrCode: (channel: ChannelDto) => void;
  onEdit: (channel: ChannelDto) => void;
  onDelete: (channel: ChannelDto) => void;
  onImportOld: (channel: ChannelDto) => void;
}

export function ChannelCard({
  channel,
  canManage,
  pending,
  onSession,
  onShowQrCode,
  onEdit,
  onDelete,
  onImportOld,
}: ChannelCardProps) {
  const { t } = useTranslation();
  const Icon = TYPE_ICON[channel.type];
  const handle = channelHandle(channel.type, channel.number);
  const { id, name, status } = channel;
  return (
    <Card
      withBorder
      radius="md"
      padding="md"
      component="article"
      aria-labelledby={`channel-name-${id}`}
      data-testid={`channel-card-${id}`}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: 1 }}>
          <ThemeIcon size={44} radius="xl" variant="light" color={TYPE_COLOR[channel.type]}>
            <Icon size={26} aria-hidden />
          </ThemeIcon>
          <Stack gap={0} miw={0} style={{ flex: 1 }}>
            <Title order={2} size="h4" id={`channel-name-${id}`} lineClamp={1}>
              {name}
            </Title>
            <Text size="sm" c="dimmed" lineClamp={1} dir="ltr" ta="left">
              {handle ?? t('channels.noNumber')}
            </Text>
            <Text size="xs" c="dimmed">
              {t(`channels.types.${channel.type}`)}
            </Text>
          </Stack>
        </Group>
        {/* The badges keep their width (the name truncates instead): "CONECT..." told the admin nothing. */}
        <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
          <ChannelStatusBadge id={id} status={status} />
          {channel.isDefault ? (
            <Badge
              variant="outline"
              color="blue"
              leftSection={<IconStarFilled size={10} aria-hidden />}
              data-testid={`channel-default-${id}`}
            >
              {t('channels.default')}
            </Badge>
          ) : null}
        </Stack>
      </Group>
      <Text size="xs" c="dimmed" mt="sm">
        {t('channels.updatedAt', { date: formatUpdatedAt(channel.updatedAt) })}
      </Text>
      {canManage ? (
        <Group gap="xs" mt="md" justify="space-between" wrap="wrap">
          <Group gap="xs">
            {status === 'qrcode' || status === 'PAIRING' ? (
              <Button
                size="xs"
                variant="light"
                color="yellow"
                leftSection={<IconQrcode size={16} aria-hidden />}
                onClick={() => onShowQrCode(channel)}
                data-testid={`channel-qrcode-${id}`}
              >
                {t('channels.actions.qrcode')}
              </Button>
            ) : null}
            {canConnect(status) ? (
              <Button
                size="xs"
                leftSection={<IconPlugConnected size={16} aria-hidden />}
                loading={pending === 'connect'}
                disabled={pending !== null}
                onClick={() => onSession(channel, 'connect')}
                data-testid={`channel-connect-${id}`}
              >
                {t('channels.actions.connect')}
              </Button>
            ) : (
              <Button
                size="xs"
                variant="light"
                color="red"
                leftSection={<IconPlugConnectedX size={16} aria-hidden />}
                loading={pending === 'disconnect'}
                disabled={pending !== null}
                onClick={() => onSession(channel, 'disconnect')}
                data-testid={`channel-disconnect-${id}`}
              >
                {t('channels.actions.disconnect')}
              </Button>
            )}
          </Group>
          <Group gap={4}>
            {status === 'CONNECTED' && isLiveChannelType(channel.type) ? (
              <Tooltip label={t('channels.importOld.action')}>
                <ActionIcon
                  variant="subtle"
                  size="lg"
                  aria-label={t('channels.importOld.actionNamed', { name })}
                  disabled={pending !== null}
                  onClick={() => onImportOld(channel)}
                  data-testid={`channel-import-old-${id}`}
                >
                  <IconHistoryToggle size={18} aria-hidden />
                </ActionIcon>
              </Tooltip>
            ) : null}
            <Tooltip label={t('channels.actions.restart')}>
              <ActionIcon
                variant="subtle"
                size="lg"
                aria-label={t('channels.actions.restartNamed', { name })}
                loading={pending === 'restart'}
                disabled={pending !== null}
                onClick={() => onSession(channel, 'restart')}
                data-testid={`channel-restart-${id}`}
              >
                <IconRefresh size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('common.edit')}>
              <ActionIcon
                variant="subtle"
                size="lg"
                aria-label={t('channels.actions.editNamed', { name })}
                onClick={() => onEdit(channel)}
                data-testid={`channel-edit-${id}`}
              >
                <IconPencil size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('common.delete')}>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={t('channels.actions.deleteNamed', { name })}
                onClick={() => onDelete(channel)}
                data-testid={`channel-delete-${id}`}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      ) : null}
    </Card>
  );
}
