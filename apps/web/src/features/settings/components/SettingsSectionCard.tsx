/**
 * A settings section read from the server: its card with title and description, a skeleton while the read runs, the
 * read's error with a retry, then the section's form with the loaded data.
 */
import type { ReactNode } from 'react';
import { Card, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/QueryError';

export function SettingsSectionCard<T>({
  id,
  title,
  description,
  query,
  loadingTestId,
  children,
}: {
  /** The section heading's id (the card is labelled by it). */
  id: string;
  title: string;
  description: string;
  query: UseQueryResult<T>;
  loadingTestId: string;
  children: (data: NonNullable<T>) => ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id}>
        {title}
      </Title>
      <Text size="sm" c="dimmed" mt={4} mb="md">
        {description}
      </Text>
      {query.isPending ? (
        <Stack aria-busy="true" aria-label={t('common.loading')} data-testid={loadingTestId}>
          <Skeleton height={60} />
          <Skeleton height={36} width={120} />
        </Stack>
      ) : query.isError || query.data == null ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        children(query.data)
      )}
    </Card>
  );
}
