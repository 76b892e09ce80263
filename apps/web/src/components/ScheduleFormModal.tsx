/**
 * The schedule form (product-spec §9 "Scheduling a message"): contact and channel (unless a chat gives them), text,
 * the date shortcuts (in 30 minutes, tomorrow, next week, custom), date and time, recurrence and repetitions. Edits a
 * pending schedule when `schedule` is given. Shared by the schedules screen and the chat.
 */
import { useState } from 'react';
import {
  Button,
  Chip,
  FileInput,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { DateInput, DatesProvider } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { IconCalendar, IconClock } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  channelDtoSchema,
  contactListResponseSchema,
  SCHEDULE_MAX_REPETITIONS,
  SCHEDULE_RECURRENCE_DAYS,
  type ScheduledMessageDto,
} from '@conversa/shared';
import { api, describeError } from '../lib/api';
import { dayjsLocale, parseDayInput, parseTimeInput, PICK_DAY_FORMAT } from '../lib/date-input';
import { currentLocale } from '../lib/i18n';
import { notifyError, notifySuccess } from '../lib/notify';
import {
  fromDateInputs,
  SCHEDULE_SHORTCUTS,
  shortcutDate,
  toDateInputs,
  useCreateSchedule,
  useUpdateSchedule,
  type ScheduleShortcut,
} from '../lib/schedules';

export interface ScheduleTarget {
  contactId: number;
  contactName: string;
  channelId: number | null;
  ticketId: number | null;
}

interface ScheduleFormModalProps {
  opened: boolean;
  onClose: () => void;
  /** The conversation a chat schedules for; absent on the schedules screen (the form then asks contact and channel). */
  target?: ScheduleTarget | undefined;
  /** A pending schedule to edit. */
  schedule?: ScheduledMessageDto | undefined;
  /** The text typed in the chat's input, as the message's start. */
  initialBody?: string;
  onSaved?: (dto: ScheduledMessageDto) => void;
}

export function ScheduleFormModal(props: ScheduleFormModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.schedule ? t('schedules.form.editTitle') : t('schedules.form.newTitle')}
      centered
      size="lg"
    >
      {props.opened ? <ScheduleForm key={props.schedule?.id ?? 'new'} {...props} /> : null}
    </Modal>
  );
}

interface Values {
  contactId: string | null;
  channelId: string | null;
  body: string;
  day: string;
  time: string;
  recurrence: string;
  repetitions: number;
  file: File | null;
}

const NONE = 'none';

function useContactOptions(search: string, enabled: boolean) {
  return useQuery({
    queryKey: ['contacts', 'list', { searchParam: search, pageNumber: 1, rowsPerPage: 20, purpose: 'schedule' }],
    queryFn: async () =>
      contactListResponseSchema.parse(
        await api.get('/contacts/', { query: { searchParam: search, pageNumber: 1 }, background: true }),
      ).contacts,
    enabled,
    staleTime: 30_000,
  });
}

function useChannelOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['channels'],
    queryFn: async () => z.array(channelDtoSchema).parse(await api.get('/whatsapp/', { background: true })),
    enabled,
    staleTime: 60_000,
  });
}

