import { Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useRequestPasswordReset } from '../api/password';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { isEmail } from '../hooks/validators';

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
  const request = useRequestPasswordReset();
  const form = useForm({
    mode: 'controlled',
    initialValues: { email },
    validate: { email: (value) => (isEmail(value) ? null : t('validation.emailLogin')) },
  });

  const submit = form.onSubmit(({ email: value }) => {
    request.mutate(value, {
      onSuccess: () => {
        notifySuccess(t('auth.resetRequested'));
        onClose();
      },
      onError: () => notifyError(t('auth.resetRequestFailed')),
    });
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('auth.forgotTitle')}
      centered
      onEnterTransitionEnd={() => form.setFieldValue('email', email)}
    >
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
    </Modal>
  );
}
