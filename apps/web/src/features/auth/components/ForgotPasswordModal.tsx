import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useRequestPasswordReset } from '../api/password';
import { isEmail } from '../hooks/validators';

/** Opens with the e-mail typed on the login form; what the user types here is theirs (the form mounts on open). */
export function ForgotPasswordModal({
  opened,
  onClose,
  email,
}: {
  opened: boolean;
  onClose: () => void;
  email: string;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('auth.forgotTitle')} centered>
      {opened ? <ForgotPasswordForm initialEmail={email.trim()} onDone={onClose} /> : null}
    </Modal>
  );
}

function ForgotPasswordForm({ initialEmail, onDone }: { initialEmail: string; onDone: () => void }) {
  const { t } = useTranslation();
  const request = useRequestPasswordReset();
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: initialEmail },
    validate: { email: (value) => (isEmail(value) ? null : t('validation.emailLogin')) },
  });

  const submit = form.onSubmit(({ email }) => {
    request.mutate(email, {
      onSuccess: () => {
        notifySuccess(t('auth.resetRequested'));
        onDone();
      },
      onError: () => notifyError(t('auth.resetRequestFailed')),
    });
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Text size="sm" c="dimmed">
          {t('auth.forgotDescription')}
        </Text>
        <TextInput
          label={t('fields.email')}
          type="email"
          autoComplete="email"
          required
          data-autofocus
          data-testid="forgot-email"
          {...form.getInputProps('email')}
        />
        <Button type="submit" loading={request.isPending} data-testid="forgot-submit">
          {t('auth.forgotSubmit')}
        </Button>
      </Stack>
    </form>
  );
}
