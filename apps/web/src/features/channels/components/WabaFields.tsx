/**
 * The credentials of a WhatsApp Cloud API (`waba`) channel and their verification against Graph
 * (POST /wabametaVerifyPhone): a new channel, or changed credentials, is saved only after a successful check, which
 * also fills the channel's number with the verified display number.
 */
import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconAlertTriangle, IconCircleCheck, IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChannelDto } from '@conversa/shared';
import { describeError } from '../../../lib/api';
import { useVerifyWabaPhone, type VerifyWabaAnswer } from '../api/meta';
import { hasSecret, wabaCredentialKey, wabaNeedsVerify, type ChannelFormValues } from '../hooks/channel-form';
import { MetaSecretInput } from './MetaSecretInput';

type Form = UseFormReturnType<ChannelFormValues>;

/** A successful verification and the credentials it checked. */
export interface WabaVerification {
  key: string;
  answer: VerifyWabaAnswer;
}

interface WabaFieldsProps {
  form: Form;
  channel?: ChannelDto;
  verification: WabaVerification | null;
  onVerified: (verification: WabaVerification | null) => void;
}

export function WabaFields({ form, channel, verification, onVerified }: WabaFieldsProps) {
  const { t } = useTranslation();
  const verify = useVerifyWabaPhone();
  const values = form.getValues();
  // Secrets stored for this channel may stay empty (write-only); they are the stored ones only for the same type.
  const saved = channel?.type === 'waba' ? channel : undefined;
  const key = wabaCredentialKey(values);
  const current = verification?.key === key ? verification.answer : null;
  const needed = wabaNeedsVerify(values, channel);
  const failed = verify.isError && !current;

  const run = () => {
    const idError = form.validateField('wabaId').hasError;
    const versionError = form.validateField('wabaVersion').hasError;
    if (idError || versionError) return;
    const tokenAPI = values.tokenAPI.trim();
    const bmToken = values.bmToken.trim();
    onVerified(null);
    verify.mutate(
      {
        wabaId: values.wabaId.trim(),
        wabaVersion: values.wabaVersion.trim(),
        ...(tokenAPI ? { tokenAPI } : {}),
        ...(bmToken ? { bmToken } : {}),
        ...(saved ? { whatsappId: saved.id } : {}),
      },
      {
        onSuccess: (answer) => {
          form.setFieldValue('number', answer.number.replace(/\D/g, ''));
          form.clearFieldError('verify');
          onVerified({ key, answer });
        },
      },
    );
  };

  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('channels.meta.waba.intro')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <MetaSecretInput
          form={form}
          field="tokenAPI"
          kept={hasSecret(saved, 'tokenAPI')}
          label={t('channels.meta.waba.tokenAPI')}
          hint={t('channels.meta.waba.tokenAPIHint')}
          testId="channel-form-meta-token"
        />
        <TextInput
          label={t('channels.meta.waba.wabaId')}
          description={t('channels.meta.waba.wabaIdHint')}
          required
          inputMode="numeric"
          autoComplete="off"
          maxLength={200}
          data-testid="channel-form-meta-id"
          {...form.getInputProps('wabaId')}
        />
        <MetaSecretInput
          form={form}
          field="bmToken"
          kept={hasSecret(saved, 'bmToken')}
          label={t('channels.meta.waba.bmToken')}
          hint={t('channels.meta.waba.bmTokenHint')}
          testId="channel-form-meta-bm"
        />
        <TextInput
          label={t('channels.meta.waba.version')}
          description={t('channels.meta.waba.versionHint')}
          required
          autoComplete="off"
          maxLength={20}
          placeholder="20.0"
          data-testid="channel-form-meta-version"
          {...form.getInputProps('wabaVersion')}
        />
        <MetaSecretInput
          form={form}
          field="metaAppSecret"
          kept={hasSecret(saved, 'metaAppSecret')}
          label={t('channels.meta.appSecret')}
          hint={t('channels.meta.appSecretHint')}
          testId="channel-form-meta-app-secret"
        />
      </SimpleGrid>
      <Group gap="sm" align="center">
        <Button
          variant="light"
          leftSection={<IconShieldCheck size={16} aria-hidden />}
          loading={verify.isPending}
          onClick={run}
          data-testid="channel-form-waba-verify"
        >
          {t('channels.meta.waba.verify')}
        </Button>
        <Text size="sm" c="dimmed">
          {needed ? t('channels.meta.waba.verifyNeeded') : t('channels.meta.waba.verifyOptional')}
        </Text>
      </Group>
      <div aria-live="polite">
        {current ? (
          <Alert
            color="teal"
            variant="light"
            icon={<IconCircleCheck aria-hidden />}
            title={t('channels.meta.waba.verified')}
            data-testid="channel-form-waba-verified"
          >
            {current.verifiedName
              ? t('channels.meta.waba.verifiedNamed', { number: current.number, name: current.verifiedName })
              : t('channels.meta.waba.verifiedNumber', { number: current.number })}
          </Alert>
        ) : failed ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            role="alert"
            data-testid="channel-form-waba-verify-error"
          >
            {describeError(verify.error)}
          </Alert>
        ) : form.errors.verify ? (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            role="alert"
            data-testid="channel-form-waba-verify-required"
          >
            {form.errors.verify}
          </Alert>
        ) : saved?.number && !needed ? (
          <Text size="sm" data-testid="channel-form-waba-number">
            {t('channels.meta.waba.currentNumber', { number: saved.number })}
          </Text>
        ) : null}
      </div>
    </Stack>
  );
}
