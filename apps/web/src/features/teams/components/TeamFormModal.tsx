import { Button, Group, Modal, Stack, Switch, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { TEAM_NAME_MAX, type TeamDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveTeam } from '../api/teams';

interface TeamFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The team being edited; undefined creates one. */
  team?: TeamDto;
}

export function TeamFormModal({ opened, onClose, team }: TeamFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={team ? t('org.teams.editTitle') : t('org.teams.newTitle')} centered>
      {opened ? <TeamForm key={team?.id ?? 'new'} team={team} onDone={onClose} /> : null}
    </Modal>
  );
}

function TeamForm({ team, onDone }: { team?: TeamDto; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveTeam();
  const form = useForm({
    mode: 'controlled',
    initialValues: { group: team?.group ?? '', isActive: team?.isActive ?? true },
    validate: {
      group: (v) => (v.trim() ? null : t('validation.required', { attribute: t('org.teams.name') })),
    },
  });
  const submit = form.onSubmit((values) =>
    save.mutate(
      { id: team?.id, input: { group: values.group.trim(), isActive: values.isActive } },
      {
        onSuccess: () => {
          notifySuccess(team ? t('org.teams.saved') : t('org.teams.created'));
          onDone();
        },
        onError: (error) => {
          if (error instanceof ApiError && (error.code === 'ERR_TEAM_EXISTS' || error.field === 'group')) {
            form.setFieldError('group', describeError(error));
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
          label={t('org.teams.name')}
          required
          data-autofocus
          autoComplete="off"
          maxLength={TEAM_NAME_MAX}
          data-testid="team-form-name"
          {...form.getInputProps('group')}
        />
        <Switch
          label={t('org.active')}
          data-testid="team-form-active"
          {...form.getInputProps('isActive', { type: 'checkbox' })}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="team-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
