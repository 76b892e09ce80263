import { useCallback, useState } from 'react';
import { Alert, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconInfoCircle, IconPlugConnected, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChannelDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { notifySuccess } from '../../../lib/notify';
import { useStoredSession } from '../../../lib/storage';
import { useChannels, useChannelSession, useDeleteChannel, type SessionAction } from '../api/channels';
import { isQrType } from '../hooks/channel-form';
import { notifyFailure } from '../hooks/notify-failure';
import { ChannelCard } from './ChannelCard';
import { ChannelFormModal, type Tab } from './ChannelFormModal';
import { ImportOldMessagesModal } from './ImportOldMessagesModal';
import { QrCodeModal } from './QrCodeModal';

type Dialog =
  | { kind: 'form'; channelId?: number; tab?: Tab }
  | { kind: 'qrcode'; channelId: number }
  | { kind: 'importOld'; channelId: number }
  | null;

/** The channels screen `/sessoes` (product-spec §2 "Channels"): admins manage, supervisors watch. */
export function ChannelsPage() {
  const { t } = useTranslation();
  const session = useStoredSession();
  const canManage = session?.profile === 'admin';
  const list = useChannels();
  const remove = useDeleteChannel();
  const sessionAction = useChannelSession();
  const [dialog, setDialog] = useState<Dialog>(null);
  const closeDialog = useCallback(() => setDialog(null), []);
  const channels = list.data;
  // Dialogs read the channel from the cache, so a socket update reaches an open QR code at once.
  const dialogChannel = dialog?.channelId !== undefined ? channels?.find((c) => c.id === dialog.channelId) : undefined;
  const pendingFor = (id: number): SessionAction | null =>
    sessionAction.isPending && sessionAction.variables.channel.id === id ? sessionAction.variables.action : null;

  const runSession = (channel: ChannelDto, action: SessionAction) =>
    sessionAction.mutate(
      { channel, action },
      {
        onSuccess: () => {
          notifySuccess(t(`channels.session.${action}Done`, { name: channel.name }));
          // QR channels send their QR code (or pairing code) by socket once started; the modal follows it live.
          if (action !== 'disconnect' && isQrType(channel.type)) setDialog({ kind: 'qrcode', channelId: channel.id });
        },
        onError: (error) => notifyFailure(error, t(`channels.session.${action}Error`)),
      },
    );

  const askDelete = (channel: ChannelDto) =>
    confirmDelete({
      title: t('channels.deleteTitle'),
      message: t('channels.deleteConfirm', { name: channel.name }),
      onConfirm: () =>
        remove.mutate(channel.id, {
          onSuccess: () => notifySuccess(t('channels.deleted')),
          onError: (error) => notifyFailure(error, t('channels.deleteError')),
        }),
    });

  const addButton = (testId: string) => (
    <Button
      leftSection={<IconPlus size={16} aria-hidden />}
      onClick={() => setDialog({ kind: 'form' })}
      data-testid={testId}
    >
      {t('channels.add')}
    </Button>
  );

  return (
    <>
      <PageTitle
        title={t('channels.title')}
        description={t('channels.subtitle')}
        actions={canManage ? addButton('channels-add') : null}
      />
      {!canManage ? (
        <Alert
          variant="light"
          color="blue"
          icon={<IconInfoCircle aria-hidden />}
          mb="md"
          data-testid="channels-read-only"
        >
          {t('channels.readOnly')}
        </Alert>
      ) : null}
      {list.isPending ? (
        <CardsSkeleton label={t('common.loading')} />
      ) : list.isError && !channels ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : !channels?.length ? (
        <Card withBorder radius="md" padding="xl" data-testid="channels-empty">
          <Stack align="center" gap="sm">
            <ThemeIcon size={56} radius="xl" variant="light">
              <IconPlugConnected size={30} aria-hidden />
            </ThemeIcon>
            <Text fw={600}>{t('channels.emptyTitle')}</Text>
            <Text c="dimmed" size="sm" ta="center" maw={420}>
              {canManage ? t('channels.empty') : t('channels.emptyReadOnly')}
            </Text>
            {canManage ? addButton('channels-empty-add') : null}
          </Stack>
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md" data-testid="channels-list">
          {channels.map((channel) => (
            <ChannelCard
              key={channel.id}
              channel={channel}
              canManage={canManage}
              pending={pendingFor(channel.id)}
              onSession={runSession}
              onShowQrCode={(c) => setDialog({ kind: 'qrcode', channelId: c.id })}
              onEdit={(c) => setDialog({ kind: 'form', channelId: c.id })}
              onDelete={askDelete}
              onImportOld={(c) => setDialog({ kind: 'importOld', channelId: c.id })}
            />
          ))}
        </SimpleGrid>
      )}
      {canManage ? (
        <>
          <ChannelFormModal
            // A channel deleted meanwhile (by socket) closes its form rather than turning it into a new one.
            opened={dialog?.kind === 'form' && (dialog.channelId === undefined || dialogChannel !== undefined)}
            onClose={closeDialog}
            channel={dialog?.kind === 'form' ? dialogChannel : undefined}
            initialTab={dialog?.kind === 'form' ? dialog.tab : undefined}
            // A new Meta channel opens again on its credentials tab, where its webhook is to be copied.
            onMetaCreated={(created) => setDialog({ kind: 'form', channelId: created.id, tab: 'credentials' })}
          />
          <QrCodeModal channel={dialog?.kind === 'qrcode' ? (dialogChannel ?? null) : null} onClose={closeDialog} />
          <ImportOldMessagesModal
            channel={dialog?.kind === 'importOld' ? dialogChannel : undefined}
            onClose={closeDialog}
          />
        </>
      ) : null}
    </>
  );
}

function CardsSkeleton({ label }: { label: string }) {
  return (
    <SimpleGrid
      cols={{ base: 1, sm: 2, xl: 3 }}
      spacing="md"
      aria-busy="true"
      aria-label={label}
      data-testid="channels-loading"
    >
      {Array.from({ length: 3 }, (_, index) => (
        <Card key={index} withBorder radius="md" padding="md">
          <Group gap="sm" wrap="nowrap">
            <Skeleton h={44} w={44} circle />
            <Stack gap={6} style={{ flex: 1 }}>
              <Skeleton h={16} w="60%" />
              <Skeleton h={12} w="40%" />
            </Stack>
          </Group>
          <Skeleton h={28} mt="md" w="50%" />
        </Card>
      ))}
    </SimpleGrid>
  );
}
