/**
 * /configuracoes/wuzapi and /configuracoes/evolution: the tenant's default Wuzapi and Evolution API hosts (and the
 * Evolution API key), which new channels of those types start from (client-contract §10).
 */
import type { ReactNode } from 'react';
import { Button, Group, PasswordInput, Stack, TextInput, type TextInputProps } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconDeviceFloppy } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { SettingsSectionCard } from './SettingsSectionCard';
import { describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { isHttpUrl, useTenantGateways, type TenantGateways } from '../../../lib/tenant-gateways';
import { useSaveEvolutionHost, useSaveWuzapiHost } from '../api/gateways';

/** Empty clears the default; anything else must be an http(s) URL. */
const checkHost = (value: string, t: TFunction) =>
  value.trim() && !isHttpUrl(value) ? t('settings.gateways.hostInvalid') : null;

export function WuzapiSettingsPage() {
  return <GatewayPage section="wuzapi">{(gateways) => <WuzapiForm gateways={gateways} />}</GatewayPage>;
}

export function EvolutionSettingsPage() {
  return <GatewayPage section="evolution">{(gateways) => <EvolutionForm gateways={gateways} />}</GatewayPage>;
}

/** The section's card with the read's loading and error states; the form gets the loaded hosts. */
function GatewayPage({
  section,
  children,
}: {
  section: 'wuzapi' | 'evolution';
  children: (gateways: TenantGateways) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <SettingsSectionCard
      id={`settings-${section}`}
      title={t(`settings.gateways.${section}.title`)}
      description={t(`settings.gateways.${section}.description`)}
      query={useTenantGateways()}
      loadingTestId="gateway-settings-loading"
    >
      {(gateways) => (
        // Keyed by the stored values, so a save (or another admin's) starts the form again from them.
        <div key={`${gateways.wuzapiHost}|${gateways.evoHost}|${String(gateways.evoTokenSet)}`}>
          {children(gateways)}
        </div>
      )}
    </SettingsSectionCard>
  );
}

function SaveButton({ pending, testId }: { pending: boolean; testId: string }) {
  const { t } = useTranslation();
  return (
    <Group justify="flex-end">
      <Button
        type="submit"
        loading={pending}
        leftSection={<IconDeviceFloppy size={16} aria-hidden />}
        data-testid={testId}
      >
        {t('common.save')}
      </Button>
    </Group>
  );
}

function WuzapiForm({ gateways }: { gateways: TenantGateways }) {
  const { t } = useTranslation();
  const save = useSaveWuzapiHost();
  const form = useForm({
    initialValues: { wuzapiHost: gateways.wuzapiHost },
    validate: { wuzapiHost: (value) => checkHost(value, t) },
  });
  const submit = form.onSubmit(({ wuzapiHost }) =>
    save.mutate(
      { tenantId: gateways.tenantId, wuzapiHost },
      {
        onSuccess: () => notifySuccess(t('settings.gateways.saved')),
        onError: (error) => notifyError(describeError(error), t('settings.gateways.saveError')),
      },
    ),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <HostInput
          label={t('settings.gateways.wuzapi.host')}
          placeholder="https://wuzapi.example.com"
          testId="settings-wuzapi-host"
          {...form.getInputProps('wuzapiHost')}
        />
        <SaveButton pending={save.isPending} testId="settings-wuzapi-save" />
      </Stack>
    </form>
  );
}

/** A gateway's API URL field (both tabs): a URL keyboard, no autofill, the shared hint. */
function HostInput({ testId, ...props }: TextInputProps & { testId: string }) {
  const { t } = useTranslation();
  return (
    <TextInput
      description={t('settings.gateways.hostHint')}
      type="url"
      inputMode="url"
      autoComplete="off"
      maxLength={500}
      data-testid={testId}
      {...props}
    />
  );
}

function EvolutionForm({ gateways }: { gateways: TenantGateways }) {
  const { t } = useTranslation();
  const save = useSaveEvolutionHost();
  const form = useForm({
    initialValues: { evoHost: gateways.evoHost, evoToken: '' },
    validate: { evoHost: (value) => checkHost(value, t) },
  });
  const submit = form.onSubmit((values) =>
    save.mutate(
      { tenantId: gateways.tenantId, ...values },
      {
        onSuccess: () => {
          form.setFieldValue('evoToken', '');
          notifySuccess(t('settings.gateways.saved'));
        },
        onError: (error) => notifyError(describeError(error), t('settings.gateways.saveError')),
      },
    ),
  );
  const tokenState = gateways.evoTokenSet === null ? 'tokenUnknown' : gateways.evoTokenSet ? 'tokenSet' : 'tokenNotSet';
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <HostInput
          label={t('settings.gateways.evolution.host')}
          placeholder="https://evolution.example.com"
          testId="settings-evolution-host"
          {...form.getInputProps('evoHost')}
        />
        <PasswordInput
          label={t('settings.gateways.evolution.token')}
          description={t(`settings.gateways.evolution.${tokenState}`)}
          placeholder={gateways.evoTokenSet ? '••••••••' : undefined}
          autoComplete="new-password"
          maxLength={500}
          data-testid="settings-evolution-token"
          {...form.getInputProps('evoToken')}
        />
        <SaveButton pending={save.isPending} testId="settings-evolution-save" />
      </Stack>
    </form>
  );
}
