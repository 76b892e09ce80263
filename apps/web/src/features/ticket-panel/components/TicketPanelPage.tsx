import { useMemo, useRef, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Chip,
  Group,
  Loader,
  Modal,
  MultiSelect,
  Progress,
  ScrollArea,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconArrowsExchange, IconChecks, IconCircleCheck, IconMailOpened } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TICKET_PANEL_LIMIT, TICKET_STATUSES, type TicketDto, type TicketStatus } from '@conversa/shared';
import { DayInput } from '../../../components/DayInput';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { describeError } from '../../../lib/api';
import { dateInTimeZone, useTenantTimeZone } from '../../../lib/current-tenant';
import { queryKeys } from '../../../lib/query-keys';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { formatUnreadCount } from '../../../lib/unread-count';
import {
  applyToTicket,
  useMarkAllRead,
  usePanelQueues,
  usePanelTickets,
  usePanelUsers,
  type MassAction,
  type PanelFilter,
} from '../api/panel';
import { runInBatches, type BatchProgress } from '../hooks/batch-runner';
import { groupTickets, usersForQueue, type GroupBy, type PanelGroup } from '../hooks/panel-groups';

interface RunState extends BatchProgress {
  action: MassAction['kind'];
  running: boolean;
  cancelled: boolean;
  /** Cancel was asked: the running batch finishes, no other starts. */
  stopping: boolean;
}

/**
 * `/painel-atendimentos` (admin): the period's tickets by queue or agent, with mass actions run in batches of 10.
 * The period defaults to today in the tenant's zone, the zone the server reads the dates in: an agent whose browser
 * is elsewhere (or past midnight UTC) would otherwise open an empty panel.
 */
export function TicketPanelPage() {
  const { t } = useTranslation();
  const zone = useTenantTimeZone();
  if (!zone.settled) return <Loader aria-label={t('common.loading')} />;
  return <TicketPanel today={dateInTimeZone(zone.timeZone)} />;
}

