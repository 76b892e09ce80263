/**
 * The batch just sent: its status, a progress bar (processed = total - pendentesEnvio, of total), the counts and,
 * while it is processing, a cancel button. GET /bulk/{id} is read every 2 s while the batch is processing and no more
 * once it is finished or canceled.
 */
import { useId } from 'react';
import { Button, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlayerStop } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/QueryError';
import { confirmDelete } from '../../../components/confirmDelete';
import { ApiError, describeError } from '../../../lib/api';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useBulkBatch, useCancelBulk, type BulkBatchDto } from '../api/bulk';
import { batchProgress, BatchProgressBar, BatchStatusBadge } from './BatchStatus';

/**
 * The counts of a batch's numbers. A sent number is one whose message left (awaiting delivery, or delivered);
 * delivered includes read, as the campaigns' counts do.
 */
const countsOf = (batch: BulkBatchDto) =>
  [
    ['sent', batch.pendentesEntrega + batch.recebidas],
    ['delivered', batch.recebidas],
    ['read', batch.lidas],
    ['failed', batch.failed],
    ['skipped', batch.skipped],
  ] as const;

export function BatchProgressCard({ batchId }: { batchId: number }) {
  const { t } = useTranslation();
  const titleId = useId();
  const query = useBulkBatch(batchId);
  const cancel = useCancelBulk();
  const batch = query.data;

  if (!batch) {
    return query.isError ? (
      <QueryError error={query.error} onRetry={() => void query.refetch()} />
    ) : (
      <Loader aria-label={t('common.loading')} />
    );
  }

  const { processed, total, percent } = batchProgress(batch);
  const askCancel = () =>
    confirmDelete({
      title: t('massSending.progress.cancelTitle'),
      message: t('massSending.progress.cancelConfirm', { id: batch.id }),
      confirmLabel: t('massSending.progress.cancel'),
      cancelLabel: t('massSending.progress.keep'),
      onConfirm: () =>
        cancel.mutate(batch.id, {
          onSuccess: () => notifySuccess(t('massSending.progress.canceled')),
          onError: (error) => {
            if (!(error instanceof ApiError && error.notified)) notifyError(describeError(error));
          },
        }),
    });

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      maw={760}
      component="section"
      aria-labelledby={titleId}
      data-testid="bulk-progress-card"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={2} size="h4" id={titleId}>
            {t('massSending.progress.title', { id: batch.id })}
          </Title>
          <BatchStatusBadge batch={batch} testId="bulk-progress-status" />
        </Group>
        <BatchProgressBar batch={batch} size="lg" testId="bulk-progress-bar" />
        <Text size="sm" aria-live="polite" data-testid="bulk-progress-text">
          {t('massSending.progress.text', { processed, total, percent })}
          {batch.status === 'processing' ? '' : ` · ${t(`massSending.status.${batch.status}`)}`}
        </Text>
        <SimpleGrid cols={{ base: 2, sm: 5 }} spacing="sm" component="dl" m={0}>
          {countsOf(batch).map(([key, value]) => (
            <div key={key}>
              <Text component="dt" size="xs" c="dimmed">
                {t(`massSending.progress.counts.${key}`)}
              </Text>
              <Text component="dd" m={0} fw={600} size="lg" data-testid={`bulk-count-${key}`}>
                {value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
        {batch.status === 'processing' ? (
          <Group justify="flex-end">
            <Button
              variant="light"
              color="red"
              leftSection={<IconPlayerStop size={16} aria-hidden />}
              loading={cancel.isPending}
              onClick={askCancel}
              data-testid="bulk-progress-cancel"
            >
              {t('massSending.progress.cancel')}
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Paper>
  );
}
