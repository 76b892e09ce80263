import { useState } from 'react';
import { Button, Group, Modal, Stack, Tabs } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { channelDtoSchema, type ChannelDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { notifySuccess } from '../../../lib/notify';
import { useSaveChannel } from '../api/channels';
import {
  channelToValues,
  FIELD_OF_CODE,
  GENERAL_FIELDS,
  isHubType,
  isMetaType,
  isQrType,
  META_FIELDS,
  validateChannel,
  valuesToInput,
  wabaCredentialKey,
  wabaNeedsVerify,
  type ChannelFormValues,
  type SupportedTypes,
} from '../hooks/channel-form';
import { notifyFailure } from '../hooks/notify-failure';
import { BehaviourPanel, GeneralPanel, MessagesPanel } from './ChannelFormPanels';
import { HubCredentials } from './HubCredentials';
import { ImportPanel } from './ImportPanel';
import { IntegrationsPanel } from './IntegrationsPanel';
import { MetaWebhookPanel } from './MetaWebhookPanel';
import { PageFields } from './PageFields';
import { WabaFields, type WabaVerification } from './WabaFields';

interface ChannelFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The channel being edited; undefined adds one. */
  channel?: ChannelDto;
  /** The types offered (default: the shared SUPPORTED_CHANNEL_TYPES). */
  supportedTypes?: SupportedTypes;
  /** The tab shown first (the credentials of a Meta channel just created, to copy its webhook). */
  initialTab?: Tab;
  /** A Meta channel was created (instead of closing): the page reopens it on its webhook. */
  onMetaCreated?: (channel: ChannelDto) => void;
}

export function ChannelFormModal({
  opened,
  onClose,
  channel,
  supportedTypes,
  initialTab,
  onMetaCreated,
}: ChannelFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={channel ? t('channels.editTitle') : t('channels.newTitle')}
      size="xl"
      centered
      closeButtonProps={{ 'aria-label': t('common.close') }}
    >
      {opened ? (
        <ChannelForm
          key={channel?.id ?? 'new'}
          channel={channel}
          supported={supportedTypes}
          initialTab={initialTab}
          onDone={onClose}
          onMetaCreated={onMetaCreated}
        />
      ) : null}
    </Modal>
  );
}

export type Tab = 'general' | 'credentials' | 'import' | 'messages' | 'behaviour' | 'integrations';

interface ChannelFormProps {
  channel?: ChannelDto;
  supported?: SupportedTypes;
  initialTab?: Tab;
  onDone: () => void;
  onMetaCreated?: (channel: ChannelDto) => void;
}

