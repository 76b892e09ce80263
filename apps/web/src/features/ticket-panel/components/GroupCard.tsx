/** One column of the ticket panel (a queue or an agent): its counts per status, select-all, and its tickets' rows. */
import { Badge, Card, Checkbox, Group, ScrollArea, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TICKET_STATUSES, type TicketDto, type TicketStatus } from '@conversa/shared';
import { formatUnreadCount } from '../../../lib/unread-count';
import type { GroupBy, PanelGroup } from '../hooks/panel-groups';

export function GroupCard({
  group,
  groupBy,
  selected,
  disabled,
  onToggle,
}: {
  group: PanelGroup;
  groupBy: GroupBy;
  selected: Set<number>;
  disabled: boolean;
  onToggle: (ids: number[], on: boolean) => void;
}) {
  const { t } = useTranslation();
  const ids = group.tickets.map((ticket) => ticket.id);
  const count = ids.filter((id) => selected.has(id)).length;
  const name = group.name ?? (groupBy === 'queue' ? t('ticketPanel.noQueue') : t('ticketPanel.noUser'));
  const headingId = `panel-group-${group.key.replace(':', '-')}`;
  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={headingId} data-testid="panel-group">
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <Title order={2} size="h5" id={headingId}>
          {name}
        </Title>
        <Group gap={4}>
          {TICKET_STATUSES.map((status) => (
            <Badge key={status} variant="light" color={STATUS_COLOR[status]} title={t(`tickets.status.${status}`)}>
              {t(`tickets.status.${status}`)}: {group.counts[status]}
            </Badge>
          ))}
        </Group>
      </Group>
      <Checkbox
        label={t('ticketPanel.selectGroup', { name, count: ids.length })}
        checked={count === ids.length}
        indeterminate={count > 0 && count < ids.length}
        disabled={disabled}
        onChange={(event) => onToggle(ids, event.currentTarget.checked)}
        mb="xs"
        data-testid="panel-group-select"
      />
      <ScrollArea.Autosize mah={320} tabIndex={0} aria-label={t('ticketPanel.ticketsOf', { name })}>
        <Stack gap={6}>
          {group.tickets.map((ticket) => (
            <TicketRow
              key={ticket.id}
              ticket={ticket}
              groupBy={groupBy}
              checked={selected.has(ticket.id)}
              disabled={disabled}
              onToggle={onToggle}
            />
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Card>
  );
}

const STATUS_COLOR: Record<TicketStatus, string> = { open: 'blue', pending: 'orange', closed: 'gray' };

function TicketRow({
  ticket,
  groupBy,
  checked,
  disabled,
  onToggle,
}: {
  ticket: TicketDto;
  groupBy: GroupBy;
  checked: boolean;
  disabled: boolean;
  onToggle: (ids: number[], on: boolean) => void;
}) {
  const { t } = useTranslation();
  const other =
    groupBy === 'queue' ? (ticket.username ?? t('ticketPanel.noUser')) : (ticket.queue ?? t('ticketPanel.noQueue'));
  return (
    <Group gap="xs" wrap="nowrap" justify="space-between">
      <Checkbox
        checked={checked}
        disabled={disabled}
        onChange={(event) => onToggle([ticket.id], event.currentTarget.checked)}
        label={`#${ticket.id} · ${ticket.contact?.name ?? ticket.name ?? ''}`}
        description={other}
        data-testid={`panel-ticket-${ticket.id}`}
      />
      <Group gap={4} wrap="nowrap">
        {ticket.unreadMessages > 0 ? (
          <Badge
            size="sm"
            color="red"
            variant="filled"
            title={t('ticketPanel.unread')}
            aria-label={t('tickets.unreadBadge', { count: ticket.unreadMessages })}
            data-testid={`panel-unread-${ticket.id}`}
          >
            {formatUnreadCount(ticket.unreadMessages)}
          </Badge>
        ) : null}
        <Badge size="sm" variant="light" color={STATUS_COLOR[ticket.status]}>
          {t(`tickets.status.${ticket.status}`)}
        </Badge>
      </Group>
    </Group>
  );
}
