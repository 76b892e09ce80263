/** A batch's status badge and its progress bar (processed of total numbers), shared by the card and the list. */
import { Badge, Group, Progress, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { BulkBatchDto, BulkBatchStatus } from '../api/bulk';

const STATUS_COLORS: Record<BulkBatchStatus, string> = {
  processing: 'orange',
  finished: 'teal',
  canceled: 'gray',
};

/** Processed (sent, failed or skipped) of every number of the batch. */
export function batchProgress(batch: Pick<BulkBatchDto, 'total' | 'pendentesEnvio'>) {
  const { total } = batch;
  const processed = Math.min(total, Math.max(0, total - batch.pendentesEnvio));
  return { processed, total, percent: total > 0 ? Math.round((processed / total) * 100) : 0 };
}

export function BatchStatusBadge({ batch, testId }: { batch: Pick<BulkBatchDto, 'status'>; testId: string }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={STATUS_COLORS[batch.status]} data-testid={testId}>
      {t(`massSending.status.${batch.status}`)}
    </Badge>
  );
}

/** Mantine's bar is the `progressbar` (aria-valuenow is the percentage); its name says processed of total. */
interface BatchProgressBarProps {
  batch: BulkBatchDto;
  size?: string;
  /** Grows to fill a row (the list's cell); in a column (the card) it keeps its own height. */
  grow?: boolean;
  testId: string;
}

export function BatchProgressBar({ batch, size = 'md', grow = false, testId }: BatchProgressBarProps) {
  const { t } = useTranslation();
  const { processed, total, percent } = batchProgress(batch);
  return (
    <Progress
      value={percent}
      size={size}
      radius="sm"
      flex={grow ? 1 : undefined}
      color={batch.status === 'finished' ? 'teal' : batch.status === 'canceled' ? 'gray' : 'indigo'}
      aria-label={t('massSending.progress.label', { id: batch.id, processed, total, percent })}
      data-testid={testId}
    />
  );
}

/** The bar with `processed/total` beside it (the list's column). */
export function BatchProgressCell({ batch }: { batch: BulkBatchDto }) {
  const { processed, total } = batchProgress(batch);
  return (
    <Group gap="xs" wrap="nowrap" miw={140}>
      <BatchProgressBar batch={batch} grow testId={`bulk-row-progress-${batch.id}`} />
      <Text size="xs" c="dimmed" aria-hidden>
        {processed}/{total}
      </Text>
    </Group>
  );
}
