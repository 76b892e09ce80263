import {
  Anchor,
  Button,
  Group,
  PasswordInput,
  Radio,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck, IconUserPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isValidCpfCnpj, type PlanDto } from '@conversa/shared';
import { isStrongPassword, PasswordRule } from '../../../components/PasswordRule';
import { QueryError } from '../../../components/QueryError';
import { ApiError, describeError } from '../../../lib/api';
import { formatInteger, formatPrice } from '../../../lib/dates';
import { notifyError } from '../../../lib/notify';
import { usePlans, useSignup } from '../api/signup';
import { formatCpfCnpj, formatPhone } from '../../../lib/masks';
import { useCaptcha } from '../hooks/use-captcha';
import { isEmail } from '../hooks/validators';
import { AuthLayout } from './AuthLayout';
import { CaptchaSlider } from './CaptchaSlider';

interface SignupValues {
  name: string;
  cpfCnpj: string;
  email: string;
  mobilePhone: string;
  password: string;
  planId: string;
}

export function SignupPage() {
  const { t } = useTranslation();
  const plans = usePlans();
  const signup = useSignup();
  const captcha = useCaptcha();
  const [captchaError, setCaptchaError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = useForm<SignupValues>({
    mode: 'controlled',
    initialValues: { name: '', cpfCnpj: '', email: '', mobilePhone: '', password: '', planId: '' },
    validate: {
      name: (v) => (v.trim() ? null : t('validation.fillAll')),
      cpfCnpj: (v) => (!v.trim() ? t('validation.fillAll') : isValidCpfCnpj(v) ? null : t('validation.cpfCnpj')),
      email: (v) => (!v.trim() ? t('validation.fillAll') : isEmail(v) ? null : t('validation.email')),
      mobilePhone: (v) => {
        const digits = v.replace(/\D/g, '').length;
        if (!digits) return t('validation.fillAll');
        return digits >= 10 ? null : t('validation.phone');
      },
      password: (v) => (!v ? t('validation.fillAll') : isStrongPassword(v) ? null : t('validation.passwordRule')),
      planId: (v) => (v ? null : t('validation.plan')),
    },
  });

  const submit = form.onSubmit(
    (values) => {
      if (captcha.state !== 'disabled' && !captcha.answer) {
        setCaptchaError(t('validation.captcha'));
        return;
      }
      setCaptchaError(null);
      signup.mutate(
        { ...values, planId: Number(values.planId), captcha: captcha.answer ?? undefined },
        {
          onSuccess: () => setSentTo(values.email.trim()),
          onError: (error) => {
            const message = error instanceof ApiError && error.notified ? null : describeError(error);
            if (message) notifyError(message);
            // A challenge answers one try.
            captcha.refresh();
          },
        },
      );
    },
    (errors) => {
      if (Object.values(errors).some((message) => message === t('validation.fillAll'))) {
        notifyError(t('validation.fillAll'));
      }
    },
  );

  if (sentTo) return <CheckEmail email={sentTo} />;

  return (
    <AuthLayout
      title={t('signup.title')}
      subtitle={t('signup.subtitle')}
      width={720}
      footer={
        <>
          {t('signup.haveAccount')}{' '}
          <Anchor component={Link} to="/login">
            {t('signup.loginLink')}
          </Anchor>
        </>
      }
    >
      <form onSubmit={submit} noValidate aria-label={t('signup.title')}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={t('signup.companyName')}
              autoComplete="organization"
              required
              data-testid="signup-name"
              {...form.getInputProps('name')}
            />
            <TextInput
              label={t('fields.cpfCnpj')}
              inputMode="numeric"
              placeholder="000.000.000-00"
              required
              data-testid="signup-cpfcnpj"
              {...form.getInputProps('cpfCnpj')}
              onChange={(event) => form.setFieldValue('cpfCnpj', formatCpfCnpj(event.currentTarget.value))}
            />
            <TextInput
              label={t('fields.email')}
              type="email"
              autoComplete="email"
              required
              data-testid="signup-email"
              {...form.getInputProps('email')}
            />
            <TextInput
              label={t('fields.mobilePhone')}
              type="tel"
              inputMode="tel"
              autoComplete="tel-national"
              placeholder="(11) 98765-4321"
              required
              data-testid="signup-phone"
              {...form.getInputProps('mobilePhone')}
              onChange={(event) => form.setFieldValue('mobilePhone', formatPhone(event.currentTarget.value))}
            />
          </SimpleGrid>
          <div>
            <PasswordInput
              label={t('fields.password')}
              autoComplete="new-password"
              required
              aria-describedby="signup-password-rule"
              data-testid="signup-password"
              {...form.getInputProps('password')}
            />
            <PasswordRule value={form.values.password} id="signup-password-rule" />
          </div>
          <PlanChooser
            plans={plans}
            value={form.values.planId}
            error={form.errors.planId}
            onChange={(value) => form.setFieldValue('planId', value)}
          />
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
            size="md"
            loading={signup.isPending}
            leftSection={<IconUserPlus size={18} aria-hidden />}
            data-testid="signup-submit"
          >
            {t('signup.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}

/** After the form: the same screen for any address (the server never says whether it was registered). */
function CheckEmail({ email }: { email: string }) {
  const { t } = useTranslation();
  return (
    <AuthLayout
      title={t('signup.checkEmailTitle')}
      footer={
        <Anchor component={Link} to="/login">
          {t('signup.loginLink')}
        </Anchor>
      }
    >
      <Stack align="center" gap="md" data-testid="signup-check-email" role="status">
        <IconMailCheck size={48} aria-hidden />
        <Text ta="center">{t('signup.checkEmailBody', { email })}</Text>
      </Stack>
    </AuthLayout>
  );
}

function PlanChooser({
  plans,
  value,
  error,
  onChange,
}: {
  plans: ReturnType<typeof usePlans>;
  value: string;
  error: React.ReactNode;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group label={t('signup.plan')} withAsterisk value={value} onChange={onChange} error={error}>
      {plans.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 3 }} mt="xs">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={120} radius="md" />
          ))}
        </SimpleGrid>
      ) : plans.isError ? (
        <QueryError error={plans.error} onRetry={() => void plans.refetch()} />
      ) : plans.data.length === 0 ? (
        <Text c="dimmed" size="sm" mt="xs">
          {t('signup.noPlans')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 3 }} mt="xs">
          {plans.data.map((plan) => (
            <PlanCard key={plan.id} plan={plan} />
          ))}
        </SimpleGrid>
      )}
    </Radio.Group>
  );
}

function PlanCard({ plan }: { plan: PlanDto }) {
  const { t } = useTranslation();
  return (
    <Radio.Card value={String(plan.id)} radius="md" p="md" data-testid={`signup-plan-${plan.id}`}>
      <Group wrap="nowrap" align="flex-start">
        <Radio.Indicator />
        <div>
          <Text fw={600}>{plan.name}</Text>
          <Text fw={700} size="lg">
            {formatPrice(plan.value)}
            <Text span size="xs" c="dimmed" fw={400}>
              {' '}
              {t('signup.perMonth')}
            </Text>
          </Text>
          <Text size="sm" c="dimmed">
            {t('signup.users', { formatted: formatInteger(plan.users) })}
          </Text>
          <Text size="sm" c="dimmed">
            {t('signup.connections', { formatted: formatInteger(plan.connections) })}
          </Text>
          <Text size="sm" c={plan.trial === 'enabled' ? 'teal' : 'dimmed'}>
            {plan.trial === 'enabled' ? t('signup.trialDays', { count: plan.trialPeriod }) : t('signup.noTrial')}
          </Text>
        </div>
      </Group>
    </Radio.Card>
  );
}
