import { useState } from 'react';
import { DateInput, DatesProvider } from '@mantine/dates';
import type { UseFormReturnType } from '@mantine/form';
import { IconCalendar } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { isIsoBirthday, type ContactFormValues } from '../lib/contact-form';
import { dateInputFormat, dayjsLocale, parseDateInput } from '../lib/date-input';
import { currentLocale } from '../lib/i18n';

const MIN_BIRTHDAY = '1900-01-01';

/**
 * The contact's birthday (birthdayDate), typed in the interface language's order or picked; no future dates. A typed
 * text that is no date (31/02/1990) stays in the field as the form's value, so validateContact refuses it with
 * 'Data inválida' instead of the form saving no birthday; only an emptied field clears it.
 */
export function ContactBirthdayInput({ form }: { form: UseFormReturnType<ContactFormValues> }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const birthday = form.getValues().birthdayDate;
  const today = dayjs().format('YYYY-MM-DD');
  const { onChange, onBlur, value, ...inputProps } = form.getInputProps('birthdayDate');
  void value;
  // The calendar's value while the form holds a typed text that is no date: the last real one, so the field keeps
  // the text the person typed (a changed value would make the calendar rewrite it).
  const [shown, setShown] = useState<string | null>(birthday && isIsoBirthday(birthday) ? birthday : null);
  const accept = (text: string): string | null => {
    const iso = parseDateInput(text, locale);
    return iso && iso >= MIN_BIRTHDAY && iso <= today ? iso : null;
  };
  return (
    <DatesProvider settings={{ locale: dayjsLocale(locale) }}>
      <DateInput
        label={t('contacts.form.birthday')}
        description={t('contacts.form.birthdayHint', { format: t('contacts.form.birthdayPlaceholder') })}
        placeholder={t('contacts.form.birthdayPlaceholder')}
        valueFormat={dateInputFormat(locale)}
        dateParser={accept}
        maxDate={today}
        minDate={MIN_BIRTHDAY}
        defaultLevel={birthday ? 'month' : 'decade'}
        clearable
        fixOnBlur={false}
        leftSection={<IconCalendar size={16} aria-hidden />}
        data-testid="contact-form-birthday"
        {...inputProps}
        value={shown}
        onChange={(next: string | null) => {
          (onChange as (value: string | null) => void)(next);
          setShown(next);
          form.clearFieldError('birthdayDate');
        }}
        onBlur={(event) => {
          (onBlur as ((e: typeof event) => void) | undefined)?.(event);
          const text = event.currentTarget.value.trim();
          if (!text) {
            form.setFieldValue('birthdayDate', null);
            setShown(null);
            return;
          }
          const iso = accept(text);
          if (iso) setShown(iso);
          // A text that is no date stays the value: the form refuses it ('Data inválida') and never saves null.
          form.setFieldValue('birthdayDate', iso ?? text);
          form.validateField('birthdayDate');
        }}
      />
    </DatesProvider>
  );
}
