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
  validateChannel,
  valuesToInput,
  type ChannelFormValues,
} from '../hooks/channel-form';
import { notifyFailure } from '../hooks/notify-failure';
import { BehaviourPanel, GeneralPanel, MessagesPanel } from './ChannelFormPanels';
import { IntegrationsPanel } from './IntegrationsPanel';

interface ChannelFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The channel being edited; undefined adds one. */
  channel?: ChannelDto;
}

export function ChannelFormModal({ opened, onClose, channel }: ChannelFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={channel ? t('channels.editTitle') : t('channels.newTitle')}
      size="xl"
      centered
    >
      {opened ? <ChannelForm key={channel?.id ?? 'new'} channel={channel} onDone={onClose} /> : null}
    </Modal>
  );
}

type Tab = 'general' | 'messages' | 'behaviour' | 'integrations';

function ChannelForm({ channel, onDone }: { channel?: ChannelDto; onDone: () => void }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('general');
  const save = useSaveChannel();
  const form = useForm<ChannelFormValues>({
    mode: 'controlled',
    initialValues: channelToValues(channel),
    validate: (values) => validateChannel(values, channel, t),
  });

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
    // Only the general tab has checked fields: show it when one fails.
    () => setTab('general'),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Tabs value={tab} onChange={(value) => setTab((value as Tab | null) ?? 'general')} keepMounted>
        <Tabs.List mb="md">
          <Tabs.Tab value="general" data-testid="channel-tab-general">
            {t('channels.tabs.general')}
          </Tabs.Tab>
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
          <GeneralPanel form={form} channel={channel} />
        </Tabs.Panel>
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
