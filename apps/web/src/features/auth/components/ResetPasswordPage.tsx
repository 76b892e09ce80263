import { Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { isErrorCode } from '@conversa/shared';
import { Link, useNavigate, useParams } from 'react-router';
import { isStrongPassword, PasswordRule } from '../../../components/PasswordRule';
import { ApiError } from '../../../lib/api';
import { errorText } from '../../../lib/errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useResetPassword } from '../api/password';
import { AuthLayout } from './AuthLayout';

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useForm({
    mode: 'controlled',
    initialValues: { password: '', confirm: '' },
    validate: {
      password: (v) =>
        !v ? t('validation.passwordRequired') : isStrongPassword(v) ? null : t('validation.passwordRule'),
      confirm: (v, values) => (v === values.password ? null : t('validation.passwordMismatch')),
    },
  });

  const submit = form.onSubmit(({ password }) => {
    reset.mutate(
      { token, password },
      {
        onSuccess: () => {
          notifySuccess(t('auth.resetDone'));
          navigate('/login', { replace: true });
        },
        onError: (error) => {
          const code = error instanceof ApiError ? error.code : null;
          notifyError(isErrorCode(code) && code !== 'ERR_INTERNAL' ? errorText(code) : t('auth.resetFailed'));
        },
      },
    );
  });

  return (
    <AuthLayout
      title={t('auth.resetTitle')}
      subtitle={t('auth.resetSubtitle')}
      footer={
        <Anchor component={Link} to="/login">
          {t('signup.loginLink')}
        </Anchor>
      }
    >
      <form onSubmit={submit} noValidate aria-label={t('auth.resetTitle')}>
        <Stack>
          <div>
            <PasswordInput
              label={t('auth.newPassword')}
              autoComplete="new-password"
              required
              autoFocus
              aria-describedby="reset-password-rule"
              data-testid="reset-password"
              {...form.getInputProps('password')}
            />
            <PasswordRule value={form.values.password} id="reset-password-rule" />
          </div>
          <PasswordInput
            label={t('auth.confirmPassword')}
            autoComplete="new-password"
            required
            data-testid="reset-confirm"
            {...form.getInputProps('confirm')}
          />
          <Button type="submit" loading={reset.isPending} data-testid="reset-submit">
            {t('auth.resetSubmit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
