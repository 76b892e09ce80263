/**
 * A typed day (product-spec §5: day/month/year; month/day/year in American English) with a calendar in the interface
 * language. The value is an ISO date (YYYY-MM-DD) or '' when empty, so filters keep their plain string state.
 */
import { DateInput, DatesProvider, type DateInputProps } from '@mantine/dates';
import { IconCalendar } from '@tabler/icons-react';
import { currentLocale } from '../lib/i18n';
import { dateInputFormat, dayjsLocale, parseDateInput } from '../lib/date-input';

type Props = Omit<DateInputProps, 'value' | 'onChange' | 'valueFormat' | 'dateParser'> & {
  value: string;
  onChange: (value: string) => void;
};

export function DayInput({ value, onChange, ...rest }: Props) {
  const locale = currentLocale();
  return (
    <DatesProvider settings={{ locale: dayjsLocale(locale) }}>
      <DateInput
        leftSection={<IconCalendar size={16} aria-hidden />}
        {...rest}
        valueFormat={dateInputFormat(locale)}
        dateParser={(text) => parseDateInput(text, locale)}
        value={value || null}
        onChange={(next) => onChange(next ?? '')}
      />
    </DatesProvider>
  );
}
