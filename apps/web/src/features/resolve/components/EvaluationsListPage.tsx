import { useMemo, useState } from 'react';
import { Badge, Group, Paper, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconStar, IconStarFilled } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { EvaluationDto, RatingOption } from '@conversa/shared';
import { DayInput } from '../../../components/DayInput';
import { QueryError } from '../../../components/QueryError';
import { formatDateTime, formatNumber } from '../../../lib/dates';
import { useEvaluations, useRatingConfig } from '../api/resolve-admin';
import { agentsOf, summarize } from './evaluation-summary';

const STATUS_COLOR = { waiting: 'yellow', rated: 'teal', failed: 'gray' } as const;

function Stars({ value, label }: { value: number; label: string }) {
  return (
    <Group gap={2} wrap="nowrap">
      {/* Five stars for 1-5; 0 shows none filled. The text says it for screen readers. */}
      <Group gap={0} wrap="nowrap" aria-hidden>
        {[1, 2, 3, 4, 5].map((n) =>
          n <= value ? (
            <IconStarFilled key={n} size={14} color="var(--mantine-color-yellow-7)" />
          ) : (
            <IconStar key={n} size={14} color="var(--mantine-color-gray-6)" />
          ),
        )}
      </Group>
      <Text size="sm" ml={6}>
        {label ? `${value} · ${label}` : value}
      </Text>
    </Group>
  );
}

const labelOf = (labels: RatingOption[] | undefined, value: number) =>
  labels?.find((l) => l.rating === value)?.label ?? '';

/** /avaliacoes/listar: every rating with its ticket, contact, agent, value and date; filters; the averages. */
export function EvaluationsListPage() {
  const { t } = useTranslation();
  const [dateStart, setDateStart] = useState('');
  const [dateEnd, setDateEnd] = useState('');
  const [agent, setAgent] = useState<string | null>(null);
  const list = useEvaluations({ dateStart, dateEnd });
  const config = useRatingConfig();
  const all = useMemo(() => list.data ?? [], [list.data]);
  const shown = useMemo(() => (agent ? all.filter((e) => String(e.userId) === agent) : all), [all, agent]);
  const summary = useMemo(() => summarize(shown), [shown]);
  const labels = config.data?.rating;

  return (
    <Stack gap="md">
      <Group align="end" gap="sm" wrap="wrap">
        <DayInput
          clearable
          label={t('resolve.evaluations.dateStart')}
          value={dateStart}
          onChange={setDateStart}
          data-testid="evaluations-date-start"
        />
        <DayInput
          clearable
          label={t('resolve.evaluations.dateEnd')}
          value={dateEnd}
          onChange={setDateEnd}
          data-testid="evaluations-date-end"
        />
        <Select
          label={t('resolve.evaluations.agent')}
          placeholder={t('resolve.evaluations.allAgents')}
          data={agentsOf(all)}
          value={agent}
          onChange={setAgent}
          clearable
          searchable
          data-testid="evaluations-agent"
        />
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Paper withBorder p="md" radius="md" data-testid="evaluations-average">
          <Text size="sm" c="dimmed">
            {t('resolve.evaluations.average')}
          </Text>
          <Text fz={28} fw={700}>
            {summary.average === null ? '—' : formatNumber(Math.round(summary.average * 100) / 100)}
          </Text>
          <Text size="xs" c="dimmed">
            {t('resolve.evaluations.ratedCount', { count: summary.rated })}
          </Text>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Text size="sm" c="dimmed" mb={4}>
            {t('resolve.evaluations.perAgent')}
          </Text>
          {summary.perAgent.length === 0 ? (
            <Text size="sm">{t('resolve.evaluations.noneRated')}</Text>
          ) : (
            <Table data-testid="evaluations-per-agent" aria-label={t('resolve.evaluations.perAgent')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('resolve.evaluations.agent')}</Table.Th>
                  <Table.Th>{t('resolve.evaluations.average')}</Table.Th>
                  <Table.Th>{t('resolve.evaluations.count')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {summary.perAgent.map((a) => (
                  <Table.Tr key={a.userId ?? 'none'}>
                    <Table.Td>{a.name ?? t('resolve.evaluations.noAgent')}</Table.Td>
                    <Table.Td>{formatNumber(Math.round(a.average * 100) / 100)}</Table.Td>
                    <Table.Td>{a.count}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Paper>
      </SimpleGrid>
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<EvaluationDto>
          data-testid="evaluations-table"
          aria-label={t('resolve.evaluations.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={shown.length ? undefined : 220}
          fetching={list.isPending}
          noRecordsText={t('resolve.evaluations.empty')}
          noRecordsIcon={<IconStar size={32} aria-hidden />}
          records={shown}
          customRowAttributes={(e) => ({ 'data-testid': `evaluation-row-${e.id}` })}
          columns={[
            {
              accessor: 'ticketId',
              title: t('resolve.evaluations.ticket'),
              width: 90,
              render: (e) => `#${e.ticketId}`,
            },
            { accessor: 'contact', title: t('resolve.evaluations.contact'), render: (e) => e.ticket.contact.name },
            {
              accessor: 'user',
              title: t('resolve.evaluations.agent'),
              render: (e) => e.user?.name ?? t('resolve.evaluations.noAgent'),
            },
            {
              accessor: 'value',
              title: t('resolve.evaluations.value'),
              render: (e) =>
                e.value === null ? (
                  <Badge variant="light" color={STATUS_COLOR[e.status]}>
                    {t(`resolve.evaluations.status.${e.status}`)}
                  </Badge>
                ) : (
                  <Stars value={e.value} label={labelOf(labels, e.value)} />
                ),
            },
            {
              accessor: 'createdAt',
              title: t('resolve.evaluations.date'),
              width: 180,
              render: (e) => formatDateTime(e.createdAt),
            },
          ]}
        />
      )}
    </Stack>
  );
}
