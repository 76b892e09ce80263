import { Button, Group, Modal, MultiSelect, NativeSelect, Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { Profile, UserDto } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useChannelOptions, useCreateUser, useQueueOptions, useUpdateUser } from '../api/users';
import { identityRules, UserIdentityFields } from './UserIdentityFields';

const FIELD_OF_CODE: Record<string, 'email' | 'password' | 'name'> = {
  ERR_EMAIL_ALREADY_EXISTS: 'email',
};

interface UserFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The user being edited; undefined creates one. */
  user?: UserDto;
  currentUserId: number;
  currentProfile: Profile;
}

interface Values {
  name: string;
  email: string;
  password: string;
  profile: Profile;
  blockWavoip: boolean;
  /** Ids as strings (MultiSelect values). */
  queues: string[];
  whatsappAllowed: string[];
}

export function UserFormModal({ opened, onClose, user, currentUserId, currentProfile }: UserFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={user ? t('users.editTitle') : t('users.newTitle')}
      centered
      size="lg"
    >
      {opened ? (
        <UserForm
          key={user?.id ?? 'new'}
          user={user}
          onDone={onClose}
          currentUserId={currentUserId}
          currentProfile={currentProfile}
        />
      ) : null}
    </Modal>
  );
}

function UserForm({
  user,
  onDone,
  currentUserId,
  currentProfile,
}: {
  user?: UserDto;
  onDone: () => void;
  currentUserId: number;
  currentProfile: Profile;
}) {
  const { t } = useTranslation();
  const create = useCreateUser();
  const update = useUpdateUser();
  const editing = Boolean(user);
  const mayAssign = currentProfile === 'admin' || currentProfile === 'superadmin';
  const queueOptions = useQueueOptions();
  const channelOptions = useChannelOptions();
  const ownRow = user?.id === currentUserId;
  const profiles: Profile[] =
    currentProfile === 'superadmin' ? ['user', 'super', 'admin', 'superadmin'] : ['user', 'super', 'admin'];
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: user?.name ?? '',
      email: user?.email ?? '',
      password: '',
      profile: user?.profile ?? 'user',
      blockWavoip: user?.blockWavoip ?? false,
      queues: (user?.queues ?? []).map((queue) => String(queue.id)),
      whatsappAllowed: (user?.whatsappAllowed ?? []).map((channel) => String(channel.id)),
    },
    validate: identityRules(t, editing),
  });

  const onError = (error: unknown) => {
    const field = error instanceof ApiError ? (FIELD_OF_CODE[error.code ?? ''] ?? error.field) : undefined;
    if (field && field in form.values) form.setFieldError(field, describeError(error));
    notifyError(describeError(error));
  };

  const submit = form.onSubmit((values) => {
    const base = {
      name: values.name.trim(),
      email: values.email.trim(),
      blockWavoip: values.blockWavoip,
      // Only admins change queues and channels; others echo what they were given (the server accepts an unchanged list).
      queues: values.queues.map(Number),
      whatsappAllowed: values.whatsappAllowed.map(Number),
      ...(ownRow ? {} : { profile: values.profile }),
    };
    if (user) {
      update.mutate(
        { id: user.id, input: { ...base, ...(values.password ? { password: values.password } : {}) } },
        {
          onSuccess: () => {
            notifySuccess(t('users.saved'));
            onDone();
          },
          onError,
        },
      );
    } else {
      create.mutate(
        { ...base, password: values.password, profile: values.profile },
        {
          onSuccess: () => {
            notifySuccess(t('users.created'));
            onDone();
          },
          onError,
        },
      );
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <UserIdentityFields
          inputProps={(field) => form.getInputProps(field)}
          password={form.values.password}
          editing={editing}
        />
        <NativeSelect
          label={t('fields.profile')}
          data={profiles.map((profile) => ({ value: profile, label: t(`profiles.${profile}`) }))}
          disabled={ownRow}
          description={ownRow ? t('users.ownProfile') : undefined}
          data-testid="user-form-profile"
          {...form.getInputProps('profile')}
        />
        <MultiSelect
          label={t('userAccess.queues')}
          description={t('userAccess.queuesHelp')}
          placeholder={queueOptions.isPending ? t('common.loading') : undefined}
          data={(queueOptions.data ?? []).map((queue) => ({ value: String(queue.id), label: queue.queue }))}
          nothingFoundMessage={t('userAccess.noQueues')}
          searchable
          clearable
          disabled={!mayAssign}
          data-testid="user-form-queues"
          {...form.getInputProps('queues')}
        />
        <MultiSelect
          label={t('userAccess.channels')}
          description={t('userAccess.channelsHelp')}
          placeholder={form.values.whatsappAllowed.length === 0 ? t('userAccess.allChannels') : undefined}
          data={(channelOptions.data ?? []).map((channel) => ({ value: String(channel.id), label: channel.name }))}
          nothingFoundMessage={t('userAccess.noChannels')}
          searchable
          clearable
          disabled={!mayAssign}
          data-testid="user-form-channels"
          {...form.getInputProps('whatsappAllowed')}
        />
        <Switch
          label={t('users.blockWavoip')}
          description={t('users.blockWavoipHelp')}
          data-testid="user-form-blockWavoip"
          {...form.getInputProps('blockWavoip', { type: 'checkbox' })}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending} data-testid="user-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
