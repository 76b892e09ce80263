/**
 * The webhook of a saved Meta channel (decisions of issue 15): the callback URL and the verify token the admin pastes
 * into the app's Webhooks settings in Meta's developer dashboard, each with a copy button.
 */
import { ActionIcon, Alert, Card, CopyButton, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChannelDto } from '@conversa/shared';

export function MetaWebhookPanel({ channel }: { channel: ChannelDto }) {
  const { t } = useTranslation();
  // Meta channels carry it once saved (decisions of issue 15); absent or null: the server has not given one.
  const webhook = channel.metaWebhook ?? null;
  const place = t(`channels.webhook.where.${channel.type === 'waba' ? 'waba' : 'page'}`);
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby="channel-webhook-title">
      <Title order={3} size="h5" id="channel-webhook-title">
        {t('channels.webhook.title')}
      </Title>
      {webhook ? (
        <Stack gap="sm" mt="xs">
          <Text size="sm" c="dimmed">
            {place}
          </Text>
          <CopyField label={t('channels.webhook.url')} value={webhook.url} testId="channel-webhook-url" />
          <CopyField
            label={t('channels.webhook.verifyToken')}
            value={webhook.verifyToken}
            testId="channel-webhook-token"
          />
        </Stack>
      ) : (
        <Alert
          mt="xs"
          color="blue"
          variant="light"
          icon={<IconInfoCircle aria-hidden />}
          data-testid="channel-webhook-pending"
        >
          {t('channels.webhook.pending')}
        </Alert>
      )}
    </Card>
  );
}

function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput
        label={label}
        value={value}
        readOnly
        dir="ltr"
        style={{ flex: 1 }}
        onFocus={(event) => event.currentTarget.select()}
        data-testid={testId}
      />
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('channels.webhook.copied') : t('channels.webhook.copy')} withArrow>
            <ActionIcon
              variant="light"
              color={copied ? 'teal' : 'blue'}
              size="lg"
              mb={1}
              aria-label={t('channels.webhook.copyNamed', { label })}
              onClick={copy}
              data-testid={`${testId}-copy`}
            >
              {copied ? <IconCheck size={18} aria-hidden /> : <IconCopy size={18} aria-hidden />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
