/**
 * A NotificaMe hub channel's credentials, read-only: hub channels are added and re-registered from the hub settings
 * (/configuracoes/hub), where the tenant's hub token lives.
 */
import { Alert, Anchor, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChannelDto } from '@conversa/shared';

export function HubCredentials({ channel }: { channel?: ChannelDto }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />} data-testid="channel-form-hub-hint">
        {t('channels.hub.readOnly')}{' '}
        {/* The router is hash-based: a plain link reaches the settings screen from inside the modal. */}
        <Anchor href="#/configuracoes/hub" fw={600} data-testid="channel-form-hub-link">
          {t('channels.hub.settingsLink')}
        </Anchor>
      </Alert>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={t('channels.hub.channelId')}
          value={channel?.wabaId ?? ''}
          placeholder="—"
          readOnly
          data-testid="channel-form-hub-id"
        />
        <TextInput
          label={t('channels.hub.number')}
          value={channel?.number ?? ''}
          placeholder="—"
          readOnly
          data-testid="channel-form-hub-number"
        />
      </SimpleGrid>
    </Stack>
  );
}
