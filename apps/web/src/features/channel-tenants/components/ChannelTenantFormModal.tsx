/**
 * The superadmin's channel form for a company (`/whatsappTenants`): company, name, type and the type's credentials.
 * The company and type are fixed once the channel exists (the server keeps both); secrets are write-only.
 */
import {
  Button,
  Group,
  Loader,
  Modal,
  NativeSelect,
  PasswordInput,
  Select,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { ChannelDto, ChannelInput, TenantDto } from '@conversa/shared';
import { QueryError } from '../../../components/QueryError';
import { ApiError, describeError } from '../../../lib/api';
import { companyOptions } from '../../../lib/companies';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveTenantChannel, useTenantChannel } from '../api/channel-tenants';
import {
  CREDENTIALS,
  hasStoredSecret,
  isTenantChannelType,
  storedValue,
  TENANT_CHANNEL_TYPES,
  type CredentialKey,
  type TenantChannelType,
} from './channel-tenant-fields';

interface Props {
  opened: boolean;
  onClose: () => void;
  /** The channel being edited (its id); undefined creates one. */
  channelId?: number;
  companies: TenantDto[];
  defaultTenantId: number | null;
}

type Values = {
  tenantId: string;
  name: string;
  type: TenantChannelType;
  isDefault: boolean;
} & Record<CredentialKey, string>;

export function ChannelTenantFormModal({ opened, onClose, channelId, companies, defaultTenantId }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={channelId === undefined ? t('channels.newTitle') : t('channels.editTitle')}
      centered
      size="lg"
    >
      {opened ? (
        channelId === undefined ? (
          <ChannelTenantForm companies={companies} defaultTenantId={defaultTenantId} onDone={onClose} />
        ) : (
          <EditChannel id={channelId} companies={companies} onDone={onClose} />
        )
      ) : null}
    </Modal>
  );
}

function EditChannel({ id, companies, onDone }: { id: number; companies: TenantDto[]; onDone: () => void }) {
  const { t } = useTranslation();
  const channel = useTenantChannel(id);
  if (channel.isError) return <QueryError error={channel.error} onRetry={() => void channel.refetch()} />;
  if (!channel.data) return <Loader aria-label={t('common.loading')} />;
  return (
    <ChannelTenantForm
      key={channel.data.id}
      channel={channel.data}
      companies={companies}
      defaultTenantId={channel.data.tenantId}
      onDone={onDone}
    />
  );
}

function ChannelTenantForm({
  channel,
  companies,
  defaultTenantId,
  onDone,
}: {
  channel?: ChannelDto;
  companies: TenantDto[];
  defaultTenantId: number | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveTenantChannel();
  const editing = channel !== undefined;
  const startType: TenantChannelType = channel && isTenantChannelType(channel.type) ? channel.type : 'baileys';
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      tenantId: defaultTenantId === null ? '' : String(defaultTenantId),
      name: channel?.name ?? '',
      type: startType,
      isDefault: channel?.isDefault ?? false,
      tokenTelegram: '',
      tokenAPI: '',
      bmToken: '',
      remotePath: storedValue(channel, 'remotePath'),
      wabaId: storedValue(channel, 'wabaId'),
      wabaVersion: storedValue(channel, 'wabaVersion'),
    },
    validate: (values) => {
      const errors: Partial<Record<keyof Values, string>> = {};
      if (!values.tenantId) errors.tenantId = t('validation.required', { attribute: t('userTenants.company') });
      if (!values.name.trim()) errors.name = t('validation.required', { attribute: t('channels.form.name') });
      for (const field of CREDENTIALS[values.type]) {
        const missing = !values[field.key].trim() && !(field.secret && hasStoredSecret(channel, field.key));
        if (field.required && missing) errors[field.key] = t('validation.required', { attribute: t(field.labelKey) });
      }
      return errors;
    },
  });
  const fields = CREDENTIALS[form.values.type];

  const submit = form.onSubmit((values) => {
    const input: ChannelInput = { name: values.name.trim(), type: values.type, isDefault: values.isDefault };
    for (const field of CREDENTIALS[values.type]) {
      const value = values[field.key].trim();
      // An empty secret keeps the stored one; an empty plain field clears it.
      if (field.secret ? value : true) input[field.key] = value;
    }
    save.mutate(
      { id: channel?.id, tenantId: Number(values.tenantId), input },
      {
        onSuccess: () => {
          notifySuccess(editing ? t('channels.saved') : t('channels.created'));
          onDone();
        },
        onError: (error) => {
          const field = error instanceof ApiError ? error.field : undefined;
          if (field && field in values) form.setFieldError(field, describeError(error));
          notifyError(describeError(error));
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Select
          label={t('userTenants.company')}
          description={editing ? t('channelTenants.companyFixed') : undefined}
          required
          searchable
          disabled={editing}
          nothingFoundMessage={t('userTenants.noCompany')}
          data={companyOptions(companies)}
          data-testid="channel-tenant-form-company"
          {...form.getInputProps('tenantId')}
        />
        <TextInput
          label={t('channels.form.name')}
          required
          disabled={editing && form.values.type === 'evo'}
          description={editing && form.values.type === 'evo' ? t('channels.form.evoNameLocked') : undefined}
          data-autofocus
          autoComplete="off"
          data-testid="channel-tenant-form-name"
          {...form.getInputProps('name')}
        />
        <NativeSelect
          label={t('channels.form.type')}
          disabled={editing}
          data={TENANT_CHANNEL_TYPES.map((type) => ({ value: type, label: t(`channels.types.${type}`) }))}
          data-testid="channel-tenant-form-type"
          {...form.getInputProps('type')}
        />
        {fields.map((field) => {
          const kept = field.secret && hasStoredSecret(channel, field.key);
          const props = {
            label: t(field.labelKey),
            description: kept ? t('channels.form.secretKept') : field.hintKey ? t(field.hintKey) : undefined,
            placeholder: kept ? t('channels.form.secretKeptPlaceholder') : undefined,
            required: field.required && !kept,
            autoComplete: 'off',
            'data-testid': `channel-tenant-form-${field.key}`,
            ...form.getInputProps(field.key),
          };
          return field.secret ? <PasswordInput key={field.key} {...props} /> : <TextInput key={field.key} {...props} />;
        })}
        <Switch
          label={t('channels.form.isDefault')}
          description={t('channels.form.isDefaultHint')}
          data-testid="channel-tenant-form-isDefault"
          {...form.getInputProps('isDefault', { type: 'checkbox' })}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending} data-testid="channel-tenant-form-submit">
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
