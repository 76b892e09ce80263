import { Anchor, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isErrorCode } from '@conversa/shared';
import { ApiError, describeError } from '../../../lib/api';
import { errorText } from '../../../lib/errors';
import { useConfirmSignup } from '../api/signup';
import { useCompleteLogin } from '../hooks/use-complete-login';
import { AuthLayout } from './AuthLayout';

/** /signup/confirm/:token, the e-mailed link: creates the company and lands its admin like a login. */
export function SignupConfirmPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const confirm = useConfirmSignup();
  const completeLogin = useCompleteLogin();
  const started = useRef(false);
  const run = () => confirm.mutate(token, { onSuccess: (login) => completeLogin(login, '/home') });

  // Once per visit (StrictMode mounts twice): the token is single use.
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    run();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  if (!confirm.isError) {
    return (
      <AuthLayout title={t('signup.confirmingTitle')}>
        <Stack align="center" role="status" data-testid="signup-confirming">
          <Loader aria-hidden />
          <Text>{t('signup.confirming')}</Text>
        </Stack>
      </AuthLayout>
    );
  }
  const code = confirm.error instanceof ApiError ? confirm.error.code : null;
  // A used or expired link will not work again; anything else (network, server) may.
  const final = code === 'ERR_SIGNUP_TOKEN_INVALID' || code === 'ERR_VALIDATION';
  const message = final
    ? errorText('ERR_SIGNUP_TOKEN_INVALID')
    : isErrorCode(code)
      ? errorText(code)
      : describeError(confirm.error);
  return (
    <AuthLayout
      title={t('signup.confirmFailedTitle')}
      footer={
        <Anchor component={Link} to="/login">
          {t('signup.loginLink')}
        </Anchor>
      }
    >
      <Stack gap="md" data-testid="signup-confirm-error">
        <Text role="alert">{message}</Text>
        <Group justify="center">
          {final ? (
            <Button component={Link} to="/signup" data-testid="signup-start-over">
              {t('signup.startOver')}
            </Button>
          ) : (
            <Button onClick={run} loading={confirm.isPending} data-testid="signup-confirm-retry">
              {t('signup.confirmRetry')}
            </Button>
          )}
        </Group>
      </Stack>
    </AuthLayout>
  );
}
