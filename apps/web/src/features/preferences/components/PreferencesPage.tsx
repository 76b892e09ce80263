import {
  Button,
  Card,
  Group,
  PasswordInput,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { UserDto } from '@conversa/shared';
import { LanguageSelect } from '../../../components/LanguageSelect';
import { PageTitle } from '../../../components/PageTitle';
import { isStrongPassword } from '../../../components/PasswordRule';
import { QueryError } from '../../../components/QueryError';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDarkMode } from '../../../lib/preferences';
import { useStoredSession } from '../../../lib/storage';
import { useOwnUser, useUpdateOwnUser } from '../api/profile';

export function PreferencesPage() {
  const { t } = useTranslation();
  const session = useStoredSession();
  const userId = session?.userId ?? 0;
  const user = useOwnUser(userId);
  return (
    <>
      <PageTitle title={t('preferences.title')} description={t('preferences.subtitle')} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <AppearanceCard />
        <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="pref-account">
          <Title order={2} size="h4" id="pref-account" mb="sm">
            {t('preferences.account')}
          </Title>
          {user.isPending ? (
            <Stack aria-busy="true" aria-label={t('common.loading')}>
              <Skeleton height={56} />
              <Skeleton height={56} />
              <Skeleton height={56} />
            </Stack>
          ) : user.isError ? (
            <QueryError error={user.error} onRetry={() => void user.refetch()} />
          ) : (
            <AccountForm key={user.data.updatedAt} user={user.data} />
          )}
        </Card>
      </SimpleGrid>
    </>
  );
}

function AppearanceCard() {
  const { t } = useTranslation();
  const { isDark, setDark } = useDarkMode();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="pref-appearance">
      <Title order={2} size="h4" id="pref-appearance" mb="sm">
        {t('preferences.appearance')}
      </Title>
      <Stack>
        <Switch
          label={t('preferences.darkMode')}
          description={t('preferences.darkModeHelp')}
          checked={isDark}
          onChange={(event) => setDark(event.currentTarget.checked)}
          data-testid="preferences-dark-mode"
        />
        <LanguageSelect
          label={t('shell.language')}
          description={t('preferences.languageHelp')}
          data-testid="preferences-language"
        />
      </Stack>
    </Card>
  );
}

function AccountForm({ user }: { user: UserDto }) {
  const { t } = useTranslation();
  const update = useUpdateOwnUser(user.id);
  const form = useForm({
    mode: 'controlled',
    initialValues: { name: user.name, email: user.email, password: '', confirm: '', currentPassword: '' },
    validate: {
      name: (v) => (v.trim() ? null : t('validation.required', { attribute: t('fields.name') })),
      email: (v) =>
        /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? null : t('validation.invalid', { attribute: t('fields.email') }),
      password: (v) => (!v || isStrongPassword(v) ? null : t('validation.passwordRule')),
      confirm: (v, values) => (v === values.password ? null : t('validation.passwordMismatch')),
      currentPassword: (v, values) =>
        v || !needsCurrentPassword(values)
          ? null
          : t('validation.required', { attribute: t('preferences.currentPassword') }),
    },
  });
  const needsCurrentPassword = (values: { email: string; password: string }) =>
    Boolean(values.password) || values.email.trim().toLowerCase() !== user.email.toLowerCase();
  const submit = form.onSubmit((values) => {
    // Not mutate's callbacks: the saved user (new updatedAt, this form's key) remounts the form before they would run,
    // and an unmounted observer drops them, so the toast never showed.
    void update
      .mutateAsync({
        name: values.name.trim(),
        email: values.email.trim(),
        ...(values.password ? { password: values.password } : {}),
        ...(needsCurrentPassword(values) ? { currentPassword: values.currentPassword } : {}),
      })
      .then(
        () => {
          notifySuccess(t('preferences.saved'));
          form.setValues({ password: '', confirm: '', currentPassword: '' });
        },
        (error: unknown) => {
          if (error instanceof ApiError && error.code === 'ERR_EMAIL_ALREADY_EXISTS')
            form.setFieldError('email', describeError(error));
          if (error instanceof ApiError && error.code === 'ERR_CURRENT_PASSWORD_INVALID')
            form.setFieldError('currentPassword', describeError(error));
          notifyError(describeError(error));
        },
      );
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('fields.name')}
          required
          autoComplete="name"
          data-testid="preferences-name"
          {...form.getInputProps('name')}
        />
        <TextInput
          label={t('fields.email')}
          type="email"
          required
          autoComplete="email"
          data-testid="preferences-email"
          {...form.getInputProps('email')}
        />
        <Text size="sm" c="dimmed">
          {t('preferences.passwordHelp')}
        </Text>
        <PasswordInput
          label={t('auth.newPassword')}
          autoComplete="new-password"
          data-testid="preferences-password"
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label={t('auth.confirmPassword')}
          autoComplete="new-password"
          data-testid="preferences-confirm"
          {...form.getInputProps('confirm')}
        />
        {needsCurrentPassword(form.values) && (
          <PasswordInput
            label={t('preferences.currentPassword')}
            description={t('preferences.currentPasswordHelp')}
            required
            autoComplete="current-password"
            data-testid="preferences-current-password"
            {...form.getInputProps('currentPassword')}
          />
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={update.isPending} data-testid="preferences-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
