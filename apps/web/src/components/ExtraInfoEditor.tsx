import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { newExtraInfoRow, type ContactFormValues } from '../lib/contact-form';

/** Additional information: free name/value rows (extraInfo). */
export function ExtraInfoEditor({ form }: { form: UseFormReturnType<ContactFormValues> }) {
  const { t } = useTranslation();
  const rows = form.getValues().extraInfo;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={500} id="contact-extra-info-label">
        {t('contacts.form.extraInfo')}
      </Text>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('contacts.form.extraInfoEmpty')}
        </Text>
      ) : null}
      {rows.map((row, index) => (
        <Group key={row.key} gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            flex={2}
            aria-label={t('contacts.form.extraInfoName')}
            placeholder={t('contacts.form.extraInfoName')}
            maxLength={120}
            data-testid={`contact-form-extra-name-${index}`}
            {...form.getInputProps(`extraInfo.${index}.name`)}
          />
          <TextInput
            flex={3}
            aria-label={t('contacts.form.extraInfoValue')}
            placeholder={t('contacts.form.extraInfoValue')}
            maxLength={2000}
            data-testid={`contact-form-extra-value-${index}`}
            {...form.getInputProps(`extraInfo.${index}.value`)}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label={t('contacts.form.extraInfoRemove', { index: index + 1 })}
            onClick={() => form.removeListItem('extraInfo', index)}
          >
            <IconTrash size={18} aria-hidden />
          </ActionIcon>
        </Group>
      ))}
      <div>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} aria-hidden />}
          onClick={() => form.insertListItem('extraInfo', newExtraInfoRow())}
          disabled={rows.length >= 50}
          data-testid="contact-form-extra-add"
        >
          {t('contacts.form.extraInfoAdd')}
        </Button>
      </div>
    </Stack>
  );
}