function ScheduleForm({ onClose, target, schedule, initialBody, onSaved }: ScheduleFormModalProps) {
  const { t } = useTranslation();
  const create = useCreateSchedule();
  const update = useUpdateSchedule();
  const asksTarget = !target && !schedule;
  const [contactSearch, setContactSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(contactSearch.trim(), 300);
  const contacts = useContactOptions(debouncedSearch, asksTarget);
  const channels = useChannelOptions(asksTarget);
  const [shortcut, setShortcut] = useState<ScheduleShortcut | 'custom'>(schedule ? 'custom' : 'in30');
  const initialDate = schedule ? new Date(schedule.scheduleDate) : shortcutDate('in30');
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: {
      contactId: null,
      channelId: null,
      body: schedule?.body ?? initialBody ?? '',
      ...toDateInputs(initialDate),
      recurrence: schedule?.recurrenceDays ? String(schedule.recurrenceDays) : NONE,
      repetitions: schedule?.repetitionsLeft ?? 1,
      file: null,
    },
    validate: {
      contactId: (v) =>
        asksTarget && !v ? t('validation.required', { attribute: t('schedules.fields.contact') }) : null,
      channelId: (v) =>
        asksTarget && !v ? t('validation.required', { attribute: t('schedules.fields.channel') }) : null,
      body: (v, values) =>
        v.trim() || values.file ? null : t('validation.required', { attribute: t('schedules.fields.message') }),
      day: (v, values) => {
        if (!v) return t('validation.required', { attribute: t('schedules.fields.date') });
        const date = fromDateInputs(v, parseTimeInput(values.time) ?? values.time);
        if (!date) return t('validation.invalid', { attribute: t('schedules.fields.date') });
        return date.getTime() <= Date.now() ? t('schedules.form.pastDate') : null;
      },
      time: (v) =>
        !v.trim()
          ? t('validation.required', { attribute: t('schedules.fields.time') })
          : parseTimeInput(v)
            ? null
            : t('validation.invalid', { attribute: t('schedules.fields.time') }),
      repetitions: (v, values) =>
        values.recurrence !== NONE && (v < 1 || v > SCHEDULE_MAX_REPETITIONS)
          ? t('validation.invalid', { attribute: t('schedules.fields.repetitions') })
          : null,
    },
  });

  const pick = (value: ScheduleShortcut | 'custom') => {
    setShortcut(value);
    if (value !== 'custom') form.setValues(toDateInputs(shortcutDate(value)));
  };

  const submit = form.onSubmit((values) => {
    const date = fromDateInputs(values.day, parseTimeInput(values.time) ?? values.time)!;
    const recurrenceDays = values.recurrence === NONE ? null : Number(values.recurrence);
    const repetitions = recurrenceDays ? values.repetitions : 1;
    const done = (dto: ScheduledMessageDto) => {
      notifySuccess(schedule ? t('schedules.saved') : t('schedules.created'));
      onSaved?.(dto);
      onClose();
    };
    const failed = (error: unknown) => notifyError(describeError(error));
    if (schedule) {
      update.mutate(
        {
          id: schedule.id,
          values: { body: values.body, scheduleDate: date.toISOString(), recurrenceDays, repetitions },
        },
        { onSuccess: done, onError: failed },
      );
      return;
    }
    create.mutate(
      {
        contactId: target?.contactId ?? Number(values.contactId),
        channelId: target ? target.channelId : Number(values.channelId),
        ticketId: target?.ticketId ?? null,
        body: values.body.trim() ? values.body : (values.file?.name ?? ''),
        scheduleDate: date.toISOString(),
        recurrenceDays,
        repetitions,
        idFront: crypto.randomUUID(),
        file: values.file,
      },
      { onSuccess: done, onError: failed },
    );
  });

  const contactData = (contacts.data ?? []).map((c) => ({ value: String(c.id), label: c.name || c.number || '' }));
  const channelData = (channels.data ?? []).map((c) => ({ value: String(c.id), label: c.name }));
  const recurrenceData = [
    { value: NONE, label: t('schedules.recurrence.none') },
    ...SCHEDULE_RECURRENCE_DAYS.map((days) => ({
      value: String(days),
      label: t('schedules.recurrence.every', { count: days }),
    })),
  ];

  return (
    <form onSubmit={submit} noValidate data-testid="schedule-form">
      <Stack gap="sm">
        {target ? (
          <Text size="sm">
            {t('schedules.form.for')} <strong>{target.contactName}</strong>
          </Text>
        ) : null}
        {schedule ? (
          <Text size="sm">
            {t('schedules.form.for')} <strong>{schedule.contactName}</strong>
          </Text>
        ) : null}
        {asksTarget ? (
          <>
            <Select
              label={t('schedules.fields.contact')}
              placeholder={t('schedules.form.contactSearch')}
              searchable
              required
              data={contactData}
              searchValue={contactSearch}
              onSearchChange={setContactSearch}
              filter={({ options }) => options}
              nothingFoundMessage={contacts.isFetching ? t('common.loading') : t('schedules.form.noContacts')}
              data-testid="schedule-contact"
              {...form.getInputProps('contactId')}
            />
            <Select
              label={t('schedules.fields.channel')}
              required
              data={channelData}
              data-testid="schedule-channel"
              {...form.getInputProps('channelId')}
            />
          </>
        ) : null}
        <Textarea
          label={t('schedules.fields.message')}
          required
          autosize
          minRows={3}
          maxRows={8}
          maxLength={10_000}
          data-testid="schedule-body"
          {...form.getInputProps('body')}
        />
        {schedule ? null : (
          <FileInput
            label={t('schedules.fields.file')}
            description={t('schedules.form.fileHint')}
            clearable
            data-testid="schedule-file"
            {...form.getInputProps('file')}
          />
        )}
        <div>
          <Text size="sm" fw={500} mb={4} id="schedule-when-label">
            {t('schedules.form.when')}
          </Text>
          <Chip.Group multiple={false} value={shortcut} onChange={(v) => pick(v as ScheduleShortcut | 'custom')}>
            <Group gap="xs" role="radiogroup" aria-labelledby="schedule-when-label">
              {[...SCHEDULE_SHORTCUTS, 'custom' as const].map((value) => (
                <Chip key={value} value={value} size="sm" data-testid={`schedule-shortcut-${value}`}>
                  {t(`schedules.shortcuts.${value}`)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </div>
        {/* dd/MM/yyyy and 24 h in every language (never the browser's native inputs, which follow its locale). */}
        <Group grow align="flex-start">
          <DatesProvider settings={{ locale: dayjsLocale(currentLocale()) }}>
            <DateInput
              label={t('schedules.fields.date')}
              placeholder={t('schedules.form.dayPlaceholder')}
              required
              valueFormat={PICK_DAY_FORMAT}
              dateParser={parseDayInput}
              minDate={dayjs().format('YYYY-MM-DD')}
              leftSection={<IconCalendar size={16} aria-hidden />}
              data-testid="schedule-day"
              {...form.getInputProps('day')}
              value={form.values.day || null}
              onChange={(value) => {
                setShortcut('custom');
                form.setFieldValue('day', value ?? '');
              }}
            />
          </DatesProvider>
          <TextInput
            label={t('schedules.fields.time')}
            placeholder={t('schedules.form.timePlaceholder')}
            required
            inputMode="numeric"
            autoComplete="off"
            maxLength={5}
            leftSection={<IconClock size={16} aria-hidden />}
            data-testid="schedule-time"
            {...form.getInputProps('time')}
            onChange={(event) => {
              setShortcut('custom');
              form.setFieldValue('time', event.currentTarget.value);
            }}
            onBlur={(event) => {
              const time = parseTimeInput(event.currentTarget.value);
              if (time) form.setFieldValue('time', time);
              form.validateField('time');
            }}
          />
        </Group>
        <Group grow align="flex-start">
          <Select
            label={t('schedules.fields.recurrence')}
            data={recurrenceData}
            allowDeselect={false}
            data-testid="schedule-recurrence"
            {...form.getInputProps('recurrence')}
          />
          {form.values.recurrence !== NONE ? (
            <NumberInput
              label={t('schedules.fields.repetitions')}
              description={t('schedules.form.repetitionsHint')}
              min={1}
              max={SCHEDULE_MAX_REPETITIONS}
              allowDecimal={false}
              data-testid="schedule-repetitions"
              {...form.getInputProps('repetitions')}
            />
          ) : null}
        </Group>
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending || update.isPending} data-testid="schedule-save">
            {schedule ? t('common.save') : t('schedules.form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
