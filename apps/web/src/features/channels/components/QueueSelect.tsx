/** A queue picker of the channel form (new tickets' queue, imported tickets' queue): active queues plus the chosen one. */
import { Select, type SelectProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useQueues } from '../api/routing';

export function QueueSelect({ value, testId, ...props }: SelectProps & { testId: string }) {
  const { t } = useTranslation();
  const queues = useQueues();
  const options = (queues.data ?? [])
    .filter((queue) => queue.isActive || String(queue.id) === value)
    .map((queue) => ({ value: String(queue.id), label: queue.queue }));
  return (
    <Select
      placeholder={t('channels.form.none')}
      data={options}
      searchable
      clearable
      nothingFoundMessage={t('channels.form.nothingFound')}
      disabled={queues.isPending && !queues.isError}
      data-testid={testId}
      value={value}
      {...props}
      // After the form's props: their `error` is undefined while the field has none.
      error={props.error ?? (queues.isError ? t('channels.form.queuesError') : undefined)}
    />
  );
}
