/**
 * /massa/textovariavel (product-spec §5 "Mass sending": variables in double braces, each line a number followed by
 * its variables, separated by commas): the lines, a message with `{{var1}}`… and the contact's `{{name}}`,
 * `{{firstName}}`, `{{number}}` (inserted at the cursor from a menu), the pause, and an optional attachment by URL.
 * POST /bulkVariable/; the batch it answers is followed in the progress card.
 */
import { useRef, useState } from 'react';
import { Button, Group, Menu, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconBraces, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSendBulkVariable, type BulkBatchDto } from '../api/bulk';
import { CONTACT_VARIABLES, insertAt, parseVariableLines } from '../hooks/mass-numbers';
import {
  ATTACHMENTS,
  sendFailure,
  VARIABLE_FIELD_OF,
  variableFieldsShown,
  variableSendBody,
  variableSendDefaults,
  variableSendRules,
  type VariableSendValues,
} from '../hooks/mass-send-form';
import { BatchProgressCard } from './BatchProgressCard';
import { ChannelSelect, Choice, IntervalFields, MessageField, UrlMediaFields } from './SendFields';

const PREFIX = 'bulk-var-';

export function VariableSendPage() {
  const { t } = useTranslation();
  const send = useSendBulkVariable();
  const [batchId, setBatchId] = useState<number | null>(null);
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const form = useForm<VariableSendValues>({
    mode: 'controlled',
    initialValues: variableSendDefaults(),
    validate: variableSendRules(t),
  });
  const { values } = form;
  const parsed = parseVariableLines(values.lines);
  const variables = [
    ...Array.from({ length: parsed.columns }, (_, index) => ({
      token: `{{var${index + 1}}}`,
      description: t('massSending.variables.column', { n: index + 1 }),
    })),
    ...CONTACT_VARIABLES.map((name) => ({ token: `{{${name}}}`, description: t(`massSending.variables.${name}`) })),
  ];

  /** Puts the variable where the cursor (or the selection) was, and the cursor after it. */
  const insertVariable = (token: string) => {
    const element = messageRef.current;
    const start = element?.selectionStart ?? values.message.length;
    const end = element?.selectionEnd ?? start;
    const { value, caret } = insertAt(values.message, token, start, end);
    form.setFieldValue('message', value);
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(caret, caret);
    });
  };

  const onSent = (batch: BulkBatchDto) => {
    setBatchId(batch.id);
    form.setFieldValue('lines', '');
    notifySuccess(t('massSending.sent', { count: batch.total }));
  };
  const submit = form.onSubmit((submitted) =>
    send.mutate(variableSendBody(submitted), {
      onSuccess: onSent,
      onError: (error) => {
        const failure = sendFailure(error, VARIABLE_FIELD_OF, variableFieldsShown(form.getValues().attachment), t);
        if (failure.field) form.setFieldError(failure.field, failure.message);
        if (failure.notify) notifyError(failure.message);
      },
    }),
  );

  const linesHint = [
    t('massSending.hints.lines'),
    t('massSending.hints.linesCount', { count: parsed.valid }),
    parsed.firstInvalidLine !== null
      ? t('massSending.hints.linesInvalid', { count: parsed.invalidCount, line: parsed.firstInvalidLine })
      : '',
  ]
    .filter(Boolean)
    .join(' ');

  return (
    <Stack gap="lg">
      <form onSubmit={submit} noValidate data-testid="bulk-var-form">
        <Stack gap="sm" maw={760}>
          <ChannelSelect inputProps={form.getInputProps('whatsappId')} testId={`${PREFIX}channel`} />
          <Textarea
            label={t('massSending.fields.lines')}
            description={linesHint}
            required
            autosize
            minRows={4}
            maxRows={12}
            placeholder={t('massSending.hints.linesPlaceholder')}
            data-testid={`${PREFIX}lines`}
            {...form.getInputProps('lines')}
          />
          <MessageField
            ref={messageRef}
            inputProps={form.getInputProps('message')}
            length={values.message.length}
            hint={t('massSending.variables.hint', { variables: variables.map((v) => v.token).join(', ') })}
            testId={`${PREFIX}message`}
          />
          <Group>
            <Menu position="bottom-start" withinPortal>
              <Menu.Target>
                <Button
                  variant="light"
                  size="xs"
                  leftSection={<IconBraces size={14} aria-hidden />}
                  data-testid={`${PREFIX}insert-variable`}
                >
                  {t('massSending.variables.insert')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {variables.map(({ token, description }) => (
                  <Menu.Item
                    key={token}
                    onClick={() => insertVariable(token)}
                    rightSection={
                      <Text size="xs" c="dimmed">
                        {description}
                      </Text>
                    }
                    data-testid={`${PREFIX}variable-${token.slice(2, -2)}`}
                  >
                    {token}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          </Group>
          <IntervalFields min={form.getInputProps('min')} max={form.getInputProps('max')} prefix={PREFIX} />
          <Choice
            label={t('massSending.fields.attachment')}
            value={values.attachment}
            options={ATTACHMENTS}
            labelOf={(attachment) => t(`massSending.attachments.${attachment}`)}
            onChange={(attachment) => form.setFieldValue('attachment', attachment)}
            testId={`${PREFIX}attachment`}
          />
          {values.attachment !== 'none' ? (
            <UrlMediaFields
              kind={values.attachment}
              mediaUrl={form.getInputProps('mediaUrl')}
              mediaDescription={form.getInputProps('mediaDescription')}
              voiceUrl={form.getInputProps('voiceUrl')}
              prefix={PREFIX}
            />
          ) : null}
          <Group justify="flex-end">
            <Button
              type="submit"
              loading={send.isPending}
              disabled={send.isPending}
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
