/** The gateway fields of an Evolution (`evo`) or Wuzapi (`meow`) channel: API URL, key or token, instance. */
import { useEffect } from 'react';
import { PasswordInput, SimpleGrid, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ChannelDto } from '@conversa/shared';
import { useTenantGateways } from '../../../lib/tenant-gateways';
import { hasSecret, type ChannelFormValues } from '../hooks/channel-form';

type Form = UseFormReturnType<ChannelFormValues>;

export function GatewayFields({ form, channel }: { form: Form; channel?: ChannelDto }) {
  const { t } = useTranslation();
  const { type, remotePath } = form.getValues();
  const evo = type === 'evo';
  const gateways = useTenantGateways();
  const tenantHost = (evo ? gateways.data?.evoHost : gateways.data?.wuzapiHost) ?? '';
  // A new channel starts from the tenant's host; once the admin types, the field is theirs.
  const prefill = !channel && !remotePath && tenantHost !== '' && !form.isTouched('remotePath');
  useEffect(() => {
    if (prefill) form.setFieldValue('remotePath', tenantHost);
  }, [prefill, tenantHost, form]);
  const tokenKept = channel?.type === type && hasSecret(channel, 'tokenAPI');
  const tokenHint = tokenKept
    ? t('channels.form.secretKept')
    : evo
      ? t('channels.form.tokenApiEvoHint')
      : t('channels.form.tokenApiMeowHint');
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <TextInput
        label={t('channels.form.remotePath')}
        description={evo ? t('channels.form.remotePathEvoHint') : t('channels.form.remotePathMeowHint')}
        placeholder="https://"
        type="url"
        inputMode="url"
        required
        autoComplete="off"
        maxLength={500}
        data-testid="channel-form-remote-path"
        {...form.getInputProps('remotePath')}
      />
      <PasswordInput
        label={evo ? t('channels.form.tokenApiEvo') : t('channels.form.tokenApiMeow')}
        description={tokenHint}
        placeholder={tokenKept ? t('channels.form.secretKeptPlaceholder') : undefined}
        required={!evo && !tokenKept}
        autoComplete="new-password"
        maxLength={500}
        data-testid="channel-form-token-api"
        {...form.getInputProps('tokenAPI')}
      />
      {evo ? null : (
        <TextInput
          label={t('channels.form.instance')}
          description={t('channels.form.instanceMeowHint')}
          autoComplete="off"
          maxLength={200}
          data-testid="channel-form-instance"
          {...form.getInputProps('wabaId')}
        />
      )}
    </SimpleGrid>
  );
}
