import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowsSplit, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { QueueDto } from '@conversa/shared';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteQueue, useQueueList } from '../api/queues';
import { QueueFormModal } from './QueueFormModal';

/** /filas: the tenant's queues (supervisors and admins). Changes by others arrive over `{T}:queue`. */
export function QueuesPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ queue?: QueueDto } | null>(null);
  const list = useQueueList();
  const remove = useDeleteQueue();

  const confirmDelete = (queue: QueueDto) =>
    modals.openConfirmModal({
      title: t('org.queues.deleteTitle'),
      children: <Text size="sm">{t('org.queues.deleteConfirm', { name: queue.queue })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      cancelProps: { 'data-testid': 'confirm-cancel' } as Record<string, unknown>,
      onConfirm: () => remove.mutate(queue.id, { onSuccess: () => notifySuccess(t('org.queues.deleted')) }),
    });

  return (
    <>
      <PageTitle
        title={t('org.queues.title')}
        description={t('org.queues.subtitle')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({})}
            data-testid="queues-new"
          >
            {t('org.queues.new')}
          </Button>
        }
      />
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<QueueDto>
          data-testid="queues-table"
          aria-label={t('org.queues.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.length ? undefined : 220}
          fetching={list.isPending}
          noRecordsText={t('org.queues.empty')}
          noRecordsIcon={<IconArrowsSplit size={32} aria-hidden />}
          records={list.data ?? []}
          customRowAttributes={(queue) => ({ 'data-testid': `queue-row-${queue.id}` })}
          columns={[
            {
              accessor: 'queue',
              title: t('org.queues.name'),
              render: (queue) => (
                <Text size="sm" fw={500}>
                  {queue.queue}
                </Text>
              ),
            },
            {
              accessor: 'isActive',
              title: t('org.status'),
              width: 140,
              render: (queue) => (
                <Badge variant="light" color={queue.isActive ? 'teal' : 'gray'}>
                  {queue.isActive ? t('org.active') : t('org.inactive')}
                </Badge>
              ),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 110,
              render: (queue) => (
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  <Tooltip label={t('common.edit')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('org.queues.editItem', { name: queue.queue })}
                      onClick={() => setEditing({ queue })}
                      data-testid={`queue-edit-${queue.id}`}
                    >
                      <IconPencil size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label={t('common.delete')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('org.queues.deleteItem', { name: queue.queue })}
                      onClick={() => confirmDelete(queue)}
                      data-testid={`queue-delete-${queue.id}`}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              ),
            },
          ]}
        />
      )}
      <QueueFormModal opened={editing !== null} onClose={() => setEditing(null)} queue={editing?.queue} />
    </>
  );
}
