/**
 * /massa/texto (product-spec §2, §5 "Mass sending"): one message to a list of numbers through a connection, with a
 * pause of min to max seconds between sends. The message is a text, a media by URL with its description, a voice
 * note by URL (.ogg) or a file with its description (an audio file may go as a voice note). JSON to POST /bulk/,
 * multipart to POST /bulkClose/ with a file; the batch it answers is followed in the progress card.
 */
import { useState } from 'react';
import { Button, Checkbox, FileInput, Group, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPaperclip, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { MEDIA_ALLOWED_MIME_PREFIXES, MEDIA_MAX_BYTES } from '@conversa/shared';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { BULK_MESSAGE_MAX, useSendBulk, useSendBulkFile, type BulkBatchDto } from '../api/bulk';
import { parseNumbers } from '../hooks/mass-numbers';
import {
  isAudioFile,
  SEND_OPTIONS,
  sendFailure,
  TEXT_FIELD_OF,
  textFieldsShown,
  textSendDefaults,
  textSendRequest,
  textSendRules,
  type TextSendValues,
} from '../hooks/mass-send-form';
import { BatchProgressCard } from './BatchProgressCard';
import { ChannelSelect, Choice, IntervalFields, MessageField, UrlMediaFields } from './SendFields';

const ACCEPT = MEDIA_ALLOWED_MIME_PREFIXES.map((prefix) => `${prefix}*`).join(',');
const PREFIX = 'bulk-text-';

export function TextSendPage() {
  const { t } = useTranslation();
  const send = useSendBulk();
  const sendFile = useSendBulkFile();
  const [batchId, setBatchId] = useState<number | null>(null);
  const form = useForm<TextSendValues>({
    mode: 'controlled',
    initialValues: textSendDefaults(),
    validate: textSendRules(t),
  });
  const { values } = form;
  const parsed = parseNumbers(values.numbers);
  const sending = send.isPending || sendFile.isPending;

  const onSent = (batch: BulkBatchDto) => {
    setBatchId(batch.id);
    form.setFieldValue('numbers', '');
    notifySuccess(t('massSending.sent', { count: batch.total }));
  };
  const onFailed = (error: unknown) => {
    const failure = sendFailure(error, TEXT_FIELD_OF, textFieldsShown(form.getValues().option), t);
    if (failure.field) form.setFieldError(failure.field, failure.message);
    if (failure.notify) notifyError(failure.message);
  };

  const submit = form.onSubmit((submitted) => {
    const request = textSendRequest(submitted);
    if (request.kind === 'file') sendFile.mutate(request.draft, { onSuccess: onSent, onError: onFailed });
    else send.mutate(request.body, { onSuccess: onSent, onError: onFailed });
  });

  const numbersHint = [
    t('massSending.hints.numbers'),
    t('massSending.hints.numbersCount', { count: parsed.numbers.length }),
    parsed.invalid.length > 0
      ? t('massSending.hints.numbersIgnored', { count: parsed.invalid.length, first: parsed.invalid[0] })
      : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate data-testid="bulk-text-form">
        <Stack gap="sm" maw={760}>
          <ChannelSelect inputProps={form.getInputProps('whatsappId')} testId={`${PREFIX}channel`} />
          <Textarea
            label={t('massSending.fields.numbers')}
            description={numbersHint}
            required
            autosize
            minRows={4}
            maxRows={12}
            placeholder={t('massSending.hints.numbersPlaceholder')}
            data-testid={`${PREFIX}numbers`}
            {...form.getInputProps('numbers')}
          />
          <IntervalFields min={form.getInputProps('min')} max={form.getInputProps('max')} prefix={PREFIX} />
          <Choice
            label={t('massSending.fields.option')}
            value={values.option}
            options={SEND_OPTIONS}
            labelOf={(option) => t(`massSending.options.${option}`)}
            onChange={(option) => form.setFieldValue('option', option)}
            testId={`${PREFIX}option`}
          />
          {values.option === 'text' ? (
            <MessageField
              inputProps={form.getInputProps('message')}
              length={values.message.length}
              testId={`${PREFIX}message`}
            />
          ) : values.option === 'file' ? (
            <>
              <FileInput
                label={t('massSending.fields.file')}
                description={t('massSending.hints.file', { size: Math.round(MEDIA_MAX_BYTES / 1024 / 1024) })}
                placeholder={t('massSending.hints.filePlaceholder')}
                required
                clearable
                accept={ACCEPT}
                leftSection={<IconPaperclip size={16} aria-hidden />}
                data-testid={`${PREFIX}file`}
                {...form.getInputProps('file')}
              />
              {isAudioFile(values.file) ? (
                <Checkbox
                  label={t('massSending.fields.voiceNote')}
                  data-testid={`${PREFIX}voice-note`}
                  {...form.getInputProps('voiceNote', { type: 'checkbox' })}
                />
              ) : null}
              <Textarea
                label={t('massSending.fields.fileDescription')}
                description={t('massSending.hints.fileDescription')}
                required
                autosize
                minRows={2}
                maxRows={6}
                maxLength={BULK_MESSAGE_MAX}
                data-testid={`${PREFIX}file-description`}
                {...form.getInputProps('fileDescription')}
              />
            </>
          ) : (
            <UrlMediaFields
              kind={values.option}
              mediaUrl={form.getInputProps('mediaUrl')}
              mediaDescription={form.getInputProps('mediaDescription')}
              voiceUrl={form.getInputProps('voiceUrl')}
              prefix={PREFIX}
            />
          )}
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={sending}
              disabled={sending}
              leftSection={<IconSend size={16} aria-hidden />}
              data-testid={`${PREFIX}submit`}
            >
              {t('massSending.send')}
            </Button>
          </Group>
        </Stack>
      </form>
      {batchId !== null ? <BatchProgressCard key={batchId} batchId={batchId} /> : null}
    </Stack>
  );
}
