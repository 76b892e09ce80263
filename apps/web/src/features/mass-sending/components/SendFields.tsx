/**
 * The inputs both sending tabs share: the connection, the pause (min and max seconds), the choice of what to send,
 * the message with its character count, and the attachment by URL (a media with its description, or an .ogg voice
 * note). Each takes the props @mantine/form gives for its field.
 */
import { useId, type ReactNode, type Ref } from 'react';
import { Group, Input, NumberInput, SegmentedControl, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
import { IconLink, IconMicrophone } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  BULK_INTERVAL_MAX_SECONDS,
  BULK_INTERVAL_MIN_SECONDS,
  BULK_MESSAGE_MAX,
  isBulkChannel,
  useBulkChannels,
} from '../api/bulk';

type InputProps = GetInputPropsReturnType;

export function ChannelSelect({ inputProps, testId }: { inputProps: InputProps; testId: string }) {
  const { t } = useTranslation();
  const channels = useBulkChannels();
  const data = (channels.data ?? [])
    .filter(isBulkChannel)
    .map((channel) => ({ value: String(channel.id), label: channel.name }));
  return (
    <Select
      label={t('massSending.fields.whatsappId')}
      required
      searchable
      data={data}
      nothingFoundMessage={channels.isFetching ? t('common.loading') : t('massSending.hints.noChannels')}
      data-testid={testId}
      {...inputProps}
    />
  );
}

export function IntervalFields({ min, max, prefix }: { min: InputProps; max: InputProps; prefix: string }) {
  const { t } = useTranslation();
  const hintId = useId();
  const common = {
    min: BULK_INTERVAL_MIN_SECONDS,
    max: BULK_INTERVAL_MAX_SECONDS,
    allowDecimal: false,
    allowNegative: false,
    required: true,
    'aria-describedby': hintId,
  };
  return (
    <Stack gap={4}>
      <Group grow align="flex-start">
        <NumberInput label={t('massSending.fields.min')} data-testid={`${prefix}min`} {...common} {...min} />
        <NumberInput label={t('massSending.fields.max')} data-testid={`${prefix}max`} {...common} {...max} />
      </Group>
      <Text size="xs" c="dimmed" id={hintId}>
        {t('massSending.hints.interval')}
      </Text>
    </Stack>
  );
}

interface ChoiceProps<V extends string> {
  label: string;
  value: V;
  options: readonly V[];
  labelOf: (value: V) => string;
  onChange: (value: V) => void;
  testId: string;
}

/** A SegmentedControl (a radio group) with its visible label. */
export function Choice<V extends string>({ label, value, options, labelOf, onChange, testId }: ChoiceProps<V>) {
  const labelId = useId();
  return (
    <div>
      <Input.Label labelElement="div" id={labelId} mb={4}>
        {label}
      </Input.Label>
      <SegmentedControl
        aria-labelledby={labelId}
        value={value}
        onChange={(next) => onChange(next as V)}
        data={options.map((option) => ({ value: option, label: labelOf(option) }))}
        fullWidth
        data-testid={testId}
      />
    </div>
  );
}

interface MessageFieldProps {
  inputProps: InputProps;
  length: number;
  testId: string;
  /** Shown above the count (the variables tab's hint). */
  hint?: ReactNode;
  ref?: Ref<HTMLTextAreaElement>;
}

export function MessageField({ inputProps, length, testId, hint, ref }: MessageFieldProps) {
  const { t } = useTranslation();
  const count = t('massSending.hints.messageCount', { length, max: BULK_MESSAGE_MAX });
  return (
    <Textarea
      ref={ref}
      label={t('massSending.fields.message')}
      required
      autosize
      minRows={4}
      maxRows={12}
      maxLength={BULK_MESSAGE_MAX}
      description={
        hint ? (
          <>
            <span style={{ display: 'block' }}>{hint}</span>
            <span>{count}</span>
          </>
        ) : (
          count
        )
      }
      data-testid={testId}
      {...inputProps}
    />
  );
}

interface UrlMediaFieldsProps {
  kind: 'mediaUrl' | 'voiceUrl';
  mediaUrl: InputProps;
  mediaDescription: InputProps;
  voiceUrl: InputProps;
  prefix: string;
}

export function UrlMediaFields({ kind, mediaUrl, mediaDescription, voiceUrl, prefix }: UrlMediaFieldsProps) {
  const { t } = useTranslation();
  if (kind === 'voiceUrl')
    return (
      <TextInput
        type="url"
        label={t('massSending.fields.voiceUrl')}
        description={t('massSending.hints.voiceUrl')}
        placeholder="https://"
        required
        autoComplete="off"
        leftSection={<IconMicrophone size={16} aria-hidden />}
        data-testid={`${prefix}voice-url`}
        {...voiceUrl}
      />
    );
  return (
    <>
      <TextInput
        type="url"
        label={t('massSending.fields.mediaUrl')}
        description={t('massSending.hints.mediaUrl')}
        placeholder="https://"
        required
        autoComplete="off"
        leftSection={<IconLink size={16} aria-hidden />}
        data-testid={`${prefix}media-url`}
        {...mediaUrl}
      />
      <Textarea
        label={t('massSending.fields.mediaDescription')}
        description={t('massSending.hints.mediaDescription')}
        required
        autosize
        minRows={2}
        maxRows={6}
        maxLength={BULK_MESSAGE_MAX}
        data-testid={`${prefix}media-description`}
        {...mediaDescription}
      />
    </>
  );
}
