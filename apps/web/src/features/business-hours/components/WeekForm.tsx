/** The week of the business-hours screen: a type per weekday and, for H days, one or two intervals (HH:mm, 24 h). */
import { Button, Divider, Group, Select, Stack, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { BusinessHoursDay } from '@conversa/shared';
import { describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveBusinessHours } from '../api/business-hours';
import {
  crossesMidnight,
  DAY_TYPES,
  normalizeTime,
  validateWeek,
  valuesToWeek,
  weekToValues,
  type WeekValues,
} from '../hooks/business-hours-form';

type TimeField = 'hr1' | 'hr2' | 'hr3' | 'hr4';

interface WeekFormProps {
  stored: BusinessHoursDay[];
  readOnly: boolean;
}

export function WeekForm({ stored, readOnly }: WeekFormProps) {
  const { t } = useTranslation();
  const save = useSaveBusinessHours();
  const form = useForm<WeekValues>({
    mode: 'controlled',
    initialValues: weekToValues(stored),
    validate: (values) => validateWeek(values, t),
  });
  const submit = form.onSubmit((values) =>
    save.mutate(valuesToWeek(values), {
      onSuccess: () => notifySuccess(t('businessHours.saved')),
      onError: (error) => notifyError(describeError(error)),
    }),
  );
  return (
    <form onSubmit={submit} noValidate aria-label={t('businessHours.weekLabel')}>
      <Stack gap="sm">
        {form.values.days.map((day, index) => (
          <Stack key={day.day} gap="sm">
            {index > 0 ? <Divider /> : null}
            <DayRow form={form} index={index} readOnly={readOnly} />
          </Stack>
        ))}
        {readOnly ? null : (
          <Group justify="flex-end" mt="sm">
            <Button type="submit" loading={save.isPending} data-testid="bh-save">
              {t('businessHours.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

interface DayRowProps {
  form: UseFormReturnType<WeekValues>;
  index: number;
  readOnly: boolean;
}

function DayRow({ form, index, readOnly }: DayRowProps) {
  const { t } = useTranslation();
  const day = form.values.days[index]!;
  const types = DAY_TYPES.map((type) => ({ value: type, label: t(`businessHours.types.${type}`) }));
  const timeInput = (field: TimeField, label: string, hint?: string) => {
    const path = `days.${index}.${field}`;
    const props = form.getInputProps(path);
    return (
      <TextInput
        label={label}
        description={hint}
        placeholder={t('businessHours.timePlaceholder')}
        required={field === 'hr1' || field === 'hr2'}
        readOnly={readOnly}
        w={150}
        maxLength={5}
        inputMode="numeric"
        autoComplete="off"
        data-testid={`bh-${field}-${day.day}`}
        {...props}
        onBlur={(event) => {
          form.setFieldValue(path, normalizeTime(event.currentTarget.value));
          (props.onBlur as ((e: typeof event) => void) | undefined)?.(event);
        }}
      />
    );
  };
  const nextDay = (start: string, end: string) =>
    crossesMidnight(start, end) ? t('businessHours.nextDay') : undefined;
  return (
    <Group align="flex-start" gap="md" wrap="wrap" data-testid={`bh-day-${day.day}`}>
      <Select
        label={t(`businessHours.days.${day.day}`)}
        data={types}
        allowDeselect={false}
        readOnly={readOnly}
        w={220}
        data-testid={`bh-type-${day.day}`}
        {...form.getInputProps(`days.${index}.type`)}
      />
      {day.type === 'H' ? (
        <>
          <Group gap="xs" align="flex-start" wrap="nowrap">
            {timeInput('hr1', t('businessHours.opens'))}
            {timeInput('hr2', t('businessHours.closes'), nextDay(day.hr1, day.hr2))}
          </Group>
          <Group gap="xs" align="flex-start" wrap="nowrap">
            {timeInput('hr3', t('businessHours.opensSecond'), t('businessHours.optional'))}
            {timeInput('hr4', t('businessHours.closesSecond'), nextDay(day.hr3, day.hr4))}
          </Group>
        </>
      ) : null}
    </Group>
  );
}
