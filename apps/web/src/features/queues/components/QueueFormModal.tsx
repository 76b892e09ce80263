import { Button, Group, Modal, Select, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { DISTRIBUTION_MODES, type DistributionMode, type QueueDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveQueue } from '../api/queues';

interface QueueFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The queue being edited; undefined creates one. */
  queue?: QueueDto;
}

export function QueueFormModal({ opened, onClose, queue }: QueueFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={queue ? t('org.queues.editTitle') : t('org.queues.newTitle')}
      centered
    >
      {opened ? <QueueForm key={queue?.id ?? 'new'} queue={queue} onDone={onClose} /> : null}
    </Modal>
  );
}

function QueueForm({ queue, onDone }: { queue?: QueueDto; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveQueue();
  const form = useForm({
    mode: 'controlled',
    initialValues: {
      queue: queue?.queue ?? '',
      isActive: queue?.isActive ?? true,
      distribution: queue?.distribution ?? ('N' as DistributionMode),
    },
    validate: {
      queue: (v) => (v.trim() ? null : t('validation.required', { attribute: t('org.queues.name') })),
    },
  });
  const submit = form.onSubmit((values) =>
    save.mutate(
      {
        id: queue?.id,
        input: { queue: values.queue.trim(), isActive: values.isActive, distribution: values.distribution },
      },
      {
        onSuccess: () => {
          notifySuccess(queue ? t('org.queues.saved') : t('org.queues.created'));
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError && (error.code === 'ERR_QUEUE_EXISTS' || error.field === 'queue')) {
            form.setFieldError('queue', describeError(error));
          }
          notifyError(describeError(error));
        },
      },
    ),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('org.queues.name')}
          required
          data-autofocus
          autoComplete="off"
          maxLength={120}
          data-testid="queue-form-name"
          {...form.getInputProps('queue')}
        />
        <Select
          label={t('org.queues.distribution')}
          description={t('org.queues.distributionHint')}
          data={DISTRIBUTION_MODES.map((mode) => ({ value: mode, label: t(`distribution.${mode}`) }))}
          allowDeselect={false}
          data-testid="queue-form-distribution"
          {...form.getInputProps('distribution')}
        />
        <Switch
          label={t('org.active')}
          data-testid="queue-form-active"
          {...form.getInputProps('isActive', { type: 'checkbox' })}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="queue-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
