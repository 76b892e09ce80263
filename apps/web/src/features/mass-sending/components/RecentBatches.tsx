/**
 * "Recent batches": the caller's batches (GET /bulk/, newest first) with their creation on the company's clock, the
 * channel, the count of numbers, the progress and the status; an empty state, a loading state and a retry on error.
 */
import { useId } from 'react';
import { Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/QueryError';
import { useTenantTimeZone } from '../../../lib/current-tenant';
import { useBulkBatches, useBulkChannels, type BulkBatchDto } from '../api/bulk';
import { formatCompanyDateTime } from '../../../lib/wall-clock';
import { BatchProgressCell, BatchStatusBadge } from './BatchStatus';

export function RecentBatches() {
  const { t } = useTranslation();
  const titleId = useId();
  const list = useBulkBatches();
  const channels = useBulkChannels();
  const { timeZone } = useTenantTimeZone();
  // A deleted connection leaves the batch without one.
  const channelName = (id: number | null) =>
    id === null ? '—' : (channels.data?.find((channel) => channel.id === id)?.name ?? `#${id}`);

  const columns: DataTableColumn<BulkBatchDto>[] = [
    {
      accessor: 'createdAt',
      title: t('massSending.recent.createdAt'),
      noWrap: true,
      render: (row) => (
        <span data-testid={`bulk-row-created-${row.id}`}>{formatCompanyDateTime(row.createdAt, timeZone)}</span>
      ),
    },
    { accessor: 'channelId', title: t('massSending.recent.channel'), render: (row) => channelName(row.channelId) },
    { accessor: 'total', title: t('massSending.recent.total'), textAlign: 'right' },
    {
      accessor: 'progress',
      title: t('massSending.recent.progress'),
      width: 220,
      render: (row) => <BatchProgressCell batch={row} />,
    },
    {
      accessor: 'status',
      title: t('massSending.recent.status'),
      noWrap: true,
      width: 140,
      render: (row) => <BatchStatusBadge batch={row} testId={`bulk-row-status-${row.id}`} />,
    },
  ];

  return (
    <section aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId} mb="sm">
        {t('massSending.recent.title')}
      </Title>
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<BulkBatchDto>
          data-testid="bulk-recent-table"
          aria-labelledby={titleId}
          withTableBorder
          borderRadius="md"
          minHeight={list.data?.length ? undefined : 180}
          fetching={list.isPending}
          loaderBackgroundBlur={1}
          noRecordsText={t('massSending.recent.empty')}
          noRecordsIcon={<IconSend size={32} aria-hidden />}
          records={list.data ?? []}
          customRowAttributes={(row) => ({ 'data-testid': `bulk-row-${row.id}` })}
          columns={columns}
        />
      )}
    </section>
  );
}
