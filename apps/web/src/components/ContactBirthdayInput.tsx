import { DateInput, DatesProvider } from '@mantine/dates';
import type { UseFormReturnType } from '@mantine/form';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { ContactFormValues } from '../lib/contact-form';
import { dateInputFormat, dayjsLocale, parseDateInput } from '../lib/date-input';
import { currentLocale } from '../lib/i18n';

/** The contact's birthday (birthdayDate), typed in the interface language's order or picked; no future dates. */
export function ContactBirthdayInput({ form }: { form: UseFormReturnType<ContactFormValues> }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const birthday = form.getValues().birthdayDate;
  return (
    <DatesProvider settings={{ locale: dayjsLocale(locale) }}>
      <DateInput
        label={t('contacts.form.birthday')}
        description={t('contacts.form.birthdayHint', { format: t('contacts.form.birthdayPlaceholder') })}
        placeholder={t('contacts.form.birthdayPlaceholder')}
        valueFormat={dateInputFormat(locale)}
        dateParser={(text) => parseDateInput(text, locale)}
        maxDate={dayjs().format('YYYY-MM-DD')}
        minDate="1900-01-01"
        defaultLevel={birthday ? 'month' : 'decade'}
        clearable
        leftSection={<IconCalendar size={16} aria-hidden />}
        data-testid="contact-form-birthday"
        {...form.getInputProps('birthdayDate')}
      />
    </DatesProvider>
  );
}
