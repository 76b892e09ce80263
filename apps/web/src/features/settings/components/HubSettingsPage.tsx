/**
 * /configuracoes/hub (admin): the tenant's NotificaMe hub token, write-only (PUT /tenantsHubToken/{tenantId}), and the
 * hub account's channels (GET /hub-channel/): "Add" makes one of them a channel of ours (it then shows in the
 * connections), "Set webhook again" registers our webhook at the hub once more.
 */
import { Alert, Badge, Button, Card, Group, Skeleton, Stack, Table, Text, ThemeIcon, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconDeviceFloppy, IconPlus, IconRefresh, IconSitemap } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/QueryError';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  useAddHubChannel,
  useHubChannels,
  useSaveHubToken,
  useSetHubWebhookAgain,
  type HubChannel,
  type TenantTokens,
} from '../api/official-channels';
import { TokenInput, TokensCard } from './TokenSettingsParts';

/** The hub's channel kinds with a text of their own; others show as the hub names them. */
const KNOWN_KINDS = new Set(['whatsapp', 'instagram', 'facebook', 'email', 'telegram', 'webchat', 'sms']);

export function HubSettingsPage() {
  return (
    <TokensCard section="hub">
      {(tokens) => (
        <Stack gap="xl">
          <HubTokenForm tokens={tokens} />
          <HubChannels tokenSet={tokens.hubToken} />
        </Stack>
      )}
    </TokensCard>
  );
}