function TicketPanel({ today }: { today: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [filter, setFilter] = useState<PanelFilter>(() => ({
    dateStart: today,
    dateEnd: today,
    queuesIds: [],
    status: ['open', 'pending'],
  }));
  const [groupBy, setGroupBy] = useState<GroupBy>('queue');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [run, setRun] = useState<RunState | null>(null);
  const [transferOpen, setTransferOpen] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const periodValid = Boolean(filter.dateStart && filter.dateEnd && filter.dateStart <= filter.dateEnd);
  const tickets = usePanelTickets(filter, periodValid);
  const queues = usePanelQueues();
  const markAll = useMarkAllRead();
  const groups = useMemo(() => groupTickets(tickets.data ?? [], groupBy), [tickets.data, groupBy]);
  const visibleIds = useMemo(() => new Set((tickets.data ?? []).map((ticket) => ticket.id)), [tickets.data]);
  const chosen = [...selected].filter((id) => visibleIds.has(id));
  const names = useMemo(
    () => new Map((tickets.data ?? []).map((ticket) => [ticket.id, ticket.contact?.name ?? ticket.name ?? ''])),
    [tickets.data],
  );

  const toggle = (ids: number[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });

  async function start(action: MassAction) {
    const ids = chosen;
    if (ids.length === 0) return;
    const controller = new AbortController();
    abort.current = controller;
    setRun({
      action: action.kind,
      running: true,
      cancelled: false,
      stopping: false,
      done: 0,
      total: ids.length,
      results: [],
    });
    const outcome = await runInBatches(ids, (id) => applyToTicket(id, action), {
      signal: controller.signal,
      describeError,
      onProgress: (progress) => setRun((current) => (current ? { ...current, ...progress } : current)),
    });
    setRun((current) => (current ? { ...current, ...outcome, running: false } : current));
    setSelected(new Set(outcome.results.filter((result) => !result.ok).map((result) => result.id)));
    void queryClient.invalidateQueries({ queryKey: queryKeys.ticketsAll });
  }

  const confirmClose = () =>
    modals.openConfirmModal({
      title: t('ticketPanel.closeTitle'),
      children: <Text size="sm">{t('ticketPanel.closeConfirm', { count: chosen.length })}</Text>,
      labels: { confirm: t('ticketPanel.actions.close'), cancel: t('common.cancel') },
      confirmProps: { 'data-testid': 'panel-confirm-close' } as Record<string, unknown>,
      onConfirm: () => void start({ kind: 'close' }),
    });

  const confirmMarkAll = () =>
    modals.openConfirmModal({
      title: t('ticketPanel.markAllTitle'),
      children: <Text size="sm">{t('ticketPanel.markAllConfirm')}</Text>,
      labels: { confirm: t('ticketPanel.actions.markAllRead'), cancel: t('common.cancel') },
      onConfirm: () =>
        markAll.mutate(undefined, {
          onSuccess: ({ count }) => notifySuccess(t('ticketPanel.markedAll', { count })),
          onError: (error) => notifyError(describeError(error)),
        }),
    });

  const running = run?.running ?? false;
  const none = chosen.length === 0 || running;

  return (
    <>
      <PageTitle
        title={t('ticketPanel.title')}
        description={t('ticketPanel.subtitle')}
        actions={
          <Button
            variant="default"
            leftSection={<IconChecks size={16} aria-hidden />}
            loading={markAll.isPending}
            onClick={confirmMarkAll}
            data-testid="panel-mark-all-read"
          >
            {t('ticketPanel.actions.markAllRead')}
          </Button>
        }
      />
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

      <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
        <Text size="sm" aria-live="polite" data-testid="panel-selected">
          {t('ticketPanel.selected', { count: chosen.length, total: tickets.data?.length ?? 0 })}
        </Text>
        <Group gap="xs">
          <Button
            size="sm"
            variant="default"
            disabled={(tickets.data?.length ?? 0) === 0 || running}
            onClick={() =>
              toggle(
                (tickets.data ?? []).map((ticket) => ticket.id),
                chosen.length !== (tickets.data?.length ?? 0),
              )
            }
            data-testid="panel-select-all"
          >
            {chosen.length === (tickets.data?.length ?? 0) && chosen.length > 0
              ? t('ticketPanel.clearSelection')
              : t('ticketPanel.selectAll')}
          </Button>
          <Button
            size="sm"
            leftSection={<IconCircleCheck size={16} aria-hidden />}
            disabled={none}
            onClick={confirmClose}
            data-testid="panel-action-close"
          >
            {t('ticketPanel.actions.close')}
          </Button>
          <Button
            size="sm"
            variant="light"
            leftSection={<IconArrowsExchange size={16} aria-hidden />}
            disabled={none}
            onClick={() => setTransferOpen(true)}
            data-testid="panel-action-transfer"
          >
            {t('ticketPanel.actions.transfer')}
          </Button>
          <Button
            size="sm"
            variant="light"
            leftSection={<IconMailOpened size={16} aria-hidden />}
            disabled={none}
            onClick={() => void start({ kind: 'read' })}
            data-testid="panel-action-read"
          >
            {t('ticketPanel.actions.markRead')}
          </Button>
        </Group>
      </Group>

      {tickets.data && tickets.data.length >= TICKET_PANEL_LIMIT ? (
        <Alert color="yellow" mb="md" data-testid="panel-capped">
          {t('ticketPanel.capped', { limit: TICKET_PANEL_LIMIT })}
        </Alert>
      ) : null}

      {!periodValid ? null : tickets.isPending ? (
        <Group justify="center" p="xl" aria-busy="true">
          <Loader size="sm" aria-label={t('common.loading')} />
        </Group>
      ) : tickets.isError ? (
        <QueryError error={tickets.error} onRetry={() => void tickets.refetch()} />
      ) : groups.length === 0 ? (
        <Text c="dimmed" ta="center" p="xl" data-testid="panel-empty">
          {t('ticketPanel.empty')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md" data-testid="panel-groups">
          {groups.map((group) => (
            <GroupCard
              key={group.key}
              group={group}
              groupBy={groupBy}
              selected={selected}
              disabled={running}
              onToggle={toggle}
            />
          ))}
        </SimpleGrid>
      )}

      <TransferModal
        opened={transferOpen}
        count={chosen.length}
        onClose={() => setTransferOpen(false)}
        onConfirm={(queueId, userId) => {
          setTransferOpen(false);
          void start({ kind: 'transfer', queueId, userId });
        }}
      />

      <Modal
        opened={run !== null}
        onClose={() => {
          if (!running) setRun(null);
        }}
        withCloseButton={!running}
        closeOnClickOutside={!running}
        closeOnEscape={!running}
        title={run ? t(`ticketPanel.running.${run.action}`) : ''}
        centered
        size="lg"
      >
        {run ? (
          <Stack data-testid="panel-run">
            <Progress
              value={run.total === 0 ? 0 : (run.done / run.total) * 100}
              aria-label={t('ticketPanel.progress', { done: run.done, total: run.total })}
              animated={running}
            />
            <Text size="sm" aria-live="polite" data-testid="panel-run-progress">
              {t('ticketPanel.progress', { done: run.done, total: run.total })}
              {run.cancelled ? ` · ${t('ticketPanel.cancelled')}` : ''}
            </Text>
            <ScrollArea.Autosize mah={280} tabIndex={0} aria-label={t('ticketPanel.results')}>
              <Table striped withTableBorder data-testid="panel-results">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('ticketPanel.ticket')}</Table.Th>
                    <Table.Th>{t('ticketPanel.result')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {run.results.map((result) => (
                    <Table.Tr key={result.id} data-testid={`panel-result-${result.id}`}>
                      <Table.Td>
                        #{result.id}
                        {names.get(result.id) ? ` · ${names.get(result.id)}` : ''}
                      </Table.Td>
                      <Table.Td>
                        {result.ok ? (
                          <Badge color="green" variant="light">
                            {t('ticketPanel.ok')}
                          </Badge>
                        ) : (
                          <Text size="sm" c="red.8">
                            {result.error}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollArea.Autosize>
            <Group justify="flex-end">
              {running ? (
                <Button
                  variant="default"
                  color="red"
                  disabled={run.stopping}
                  onClick={() => {
                    abort.current?.abort();
                    setRun((current) => (current ? { ...current, stopping: true } : current));
                  }}
                  data-testid="panel-run-cancel"
                >
                  {t('ticketPanel.cancel')}
                </Button>
              ) : (
                <Button onClick={() => setRun(null)} data-testid="panel-run-close">
                  {t('common.close')}
                </Button>
              )}
            </Group>
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}

function GroupCard({
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

function TransferModal({
  opened,
  count,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  count: number;
  onClose: () => void;
  onConfirm: (queueId: number | null, userId: number | null) => void;
}) {
  const { t } = useTranslation();
  const queues = usePanelQueues();
  const users = usePanelUsers();
  const [queueId, setQueueId] = useState<string | null>(null);
  const [userId, setUserId] = useState<string | null>(null);
  const queue = queueId ? Number(queueId) : null;
  const allowed = usersForQueue(users.data ?? [], queue);
  const userValid = userId === null || allowed.some((user) => String(user.id) === userId);
  const valid = (queueId !== null || userId !== null) && userValid;
  return (
    <Modal opened={opened} onClose={onClose} title={t('ticketPanel.transferTitle', { count })} centered>
      <Stack>
        <Select
          label={t('ticketPanel.transferQueue')}
          data={(queues.data ?? []).map((q) => ({ value: String(q.id), label: q.queue }))}
          value={queueId}
          onChange={setQueueId}
          clearable
          searchable
          data-testid="panel-transfer-queue"
        />
        <Select
          label={t('ticketPanel.transferUser')}
          description={queue ? t('ticketPanel.transferUserHelp') : undefined}
          data={allowed.map((user) => ({ value: String(user.id), label: user.name }))}
          value={userId}
          onChange={setUserId}
          clearable
          searchable
          error={userValid ? undefined : t('ticketPanel.userWithoutQueue')}
          nothingFoundMessage={t('ticketPanel.noUsersForQueue')}
          data-testid="panel-transfer-user"
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            disabled={!valid}
            onClick={() => onConfirm(queue, userId ? Number(userId) : null)}
            data-testid="panel-transfer-confirm"
          >
            {t('ticketPanel.actions.transfer')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
