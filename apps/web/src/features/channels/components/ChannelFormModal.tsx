import { useState } from 'react';
import { Button, Group, Modal, Tabs } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ChannelDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { notifySuccess } from '../../../lib/notify';
import { useSaveChannel } from '../api/channels';
import {
  channelToValues,
  FIELD_OF_CODE,
  GENERAL_FIELDS,
  isQrType,
  validateChannel,
  valuesToInput,
  type ChannelFormValues,
  type SupportedTypes,
} from '../hooks/channel-form';
import { notifyFailure } from '../hooks/notify-failure';
import { BehaviourPanel, GeneralPanel, MessagesPanel } from './ChannelFormPanels';
import { ImportPanel } from './ImportPanel';
import { IntegrationsPanel } from './IntegrationsPanel';

interface ChannelFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The channel being edited; undefined adds one. */
  channel?: ChannelDto;
  /** The types offered (default: the shared SUPPORTED_CHANNEL_TYPES). */
  supportedTypes?: SupportedTypes;
}

export function ChannelFormModal({ opened, onClose, channel, supportedTypes }: ChannelFormModalProps) {
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
        <ChannelForm key={channel?.id ?? 'new'} channel={channel} supported={supportedTypes} onDone={onClose} />
      ) : null}
    </Modal>
  );
}

type Tab = 'general' | 'import' | 'messages' | 'behaviour' | 'integrations';

interface ChannelFormProps {
  channel?: ChannelDto;
  supported?: SupportedTypes;
  onDone: () => void;
}

function ChannelForm({ channel, supported, onDone }: ChannelFormProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('general');
  const save = useSaveChannel();
  const form = useForm<ChannelFormValues>({
    mode: 'controlled',
    initialValues: channelToValues(channel, supported),
    validate: (values) => validateChannel(values, channel, t, supported),
  });
  const qr = isQrType(form.getValues().type);

  const onError = (error: unknown) => {
    const field = error instanceof ApiError && error.code ? FIELD_OF_CODE[error.code] : undefined;
    if (field) {
      form.setFieldError(field, describeError(error));
      setTab('general');
    }
    notifyFailure(error, t('channels.saveError'));
  };

  const submit = form.onSubmit(
    (values) =>
      save.mutate(
        { id: channel?.id, input: valuesToInput(values, channel) },
        {
          onSuccess: () => {
            notifySuccess(channel ? t('channels.saved') : t('channels.created'));
            onDone();
          },
          onError,
        },
      ),
    // Checked fields live in the general and import tabs: show the one with the first failure.
    (errors) => setTab(Object.keys(errors).some((field) => GENERAL_FIELDS.has(field)) ? 'general' : 'import'),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Tabs
        value={tab === 'import' && !qr ? 'general' : tab}
        onChange={(value) => setTab((value as Tab | null) ?? 'general')}
        keepMounted
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="general" data-testid="channel-tab-general">
            {t('channels.tabs.general')}
          </Tabs.Tab>
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
