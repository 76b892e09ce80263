import { useState } from 'react';
import { Alert, Button, Group, Loader, SimpleGrid, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconChecks } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TICKET_PANEL_LIMIT } from '@conversa/shared';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { describeError } from '../../../lib/api';
import { dateInTimeZone, useTenantTimeZone } from '../../../lib/current-tenant';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useTicketPanel } from '../hooks/use-ticket-panel';
import { GroupCard } from './GroupCard';
import { PanelFilters } from './PanelFilters';
import { PanelSelectionBar } from './PanelSelectionBar';
import { RunModal } from './RunModal';
import { TransferModal } from './TransferModal';

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
  const panel = useTicketPanel(today);
  const { tickets, groups, groupBy, chosen, running, markAll, start } = panel;
  const [transferOpen, setTransferOpen] = useState(false);

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
      <PanelFilters
        filter={panel.filter}
        onFilterChange={panel.setFilter}
        groupBy={groupBy}
        onGroupByChange={panel.setGroupBy}
      />

      <PanelSelectionBar
        tickets={tickets.data}
        chosenCount={chosen.length}
        running={running}
        onToggle={panel.toggle}
        onClose={confirmClose}
        onTransfer={() => setTransferOpen(true)}
        onMarkRead={() => void start({ kind: 'read' })}
      />

      {tickets.data && tickets.data.length >= TICKET_PANEL_LIMIT ? (
        <Alert color="yellow" mb="md" data-testid="panel-capped">
          {t('ticketPanel.capped', { limit: TICKET_PANEL_LIMIT })}
        </Alert>
      ) : null}

      {!panel.periodValid ? null : tickets.isPending ? (
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
              selected={panel.selected}
              disabled={running}
              onToggle={panel.toggle}
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

      <RunModal run={panel.run} names={panel.names} onCancel={panel.cancelRun} onDismiss={panel.dismissRun} />
    </>
  );
}
