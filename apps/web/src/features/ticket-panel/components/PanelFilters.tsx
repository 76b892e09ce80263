/** The ticket panel's filters bar: the period, the queues, the statuses (at least one stays on) and the grouping. */
import { Card, Chip, Group, MultiSelect, SegmentedControl, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TICKET_STATUSES, type TicketStatus } from '@conversa/shared';
import { DayInput } from '../../../components/DayInput';
import { usePanelQueues, type PanelFilter } from '../api/panel';
import type { GroupBy } from '../hooks/panel-groups';

export function PanelFilters({
  filter,
  onFilterChange: setFilter,
  groupBy,
  onGroupByChange: setGroupBy,
}: {
  filter: PanelFilter;
  onFilterChange: (filter: PanelFilter) => void;
  groupBy: GroupBy;
  onGroupByChange: (groupBy: GroupBy) => void;
}) {
  const { t } = useTranslation();
  const queues = usePanelQueues();
  return (
    <Card withBorder radius="md" padding="md" mb="md" component="section" aria-label={t('ticketPanel.filters')}>
      <Group align="flex-end" gap="md" wrap="wrap">
        <DayInput
          label={t('ticketPanel.dateStart')}
          value={filter.dateStart}
          onChange={(dateStart) => setFilter({ ...filter, dateStart })}
          error={!filter.dateStart ? t('validation.required', { attribute: t('ticketPanel.dateStart') }) : undefined}
          data-testid="panel-date-start"
        />
        <DayInput
          label={t('ticketPanel.dateEnd')}
          value={filter.dateEnd}
          onChange={(dateEnd) => setFilter({ ...filter, dateEnd })}
          error={
            !filter.dateEnd
              ? t('validation.required', { attribute: t('ticketPanel.dateEnd') })
              : filter.dateStart > filter.dateEnd
                ? t('ticketPanel.periodInvalid')
                : undefined
          }
          data-testid="panel-date-end"
        />
        <MultiSelect
          label={t('ticketPanel.queues')}
          placeholder={filter.queuesIds.length === 0 ? t('ticketPanel.allQueues') : undefined}
          data={(queues.data ?? []).map((queue) => ({ value: String(queue.id), label: queue.queue }))}
          value={filter.queuesIds.map(String)}
          onChange={(values) => setFilter({ ...filter, queuesIds: values.map(Number) })}
          clearable
          searchable
          miw={220}
          data-testid="panel-queues"
        />
        <div>
          <Text size="sm" fw={500} mb={4} id="panel-status-label">
            {t('ticketPanel.status')}
          </Text>
          <Chip.Group
            multiple
            value={filter.status}
            onChange={(values) =>
              setFilter({ ...filter, status: values.length > 0 ? (values as TicketStatus[]) : filter.status })
            }
          >
            <Group gap="xs" role="group" aria-labelledby="panel-status-label">
              {TICKET_STATUSES.map((status) => (
                <Chip key={status} value={status} data-testid={`panel-status-${status}`}>
                  {t(`tickets.status.${status}`)}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </div>
        <SegmentedControl
          aria-label={t('ticketPanel.groupBy')}
          value={groupBy}
          onChange={(value) => setGroupBy(value as GroupBy)}
          data={[
            { value: 'queue', label: t('ticketPanel.byQueue') },
            { value: 'user', label: t('ticketPanel.byUser') },
          ]}
          data-testid="panel-group-by"
        />
      </Group>
    </Card>
  );
}
