/** The general, messages and behaviour tabs of the channel form. */
import { PasswordInput, Select, SimpleGrid, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { CHANNEL_FLAG_KEYS, CHANNEL_TYPES, DISTRIBUTION_MODES, type ChannelDto } from '@conversa/shared';
import { useUserOptions } from '../api/routing';
import { ChatFlowSelect } from './ChatFlowSelect';
import { QueueSelect } from './QueueSelect';
import {
  evoInstanceName,
  hasSecret,
  IMPORT_FLAGS,
  isGatewayType,
  isHubType,
  isSupportedType,
  type ChannelFormValues,
  type SupportedTypes,
} from '../hooks/channel-form';
import { GatewayFields } from './GatewayFields';

type Form = UseFormReturnType<ChannelFormValues>;

interface GeneralPanelProps {
  form: Form;
  channel?: ChannelDto;
  supported?: SupportedTypes;
}

export function GeneralPanel({ form, channel, supported }: GeneralPanelProps) {
  const { t } = useTranslation();
  const users = useUserOptions();
  const values = form.getValues();
  // Evolution: the name is the instance (letters and digits only) and cannot change once created.
  const evo = values.type === 'evo';
  const nameLocked = evo && channel?.type === 'evo';
  const instance = evoInstanceName(values.name);
  // Hub channels come from /configuracoes/hub: offered only as the type an existing hub channel already has.
  const hubLocked = channel !== undefined && isHubType(channel.type);
  const typeOptions = CHANNEL_TYPES.filter((type) => !isHubType(type) || type === channel?.type).map((type) => {
    const label = t(`channels.types.${type}`);
    const available = isSupportedType(type, supported) || type === channel?.type;
    return {
      value: type,
      label: available ? label : t('channels.form.comingSoon', { type: label }),
      disabled: !available,
    };
  });
  const userOptions = (users.data ?? []).map((user) => ({ value: String(user.id), label: user.name }));
  const tokenKept = channel?.type === 'telegram' && hasSecret(channel, 'tokenTelegram');
  return (
    <Stack gap="sm">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label={t('channels.form.type')}
          data={typeOptions}
          allowDeselect={false}
          required
          readOnly={hubLocked}
          description={hubLocked ? t('channels.hub.typeLocked') : undefined}
          data-testid="channel-form-type"
          {...form.getInputProps('type')}
        />
        <TextInput
          label={t('channels.form.name')}
          required
          data-autofocus
          autoComplete="off"
          maxLength={120}
          readOnly={nameLocked}
          description={
            nameLocked
              ? t('channels.form.evoNameLocked')
              : evo
                ? t('channels.form.evoInstance', { instance: instance || '—' })
                : undefined
          }
          data-testid="channel-form-name"
          {...form.getInputProps('name')}
        />
      </SimpleGrid>
      {isGatewayType(values.type) ? <GatewayFields form={form} channel={channel} /> : null}
      {values.type === 'telegram' ? (
        <PasswordInput
          label={t('channels.form.tokenTelegram')}
          description={tokenKept ? t('channels.form.secretKept') : t('channels.form.tokenTelegramHint')}
          placeholder={tokenKept ? t('channels.form.secretKeptPlaceholder') : '123456789:AA...'}
          required={!tokenKept}
          autoComplete="new-password"
          maxLength={200}
          data-testid="channel-form-token"
          {...form.getInputProps('tokenTelegram')}
        />
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <QueueSelect
          label={t('channels.form.queue')}
          description={t('channels.form.queueHint')}
          testId="channel-form-queue"
          {...form.getInputProps('queueId')}
        />
        <Select
          label={t('channels.form.user')}
          description={t('channels.form.userHint')}
          placeholder={t('channels.form.none')}
          data={userOptions}
          searchable
          clearable
          nothingFoundMessage={t('channels.form.nothingFound')}
          disabled={users.isPending && !users.isError}
          error={users.isError ? t('channels.form.usersError') : undefined}
          data-testid="channel-form-user"
          {...form.getInputProps('userId')}
        />
        <ChatFlowSelect
          label={t('channels.form.chatFlow')}
          description={t('channels.form.chatFlowHint')}
          testId="channel-form-chat-flow"
          {...form.getInputProps('chatFlowId')}
        />
        <Select
          label={t('channels.form.distribution')}
          description={t('channels.form.distributionHint')}
          data={DISTRIBUTION_MODES.map((mode) => ({ value: mode, label: t(`distribution.${mode}`) }))}
          allowDeselect={false}
          data-testid="channel-form-distribution"
          {...form.getInputProps('distribution')}
        />
      </SimpleGrid>
      <Switch
        label={t('channels.form.isDefault')}
        description={t('channels.form.isDefaultHint')}
        data-testid="channel-form-default"
        {...form.getInputProps('isDefault', { type: 'checkbox' })}
      />
    </Stack>
  );
}

const HOURS = Array.from({ length: 24 }, (_, hour) => ({
  value: String(hour),
  label: `${String(hour).padStart(2, '0')}:00`,
}));

export function MessagesPanel({ form, channel }: { form: Form; channel?: ChannelDto }) {
  const { t } = useTranslation();
  const wavoipKept = hasSecret(channel, 'wavoipToken');
  return (
    <Stack gap="sm">
      <Textarea
        label={t('channels.form.farewellMessage')}
        description={t('channels.form.farewellMessageHint')}
        rows={3}
        resize="vertical"
        maxLength={4000}
        data-testid="channel-form-farewell"
        {...form.getInputProps('farewellMessage')}
      />
      <TextInput
        label={t('channels.form.closeKeyWord')}
        description={t('channels.form.closeKeyWordHint')}
        maxLength={200}
        autoComplete="off"
        data-testid="channel-form-close-keyword"
        {...form.getInputProps('closeKeyWord')}
      />
      <Switch
        label={t('channels.flags.birthdayDate')}
        data-testid="channel-form-flag-birthdayDate"
        {...form.getInputProps('flags.birthdayDate', { type: 'checkbox' })}
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Textarea
          style={{ gridColumn: 'span 2' }}
          label={t('channels.form.birthdayMessage')}
          rows={3}
          resize="vertical"
          maxLength={4000}
          data-testid="channel-form-birthday-message"
          {...form.getInputProps('birthdayDateMessage')}
        />
        <Select
          label={t('channels.form.birthdayHour')}
          description={t('channels.form.birthdayHourHint')}
          data={HOURS}
          clearable
          placeholder={t('channels.form.none')}
          data-testid="channel-form-birthday-hour"
          {...form.getInputProps('birthdayDateHour')}
        />
      </SimpleGrid>
      <PasswordInput
        label={t('channels.form.wavoipToken')}
        description={wavoipKept ? t('channels.form.secretKept') : t('channels.form.wavoipTokenHint')}
        placeholder={wavoipKept ? t('channels.form.secretKeptPlaceholder') : undefined}
        maxLength={2000}
        autoComplete="new-password"
        data-testid="channel-form-wavoip"
        {...form.getInputProps('wavoipToken')}
      />
    </Stack>
  );
}

/** `selfDistribute` is not a switch of its own: the general tab's distribution mode sets it. */
const BEHAVIOUR_FLAGS = CHANNEL_FLAG_KEYS.filter(
  (key) => key !== 'birthdayDate' && key !== 'selfDistribute' && !IMPORT_FLAGS.includes(key),
);

export function BehaviourPanel({ form }: { form: Form }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
      {BEHAVIOUR_FLAGS.map((key) => (
        <Switch
          key={key}
          label={t(`channels.flags.${key}`)}
          data-testid={`channel-form-flag-${key}`}
          {...form.getInputProps(`flags.${key}`, { type: 'checkbox' })}
        />
      ))}
    </SimpleGrid>
  );
}