function ChannelForm({ channel, supported, initialTab, onDone, onMetaCreated }: ChannelFormProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>(initialTab ?? 'general');
  const save = useSaveChannel();
  // The last successful waba check and the credentials it checked.
  const [verification, onVerified] = useState<WabaVerification | null>(null);
  const form = useForm<ChannelFormValues>({
    mode: 'controlled',
    initialValues: channelToValues(channel, supported),
    validate: (values) => validateChannel(values, channel, t, supported),
  });
  const type = form.getValues().type;
  const qr = isQrType(type);
  const credentials = isMetaType(type) || isHubType(type);

  /** The tab holding a field: a Meta channel's credentials have their own. */
  const tabOf = (field: string): Tab =>
    isMetaType(form.getValues().type) && META_FIELDS.has(field)
      ? 'credentials'
      : GENERAL_FIELDS.has(field)
        ? 'general'
        : 'import';

  const onError = (error: unknown) => {
    const field = error instanceof ApiError && error.code ? FIELD_OF_CODE[error.code] : undefined;
    if (field) {
      form.setFieldError(field, describeError(error));
      if (field === 'verify') onVerified(null);
      setTab(field === 'verify' ? 'credentials' : 'general');
    }
    notifyFailure(error, t('channels.saveError'));
  };

  const submit = form.onSubmit(
    (values) => {
      // New or changed waba credentials are saved only once Graph accepted exactly these.
      if (wabaNeedsVerify(values, channel) && verification?.key !== wabaCredentialKey(values)) {
        form.setFieldError('verify', t('channels.meta.waba.verifyRequired'));
        setTab('credentials');
        return;
      }
      save.mutate(
        { id: channel?.id, input: valuesToInput(values, channel) },
        {
          onSuccess: (body) => {
            notifySuccess(channel ? t('channels.saved') : t('channels.created'));
            const created = channel ? null : channelDtoSchema.safeParse(body);
            // A new Meta channel stays on screen: its webhook must now be pasted into Meta's dashboard.
            if (created?.success && isMetaType(created.data.type) && onMetaCreated) onMetaCreated(created.data);
            else onDone();
          },
          onError,
        },
      );
    },
    // Show the tab of the first failure, the general tab first.
    (errors) => {
      const tabs = Object.keys(errors).map(tabOf);
      setTab((['general', 'credentials', 'import'] as const).find((name) => tabs.includes(name)) ?? 'general');
    },
  );
  const shown: Tab = (tab === 'import' && !qr) || (tab === 'credentials' && !credentials) ? 'general' : tab;

  return (
    <form onSubmit={submit} noValidate>
      <Tabs value={shown} onChange={(value) => setTab((value as Tab | null) ?? 'general')} keepMounted>
        <Tabs.List mb="md">
          <Tabs.Tab value="general" data-testid="channel-tab-general">
            {t('channels.tabs.general')}
          </Tabs.Tab>
          {credentials ? (
            <Tabs.Tab value="credentials" data-testid="channel-tab-credentials">
              {t('channels.tabs.credentials')}
            </Tabs.Tab>
          ) : null}
          {qr ? (
            <Tabs.Tab value="import" data-testid="channel-tab-import">
              {t('channels.tabs.import')}
            </Tabs.Tab>
          ) : null}
          <Tabs.Tab value="messages" data-testid="channel-tab-messages">
            {t('channels.tabs.messages')}
          </Tabs.Tab>
          <Tabs.Tab value="behaviour" data-testid="channel-tab-behaviour">
            {t('channels.tabs.behaviour')}
          </Tabs.Tab>
          <Tabs.Tab value="integrations" data-testid="channel-tab-integrations">
            {t('channels.tabs.integrations')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="general">
          <GeneralPanel form={form} channel={channel} supported={supported} />
        </Tabs.Panel>
        {credentials ? (
          <Tabs.Panel value="credentials">
            <CredentialsPanel form={form} channel={channel} verification={verification} onVerified={onVerified} />
          </Tabs.Panel>
        ) : null}
        {qr ? (
          <Tabs.Panel value="import">
            <ImportPanel form={form} />
          </Tabs.Panel>
        ) : null}
        <Tabs.Panel value="messages">
          <MessagesPanel form={form} channel={channel} />
        </Tabs.Panel>
        <Tabs.Panel value="behaviour">
          <BehaviourPanel form={form} />
        </Tabs.Panel>
        <Tabs.Panel value="integrations">
          <IntegrationsPanel form={form} channel={channel} />
        </Tabs.Panel>
      </Tabs>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onDone}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={save.isPending} data-testid="channel-form-submit">
          {t('common.save')}
        </Button>
      </Group>
    </form>
  );
}

interface CredentialsPanelProps {
  form: UseFormReturnType<ChannelFormValues>;
  channel?: ChannelDto;
  verification: WabaVerification | null;
  onVerified: (verification: WabaVerification | null) => void;
}

/** The credentials tab: per Meta type its fields (and, once saved, the webhook); hub channels read-only. */
function CredentialsPanel({ form, channel, verification, onVerified }: CredentialsPanelProps) {
  const type = form.getValues().type;
  if (isHubType(type)) return <HubCredentials channel={channel} />;
  return (
    <Stack gap="lg">
      {type === 'waba' ? (
        <WabaFields form={form} channel={channel} verification={verification} onVerified={onVerified} />
      ) : (
        <PageFields form={form} channel={channel} />
      )}
      {channel?.type === type ? <MetaWebhookPanel channel={channel} /> : null}
    </Stack>
  );
}