function HubTokenForm({ tokens }: { tokens: TenantTokens }) {
  const { t } = useTranslation();
  const save = useSaveHubToken();
  const form = useForm({
    initialValues: { hubToken: '' },
    validate: { hubToken: (value) => (value.trim() ? null : t('settings.tokens.nothingToSave')) },
  });
  const send = (hubToken: string | null) =>
    save.mutate(
      { tenantId: tokens.tenantId, hubToken },
      {
        onSuccess: () => {
          if (hubToken) form.setFieldValue('hubToken', '');
          notifySuccess(hubToken ? t('settings.gateways.saved') : t('settings.tokens.removed'));
        },
        onError: (error) => notifyError(describeError(error), t('settings.gateways.saveError')),
      },
    );
  const removing = save.isPending && save.variables.hubToken === null;
  return (
    <form onSubmit={form.onSubmit(({ hubToken }) => send(hubToken.trim()))} noValidate>
      <Stack gap="md">
        <TokenInput
          label={t('settings.hub.token')}
          hint={t('settings.hub.tokenHint')}
          configured={tokens.hubToken}
          testId="settings-hub-token"
          removing={removing}
          onRemove={() => send(null)}
          {...form.getInputProps('hubToken')}
        />
        <Group justify="flex-end">
          <Button
            type="submit"
            loading={save.isPending && !removing}
            leftSection={<IconDeviceFloppy size={16} aria-hidden />}
            data-testid="settings-hub-save"
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function HubChannels({ tokenSet }: { tokenSet: boolean }) {
  const { t } = useTranslation();
  const list = useHubChannels(tokenSet);
  const missingToken = !tokenSet || (list.error instanceof ApiError && list.error.code === 'ERR_HUB_TOKEN_MISSING');
  return (
    <Stack gap="sm" component="section" aria-labelledby="settings-hub-channels">
      <Title order={3} size="h5" id="settings-hub-channels">
        {t('settings.hub.channels.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('settings.hub.channels.description')}
      </Text>
      {missingToken ? (
        <Alert
          color="yellow"
          variant="light"
          icon={<IconAlertTriangle aria-hidden />}
          data-testid="settings-hub-token-missing"
        >
          {t('errors.ERR_HUB_TOKEN_MISSING')}
        </Alert>
      ) : list.isPending ? (
        <Stack aria-busy="true" aria-label={t('common.loading')} data-testid="settings-hub-channels-loading">
          <Skeleton height={36} />
          <Skeleton height={36} />
        </Stack>
      ) : list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : !list.data.length ? (
        <Card withBorder radius="md" padding="lg" data-testid="settings-hub-channels-empty">
          <Stack align="center" gap="xs">
            <ThemeIcon size={44} radius="xl" variant="light">
              <IconSitemap size={24} aria-hidden />
            </ThemeIcon>
            <Text fw={600}>{t('settings.hub.channels.emptyTitle')}</Text>
            <Text size="sm" c="dimmed" ta="center" maw={420}>
              {t('settings.hub.channels.empty')}
            </Text>
          </Stack>
        </Card>
      ) : (
        <ChannelsTable channels={list.data} />
      )}
    </Stack>
  );
}

function ChannelsTable({ channels }: { channels: HubChannel[] }) {
  const { t } = useTranslation();
  const add = useAddHubChannel();
  const again = useSetHubWebhookAgain();
  const kind = (value: string) => (KNOWN_KINDS.has(value) ? t(`settings.hub.kinds.${value}`) : value);
  const addOne = (channel: HubChannel) =>
    add.mutate(channel, {
      onSuccess: () => notifySuccess(t('settings.hub.channels.added', { name: channel.name })),
      onError: (error) => notifyError(describeError(error), t('settings.hub.channels.addError')),
    });
  const setAgain = (channel: HubChannel, whatsappId: number) =>
    again.mutate(whatsappId, {
      onSuccess: () => notifySuccess(t('settings.hub.channels.webhookSet', { name: channel.name })),
      onError: (error) => notifyError(describeError(error), t('settings.hub.channels.webhookError')),
    });
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped withTableBorder verticalSpacing="xs" data-testid="settings-hub-channels">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('settings.hub.channels.name')}</Table.Th>
            <Table.Th scope="col">{t('settings.hub.channels.kind')}</Table.Th>
            <Table.Th scope="col">{t('settings.hub.channels.status')}</Table.Th>
            <Table.Th scope="col">{t('common.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {channels.map((channel) => (
            <Table.Tr key={channel.id} data-testid={`settings-hub-channel-${channel.id}`}>
              <Table.Td>{channel.name}</Table.Td>
              <Table.Td>{kind(channel.channel)}</Table.Td>
              <Table.Td>
                <Badge variant="light" color={channel.connected ? 'teal' : 'gray'}>
                  {channel.connected ? t('settings.hub.channels.connected') : t('settings.hub.channels.notConnected')}
                </Badge>
              </Table.Td>
              <Table.Td>
                {channel.whatsappId === null ? (
                  <Button
                    size="xs"
                    variant="light"
                    leftSection={<IconPlus size={14} aria-hidden />}
                    loading={add.isPending && add.variables.id === channel.id}
                    disabled={add.isPending && add.variables.id !== channel.id}
                    aria-label={t('settings.hub.channels.addNamed', { name: channel.name })}
                    onClick={() => addOne(channel)}
                    data-testid={`settings-hub-add-${channel.id}`}
                  >
                    {t('settings.hub.channels.add')}
                  </Button>
                ) : channel.connected ? (
                  <SetAgainButton
                    channel={channel}
                    whatsappId={channel.whatsappId}
                    pending={again.isPending && again.variables === channel.whatsappId}
                    onClick={setAgain}
                  />
                ) : (
                  <Text size="sm" c="dimmed">
                    {t('settings.hub.channels.inConnections')}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function SetAgainButton({
  channel,
  whatsappId,
  pending,
  onClick,
}: {
  channel: HubChannel;
  whatsappId: number;
  pending: boolean;
  onClick: (channel: HubChannel, whatsappId: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Button
      size="xs"
      variant="subtle"
      leftSection={<IconRefresh size={14} aria-hidden />}
      loading={pending}
      aria-label={t('settings.hub.channels.setAgainNamed', { name: channel.name })}
      onClick={() => onClick(channel, whatsappId)}
      data-testid={`settings-hub-setagain-${channel.id}`}
    >
      {t('settings.hub.channels.setAgain')}
    </Button>
  );
}
