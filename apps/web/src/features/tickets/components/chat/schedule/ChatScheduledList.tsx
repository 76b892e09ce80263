/** The ticket's pending scheduled messages above the composer: a collapsible list with edit and cancel. */
import { useState } from 'react';
import { ActionIcon, Box, Collapse, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconCalendarTime, IconChevronDown, IconChevronUp, IconPencil, IconRepeat, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ScheduledMessageDto } from '@conversa/shared';
import { ScheduleFormModal } from '../../../../../components/ScheduleFormModal';
import { describeError } from '../../../../../lib/api';
import { notifyError, notifySuccess } from '../../../../../lib/notify';
import { formatScheduleDate, useCancelSchedule, useSchedules, useSchedulesLive } from '../../../../../lib/schedules';

export function ChatScheduledList({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation();
  useSchedulesLive();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<ScheduledMessageDto | null>(null);
  const list = useSchedules({ page: 1, rowsPerPage: 50, ticketId, status: 'pending' });
  const cancel = useCancelSchedule();
  const pending = [...(list.data?.messages ?? [])].sort((a, b) => a.scheduleDate.localeCompare(b.scheduleDate));
  if (pending.length === 0) return null;

  const confirmCancel = (schedule: ScheduledMessageDto) =>
    modals.openConfirmModal({
      title: t('schedules.cancelTitle'),
      children: <Text size="sm">{t('schedules.cancelConfirm', { name: schedule.contactName })}</Text>,
      labels: { confirm: t('schedules.cancelAction'), cancel: t('schedules.keep') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      onConfirm: () =>
        cancel.mutate(schedule.id, {
          onSuccess: () => notifySuccess(t('schedules.canceled')),
          onError: (error) => notifyError(describeError(error)),
        }),
    });

  return (
    <Box miw={0} flex={1} data-testid="chat-scheduled">
      <UnstyledButton
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
        aria-controls="chat-scheduled-list"
        data-testid="chat-scheduled-toggle"
      >
        <Group gap={6}>
          <IconCalendarTime size={16} aria-hidden />
          <Text size="sm" fw={500}>
            {t('schedules.chat.pending', { count: pending.length })}
          </Text>
          {open ? <IconChevronUp size={14} aria-hidden /> : <IconChevronDown size={14} aria-hidden />}
        </Group>
      </UnstyledButton>
      <Collapse expanded={open} id="chat-scheduled-list">
        <Stack
          gap={4}
          mt={4}
          mah={180}
          style={{ overflowY: 'auto' }}
          tabIndex={0}
          aria-label={t('schedules.chat.list')}
        >
          {pending.map((item) => (
            <Group
              key={item.id}
              gap="xs"
              wrap="nowrap"
              justify="space-between"
              data-testid={`chat-scheduled-${item.id}`}
            >
              <Box miw={0}>
                <Group gap={4}>
                  <Text size="xs" c="dimmed">
                    {formatScheduleDate(item.scheduleDate)}
                  </Text>
                  {item.recurrenceDays ? (
                    <Tooltip
                      label={t('schedules.recurrence.everyLeft', {
                        count: item.recurrenceDays,
                        left: item.repetitionsLeft,
                      })}
                    >
                      <IconRepeat
                        size={12}
                        aria-label={t('schedules.recurrence.every', { count: item.recurrenceDays })}
                      />
                    </Tooltip>
                  ) : null}
                </Group>
                <Text size="sm" truncate>
                  {item.body || item.mediaName}
                </Text>
              </Box>
              <Group gap={2} wrap="nowrap">
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  aria-label={t('schedules.chat.edit', { date: formatScheduleDate(item.scheduleDate) })}
                  onClick={() => setEditing(item)}
                  data-testid={`chat-scheduled-edit-${item.id}`}
                >
                  <IconPencil size={16} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant="subtle"
                  size="sm"
                  color="red"
                  aria-label={t('schedules.chat.cancel', { date: formatScheduleDate(item.scheduleDate) })}
                  onClick={() => confirmCancel(item)}
                  data-testid={`chat-scheduled-cancel-${item.id}`}
                >
                  <IconX size={16} aria-hidden />
                </ActionIcon>
              </Group>
            </Group>
          ))}
        </Stack>
      </Collapse>
      <ScheduleFormModal opened={editing !== null} onClose={() => setEditing(null)} schedule={editing ?? undefined} />
    </Box>
  );
}
