import {
  Alert,
  Button,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PROTECTED_TENANT_ID, TENANT_STATUSES, type TenantDto } from '@conversa/shared';
import { describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveTenant, type TenantInput } from '../api/tenants';

export function TenantFormModal({
  opened,
  onClose,
  tenant,
}: {
  opened: boolean;
  onClose: () => void;
  tenant?: TenantDto;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={tenant ? t('tenants.editTitle') : t('tenants.newTitle')}
      centered
      size="lg"
    >
      {opened ? <TenantForm key={tenant?.id ?? 'new'} tenant={tenant} onDone={onClose} /> : null}
    </Modal>
  );
}

interface Values {
  name: string;
  status: TenantDto['status'];
  maxUsers: number | string;
  maxConnections: number | string;
  identity: string;
  trial: boolean;
  trialPeriod: number | string;
}

function TenantForm({ tenant, onDone }: { tenant?: TenantDto; onDone: () => void }) {
  const { t } = useTranslation();
  const save = useSaveTenant();
  const isProtected = tenant?.id === PROTECTED_TENANT_ID;
  const required = (attribute: string) => (v: unknown) =>
    v === '' || v === undefined || (typeof v === 'string' && !v.trim())
      ? t('validation.required', { attribute })
      : null;
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      name: tenant?.name ?? '',
      status: tenant?.status ?? 'active',
      maxUsers: tenant?.maxUsers ?? 5,
      maxConnections: tenant?.maxConnections ?? 1,
      identity: tenant?.identity ?? '',
      trial: tenant?.trial === 'enabled',
      trialPeriod: tenant?.trialPeriod ?? 0,
    },
    validate: {
      name: required(t('fields.name')),
      maxUsers: (v) =>
        required(t('tenants.maxUsers'))(v) ??
        (Number(v) >= 1 ? null : t('validation.minValue', { attribute: t('tenants.maxUsers'), min: 0 })),
      maxConnections: (v) =>
        required(t('tenants.maxConnections'))(v) ??
        (Number(v) >= 1 ? null : t('validation.minValue', { attribute: t('tenants.maxConnections'), min: 0 })),
      trialPeriod: (v, values) =>
        values.trial && !(Number(v) >= 1)
          ? t('validation.minValue', { attribute: t('tenants.trialPeriod'), min: 0 })
          : null,
    },
  });

  const submit = form.onSubmit((values) => {
    const input: TenantInput = {
      name: values.name.trim(),
      status: isProtected ? 'active' : values.status,
      maxUsers: Number(values.maxUsers),
      maxConnections: Number(values.maxConnections),
      identity: values.identity.trim() || null,
      trial: values.trial ? 'enabled' : 'disabled',
      trialPeriod: values.trial ? Number(values.trialPeriod) : 0,
    };
    save.mutate(
      { id: tenant?.id, input },
      {
        onSuccess: () => {
          notifySuccess(tenant ? t('tenants.saved') : t('tenants.created'));
          onDone();
        },
        onError: (error) => notifyError(describeError(error)),
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('fields.name')}
          required
          data-autofocus
          data-testid="tenant-form-name"
          {...form.getInputProps('name')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NativeSelect
            label={t('tenants.statusLabel')}
            data={TENANT_STATUSES.map((status) => ({ value: status, label: t(`tenants.status.${status}`) }))}
            disabled={isProtected}
            description={isProtected ? t('tenants.protected') : undefined}
            data-testid="tenant-form-status"
            {...form.getInputProps('status')}
          />
          <TextInput
            label={t('tenants.identity')}
            description={t('tenants.identityHelp')}
            data-testid="tenant-form-identity"
            {...form.getInputProps('identity')}
          />
          <NumberInput
            label={t('tenants.maxUsers')}
            required
            min={1}
            allowDecimal={false}
            data-testid="tenant-form-maxUsers"
            {...form.getInputProps('maxUsers')}
          />
          <NumberInput
            label={t('tenants.maxConnections')}
            required
            min={1}
            allowDecimal={false}
            data-testid="tenant-form-maxConnections"
            {...form.getInputProps('maxConnections')}
          />
        </SimpleGrid>
        <Switch
          label={t('tenants.trial')}
          data-testid="tenant-form-trial"
          {...form.getInputProps('trial', { type: 'checkbox' })}
        />
        {form.values.trial ? (
          <>
            <NumberInput
              label={t('tenants.trialPeriod')}
              min={1}
              allowDecimal={false}
              suffix={` ${t('tenants.days')}`}
              data-testid="tenant-form-trialPeriod"
              {...form.getInputProps('trialPeriod')}
            />
            <Alert color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />}>
              {t('tenants.trialWarning')}
            </Alert>
          </>
        ) : null}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="tenant-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
