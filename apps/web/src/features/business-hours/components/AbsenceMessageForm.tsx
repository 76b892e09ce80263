/** The absence message (product-spec §4): sent once per conversation outside business hours; empty sends nothing. */
import { Button, Group, Stack, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveAbsenceMessage } from '../api/business-hours';

export const ABSENCE_MESSAGE_MAX = 4000;

export function AbsenceMessageForm({ stored, readOnly }: { stored: string; readOnly: boolean }) {
  const { t } = useTranslation();
  const save = useSaveAbsenceMessage();
  const form = useForm({ mode: 'controlled', initialValues: { message: stored } });
  const submit = form.onSubmit((values) =>
    save.mutate(values.message.trim(), {
      onSuccess: () => notifySuccess(t('businessHours.message.saved')),
      onError: (error) => notifyError(describeError(error)),
    }),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Textarea
          label={t('businessHours.message.label')}
          description={t('businessHours.message.hint')}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={ABSENCE_MESSAGE_MAX}
          readOnly={readOnly}
          data-testid="bh-message"
          {...form.getInputProps('message')}
        />
        {readOnly ? null : (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending} data-testid="bh-message-save">
              {t('businessHours.message.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
