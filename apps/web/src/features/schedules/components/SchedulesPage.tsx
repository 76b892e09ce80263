/**
 * /agendamentos (product-spec §2 supervisor menu "Schedules"): the tenant's scheduled messages, paged, with edit and
 * cancel for pending ones and a create form (contact, channel, text, date shortcuts, recurrence).
 */
import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconCalendarTime, IconPencil, IconPlus, IconX } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { ScheduledMessageDto, ScheduleStatus } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { ScheduleFormModal } from '../../../components/ScheduleFormModal';
import { describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  formatScheduleDate,
  SCHEDULES_PAGE_SIZE,
  useCancelSchedule,
  useSchedules,
  useSchedulesLive,
} from '../../../lib/schedules';

export const STATUS_COLORS: Record<ScheduleStatus, string> = {
  pending: 'blue',
  sending: 'cyan',
  sent: 'teal',
  canceled: 'gray',
  failed: 'red',
};

export function SchedulesPage() {
  const { t } = useTranslation();
  useSchedulesLive();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<{ schedule?: ScheduledMessageDto } | null>(null);
  const list = useSchedules({ page, rowsPerPage: SCHEDULES_PAGE_SIZE });
  const cancel = useCancelSchedule();

  const confirmCancel = (schedule: ScheduledMessageDto) =>
    confirmDelete({
      title: t('schedules.cancelTitle'),
      message: t('schedules.cancelConfirm', { name: schedule.contactName }),
      confirmLabel: t('schedules.cancelAction'),
      cancelLabel: t('schedules.keep'),
      onConfirm: () =>
        cancel.mutate(schedule.id, {
          onSuccess: () => notifySuccess(t('schedules.canceled')),
          onError: (error) => notifyError(describeError(error)),
        }),
    });

  return (
    <>
      <PageTitle
        title={t('schedules.title')}
        description={t('schedules.subtitle')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({})}
            data-testid="schedules-new"
          >
            {t('schedules.new')}
          </Button>
        }
      />
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<ScheduledMessageDto>
          data-testid="schedules-table"
          aria-label={t('schedules.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.messages.length ? undefined : 220}
          fetching={list.isFetching}
          loadingText={t('common.loading')}
          noRecordsText={t('schedules.empty')}
          noRecordsIcon={<IconCalendarTime size={32} aria-hidden />}
          records={list.data?.messages ?? []}
          totalRecords={list.data?.total ?? 0}
          recordsPerPage={SCHEDULES_PAGE_SIZE}
          page={page}
          onPageChange={setPage}
          paginationText={({ from, to, totalRecords }) => t('common.pagination', { from, to, total: totalRecords })}
          customRowAttributes={(row) => ({ 'data-testid': `schedule-row-${row.id}` })}
          columns={[
            {
              accessor: 'contactName',
              title: t('schedules.fields.contact'),
              render: (row) => (
                <Text size="sm" fw={500}>
                  {row.contactName}
                </Text>
              ),
            },
            {
              accessor: 'body',
              title: t('schedules.fields.message'),
              render: (row) => (
                <Text size="sm" lineClamp={2} maw={420}>
                  {row.body || row.mediaName}
                </Text>
              ),
            },
            {
              accessor: 'scheduleDate',
              title: t('schedules.fields.date'),
              render: (row) => (
                <span data-testid={`schedule-date-${row.id}`}>{formatScheduleDate(row.scheduleDate)}</span>
              ),
            },
            {
              accessor: 'recurrenceDays',
              title: t('schedules.fields.recurrence'),
              render: (row) =>
                row.recurrenceDays
                  ? t('schedules.recurrence.everyLeft', { count: row.recurrenceDays, left: row.repetitionsLeft })
                  : t('schedules.recurrence.none'),
            },
            {
              accessor: 'user',
              title: t('schedules.fields.user'),
              render: (row) => row.user?.name ?? '',
            },
            {
              accessor: 'status',
              title: t('schedules.fields.status'),
              width: 140,
              render: (row) => (
                <Badge variant="light" color={STATUS_COLORS[row.status]} data-testid={`schedule-status-${row.id}`}>
                  {t(`schedules.status.${row.status}`)}
                </Badge>
              ),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 100,
              render: (row) =>
                row.status === 'pending' ? (
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Tooltip label={t('common.edit')}>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('schedules.editFor', { name: row.contactName })}
                        onClick={() => setEditing({ schedule: row })}
                        data-testid={`schedule-edit-${row.id}`}
                      >
                        <IconPencil size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={t('schedules.cancelAction')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('schedules.cancelFor', { name: row.contactName })}
                        onClick={() => confirmCancel(row)}
                        data-testid={`schedule-cancel-${row.id}`}
                      >
                        <IconX size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                ) : null,
            },
          ]}
        />
      )}
      <ScheduleFormModal opened={editing !== null} onClose={() => setEditing(null)} schedule={editing?.schedule} />
    </>
  );
}
