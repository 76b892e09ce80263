import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { LANE_NAME_MAX, type LaneDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveLane } from '../api/lanes';

interface LaneFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The lane being edited; undefined creates one (after the last lane). */
  lane?: LaneDto;
}

export function LaneFormModal({ opened, onClose, lane }: LaneFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={lane ? t('kanban.lanes.editTitle') : t('kanban.lanes.newTitle')}
      centered
    >
      {opened ? <LaneForm key={lane?.id ?? 'new'} lane={lane} onDone={onClose} /> : null}
    </Modal>
  );
}

function LaneForm({ lane, onDone }: { lane?: LaneDto; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveLane();
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: lane?.name ?? '' },
    validate: {
      name: (v) => (v.trim() ? null : t('validation.required', { attribute: t('kanban.lanes.name') })),
    },
  });
  const submit = form.onSubmit((values) =>
    save.mutate(
      { id: lane?.id, input: { name: values.name.trim(), ...(lane ? { position: lane.position } : {}) } },
      {
        onSuccess: () => {
          notifySuccess(lane ? t('kanban.lanes.saved') : t('kanban.lanes.created'));
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.field === 'name') form.setFieldError('name', describeError(error));
          notifyError(describeError(error));
        },
      },
    ),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('kanban.lanes.name')}
          required
          data-autofocus
          autoComplete="off"
          maxLength={LANE_NAME_MAX}
          data-testid="lane-form-name"
          {...form.getInputProps('name')}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="lane-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
