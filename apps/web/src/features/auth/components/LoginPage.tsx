import { useState } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { IconLogin2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError } from '../../../lib/notify';
import { useLogin } from '../api/login';
import { useCompleteLogin } from '../hooks/use-complete-login';
import { useCaptcha } from '../hooks/use-captcha';
import { isEmail } from '../hooks/validators';
import { AuthLayout } from './AuthLayout';
import { CaptchaSlider } from './CaptchaSlider';
import { ForgotPasswordModal } from './ForgotPasswordModal';

export function LoginPage() {
  const { t } = useTranslation();
  const captcha = useCaptcha();
  const loginMutation = useLogin();
  const completeLogin = useCompleteLogin();
  const [forgotOpened, forgot] = useDisclosure(false);
  const [captchaError, setCaptchaError] = useState<string | null>(null);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '', password: '' },
    validate: {
      email: (value) => (isEmail(value) ? null : t('validation.emailLogin')),
      password: (value) => (value ? null : t('validation.passwordRequired')),
    },
  });

  const submit = form.onSubmit(({ email, password }) => {
    if (captcha.state !== 'disabled' && !captcha.answer) {
      setCaptchaError(t('validation.captcha'));
      return;
    }
    setCaptchaError(null);
    loginMutation.mutate(
      { email, password, captcha: captcha.answer ?? undefined },
      {
        onSuccess: (login) => completeLogin(login),
        onError: (error) => {
          const message = error instanceof ApiError && error.notified ? null : describeError(error);
          if (message) notifyError(message);
          form.setFieldValue('password', '');
          captcha.refresh();
        },
      },
    );
  });

  return (
    <AuthLayout
      title={t('auth.loginTitle')}
      subtitle={t('auth.loginSubtitle')}
      footer={
        <>
          {t('auth.noAccount')}{' '}
          <Anchor component={Link} to="/signup" data-testid="signup-link">
            {t('auth.signupLink')}
          </Anchor>
        </>
      }
    >
      <form onSubmit={submit} noValidate aria-label={t('auth.loginTitle')}>
        <Stack gap="md">
          <TextInput
            label={t('fields.email')}
            type="email"
            autoComplete="username"
            required
            autoFocus
            data-testid="login-email"
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label={t('fields.password')}
            autoComplete="current-password"
            required
            data-testid="login-password"
            {...form.getInputProps('password')}
          />
          <Group justify="flex-end" mt={-8}>
            <Anchor component="button" type="button" size="sm" onClick={forgot.open} data-testid="forgot-password-link">
              {t('auth.forgotLink')}
            </Anchor>
          </Group>
          <CaptchaSlider
            challenge={captcha.challenge}
            state={captcha.state}
            x={captcha.x}
            onMove={captcha.move}
            onRelease={() => {
              captcha.release();
              setCaptchaError(null);
            }}
            onRefresh={captcha.refresh}
            error={captchaError}
          />
          <Button
            type="submit"
            fullWidth
            size="md"
            loading={loginMutation.isPending}
            leftSection={<IconLogin2 size={18} aria-hidden />}
            data-testid="login-submit"
          >
            {t('auth.loginSubmit')}
          </Button>
        </Stack>
      </form>
      <ForgotPasswordModal opened={forgotOpened} onClose={forgot.close} email={form.values.email} />
    </AuthLayout>
  );
}
