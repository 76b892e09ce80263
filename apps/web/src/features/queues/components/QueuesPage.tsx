import { useState } from 'react';
import { Badge, Button, Text } from '@mantine/core';
import { IconArrowsSplit, IconPlus } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { QueueDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteQueue, useQueueList } from '../api/queues';
import { QueueFormModal } from './QueueFormModal';

/** /filas: the tenant's queues (supervisors and admins). Changes by others arrive over `{T}:queue`. */
export function QueuesPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ queue?: QueueDto } | null>(null);
  const list = useQueueList();
  const remove = useDeleteQueue();

  const askDelete = (queue: QueueDto) =>
    confirmDelete({
      title: t('org.queues.deleteTitle'),
      message: t('org.queues.deleteConfirm', { name: queue.queue }),
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
              accessor: 'distribution',
              title: t('org.queues.distribution'),
              width: 180,
              render: (queue) => (
                <Text size="sm" data-testid={`queue-distribution-${queue.id}`}>
                  {t(`distribution.${queue.distribution}`)}
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
                <RowActions
                  id={queue.id}
                  testIdPrefix="queue"
                  editLabel={t('org.queues.editItem', { name: queue.queue })}
                  onEdit={() => setEditing({ queue })}
                  deleteLabel={t('org.queues.deleteItem', { name: queue.queue })}
                  onDelete={() => askDelete(queue)}
                />
              ),
            },
          ]}
        />
      )}
      <QueueFormModal opened={editing !== null} onClose={() => setEditing(null)} queue={editing?.queue} />
    </>
  );
}
