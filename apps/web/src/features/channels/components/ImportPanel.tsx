/** The history import tab of QR channels (product-spec §3): which messages to bring in, from when, into which queue. */
import '@mantine/dates/styles.css';
import { SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { DateInput, DatesProvider } from '@mantine/dates';
import type { UseFormReturnType } from '@mantine/form';
import { IconCalendar } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { dateInputFormat, dayjsLocale, parseDateInput } from '../../../lib/date-input';
import { currentLocale } from '../../../lib/i18n';
import { IMPORT_FLAGS, type ChannelFormValues } from '../hooks/channel-form';
import { QueueSelect } from './QueueSelect';

type Form = UseFormReturnType<ChannelFormValues>;

export function ImportPanel({ form }: { form: Form }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const dateProps = {
    valueFormat: dateInputFormat(locale),
    dateParser: (text: string) => parseDateInput(text, locale),
    placeholder: dateInputFormat(locale),
    clearable: true,
    leftSection: <IconCalendar size={16} aria-hidden />,
  };
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('channels.import.intro')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
        {IMPORT_FLAGS.map((key) => (
          <Switch
            key={key}
            label={t(`channels.flags.${key}`)}
            data-testid={`channel-form-flag-${key}`}
            {...form.getInputProps(`flags.${key}`, { type: 'checkbox' })}
          />
        ))}
      </SimpleGrid>
      <DatesProvider settings={{ locale: dayjsLocale(locale) }}>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <DateInput
            label={t('channels.import.start')}
            description={t('channels.import.startHint')}
            data-testid="channel-form-import-start"
            {...dateProps}
            {...form.getInputProps('importOldMessages')}
          />
          <DateInput
            label={t('channels.import.end')}
            description={t('channels.import.endHint')}
            data-testid="channel-form-import-end"
            {...dateProps}
            {...form.getInputProps('importRecentMessages')}
          />
          <QueueSelect
            label={t('channels.import.queue')}
            description={t('channels.import.queueHint')}
            testId="channel-form-import-queue"
            {...form.getInputProps('queueIdImportMessages')}
          />
        </SimpleGrid>
      </DatesProvider>
    </Stack>
  );
}
