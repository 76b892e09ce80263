/**
 * /campanhas (product-spec §2 supervisor menu "Campaigns", §3-§5, §9): the tenant's campaigns with their counts and
 * progress, and per row edit (pending or canceled), start (with the spam warning), cancel (scheduled or
 * processing), duplicate, delete and the recipients. Live through `{T}:campaign`.
 */
import { useState, type ReactNode } from 'react';
import { ActionIcon, Alert, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import {
  IconAlertTriangle,
  IconChartBar,
  IconCopy,
  IconPencil,
  IconPlayerPlay,
  IconPlayerStop,
  IconPlus,
  IconSpeakerphone,
  IconTrash,
  IconUsers,
} from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SPAM_WARNING_PERCENT, type CampaignDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { describeError } from '../../../lib/api';
import { useTenantTimeZone } from '../../../lib/current-tenant';
import { notifyError, notifySuccess } from '../../../lib/notify';
import {
  useCampaignChannels,
  useCampaigns,
  useCampaignsLive,
  useCancelCampaign,
  useDeleteCampaign,
  useDuplicateCampaign,
  useStartCampaign,
} from '../api/campaigns';
import { formatCampaignStart } from '../campaign-dates';
import { isCancelable, isEditable } from '../campaign-rules';
import { CampaignFormModal } from './CampaignFormModal';
import { CampaignProgress, CampaignStatusBadge } from './CampaignStatus';

interface CampaignAction {
  key: 'contacts' | 'report' | 'start' | 'cancel' | 'edit' | 'duplicate' | 'delete';
  /** The tooltip (why it is disabled, when it is). */
  label: string;
  ariaLabel: string;
  icon: ReactNode;
  onClick: () => void;
  disabled?: boolean;
  color?: string;
}

export function CampaignsPage() {
  const { t } = useTranslation();
  useCampaignsLive();
  const navigate = useNavigate();
  const { timeZone } = useTenantTimeZone();
  const [editing, setEditing] = useState<{ campaign?: CampaignDto } | null>(null);
  const list = useCampaigns();
  const channels = useCampaignChannels();
  const start = useStartCampaign();
  const cancel = useCancelCampaign();
  const duplicate = useDuplicateCampaign();
  const remove = useDeleteCampaign();
  const failed = (error: unknown) => notifyError(describeError(error));
  const channelName = (id: number | null) =>
    id === null ? '' : (channels.data?.find((channel) => channel.id === id)?.name ?? `#${id}`);

  const askStart = (campaign: CampaignDto) =>
    modals.openConfirmModal({
      title: t('campaigns.startTitle'),
      children: (
        <Stack gap="sm">
          <Text size="sm">
            {t('campaigns.startConfirm', {
              name: campaign.name,
              count: campaign.contactsCount,
              start: formatCampaignStart(campaign.start, timeZone) || t('campaigns.noStart'),
            })}
          </Text>
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title={t('campaigns.spamTitle')}
            data-testid="campaign-spam-warning"
          >
            {t('campaigns.spamWarning', { percent: SPAM_WARNING_PERCENT })}
          </Alert>
        </Stack>
      ),
      labels: { confirm: t('campaigns.startAction'), cancel: t('common.cancel') },
      confirmProps: { 'data-testid': 'campaign-start-confirm' } as Record<string, unknown>,
      cancelProps: { 'data-testid': 'confirm-cancel' } as Record<string, unknown>,
      onConfirm: () =>
        start.mutate(campaign.id, { onSuccess: () => notifySuccess(t('campaigns.started')), onError: failed }),
    });

  const askCancel = (campaign: CampaignDto) =>
    confirmDelete({
      title: t('campaigns.cancelTitle'),
      message: t('campaigns.cancelConfirm', { name: campaign.name }),
      confirmLabel: t('campaigns.cancelAction'),
      cancelLabel: t('campaigns.keep'),
      onConfirm: () =>
        cancel.mutate(campaign.id, { onSuccess: () => notifySuccess(t('campaigns.canceled')), onError: failed }),
    });

  const askDelete = (campaign: CampaignDto) =>
    confirmDelete({
      title: t('campaigns.deleteTitle'),
      message: t('campaigns.deleteConfirm', { name: campaign.name }),
      onConfirm: () =>
        remove.mutate(campaign.id, { onSuccess: () => notifySuccess(t('campaigns.deleted')), onError: failed }),
    });

  const count = (value: number, testId: string) => (
    <Text size="sm" ta="right" data-testid={testId}>
      {value}
    </Text>
  );

  const columns: DataTableColumn<CampaignDto>[] = [
    {
      accessor: 'name',
      title: t('campaigns.fields.name'),
      render: (row) => (
        <Text size="sm" fw={500}>
          {row.name}
        </Text>
      ),
    },
    {
      accessor: 'start',
      title: t('campaigns.fields.start'),
      render: (row) => (
        <span data-testid={`campaign-when-${row.id}`}>
          {formatCampaignStart(row.start, timeZone) || t('campaigns.noStart')}
        </span>
      ),
    },
    { accessor: 'sessionId', title: t('campaigns.fields.session'), render: (row) => channelName(row.sessionId) },
    {
      accessor: 'status',
      title: t('campaigns.fields.status'),
      // The badge keeps its whole text: squeezed by the count columns it was cut to "PE…".
      noWrap: true,
      width: 140,
      render: (row) => <CampaignStatusBadge campaign={row} />,
    },
    {
      accessor: 'contactsCount',
      title: t('campaigns.counts.contacts'),
      textAlign: 'right',
      render: (row) => count(row.contactsCount, `campaign-recipients-${row.id}`),
    },
    {
      accessor: 'pendentesEnvio',
      title: t('campaigns.counts.pendingSend'),
      textAlign: 'right',
      render: (row) => count(row.pendentesEnvio, `campaign-pending-send-${row.id}`),
    },
    {
      accessor: 'pendentesEntrega',
      title: t('campaigns.counts.pendingDelivery'),
      textAlign: 'right',
      render: (row) => count(row.pendentesEntrega, `campaign-pending-delivery-${row.id}`),
    },
    {
      accessor: 'recebidas',
      title: t('campaigns.counts.received'),
      textAlign: 'right',
      render: (row) => count(row.recebidas, `campaign-received-${row.id}`),
    },
    {
      accessor: 'lidas',
      title: t('campaigns.counts.read'),
      textAlign: 'right',
      render: (row) => count(row.lidas, `campaign-read-${row.id}`),
    },
    {
      accessor: 'failed',
      title: t('campaigns.counts.failed'),
      textAlign: 'right',
      render: (row) => count(row.failed + row.skipped, `campaign-failed-${row.id}`),
    },
    {
      accessor: 'progress',
      title: t('campaigns.fields.progress'),
      width: 180,
      render: (row) => <CampaignProgress campaign={row} />,
    },
    {
      accessor: 'actions',
      title: <span className="visually-hidden">{t('common.actions')}</span>,
      textAlign: 'right',
      width: 262,
      render: (row) => {
        const editable = isEditable(row);
        const actions: CampaignAction[] = [
          {
            key: 'contacts',
            label: t('campaigns.contactsAction'),
            ariaLabel: t('campaigns.contactsItem', { name: row.name }),
            icon: <IconUsers size={18} aria-hidden />,
            onClick: () => void navigate(`/campanhas/${row.id}`),
          },
          {
            key: 'report',
            label: t('campaigns.report.action'),
            ariaLabel: t('campaigns.report.item', { name: row.name }),
            icon: <IconChartBar size={18} aria-hidden />,
            onClick: () => void navigate(`/campanhas/${row.id}/relatorio`),
          },
          isCancelable(row)
            ? {
                key: 'cancel',
                label: t('campaigns.cancelAction'),
                ariaLabel: t('campaigns.cancelItem', { name: row.name }),
                icon: <IconPlayerStop size={18} aria-hidden />,
                onClick: () => askCancel(row),
                color: 'orange',
              }
            : {
                key: 'start',
                label: editable ? t('campaigns.startAction') : t('campaigns.notEditable'),
                ariaLabel: t('campaigns.startItem', { name: row.name }),
                icon: <IconPlayerPlay size={18} aria-hidden />,
                onClick: () => askStart(row),
                disabled: !editable,
                color: 'teal',
              },
          {
            key: 'edit',
            label: editable ? t('common.edit') : t('campaigns.notEditable'),
            ariaLabel: t('campaigns.editItem', { name: row.name }),
            icon: <IconPencil size={18} aria-hidden />,
            onClick: () => setEditing({ campaign: row }),
            disabled: !editable,
          },
          {
            key: 'duplicate',
            label: t('campaigns.duplicateAction'),
            ariaLabel: t('campaigns.duplicateItem', { name: row.name }),
            icon: <IconCopy size={18} aria-hidden />,
            onClick: () =>
              duplicate.mutate(row.id, { onSuccess: () => notifySuccess(t('campaigns.duplicated')), onError: failed }),
          },
          {
            key: 'delete',
            label: t('common.delete'),
            ariaLabel: t('campaigns.deleteItem', { name: row.name }),
            icon: <IconTrash size={18} aria-hidden />,
            onClick: () => askDelete(row),
            color: 'red',
          },
        ];
        return (
          <Group gap={4} justify="flex-end" wrap="nowrap">
            {actions.map((action) => (
              <Tooltip key={action.key} label={action.label}>
                <ActionIcon
                  variant="subtle"
                  color={action.color}
                  aria-label={action.ariaLabel}
                  disabled={action.disabled}
                  onClick={action.onClick}
                  data-testid={`campaign-${action.key}-${row.id}`}
                >
                  {action.icon}
                </ActionIcon>
              </Tooltip>
            ))}
          </Group>
        );
      },
    },
  ];

  return (
    <>
      <PageTitle
        title={t('campaigns.title')}
        description={t('campaigns.subtitle')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({})}
            data-testid="campaigns-new"
          >
            {t('campaigns.new')}
          </Button>
        }
      />
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<CampaignDto>
          data-testid="campaigns-table"
          aria-label={t('campaigns.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.length ? undefined : 220}
          fetching={list.isFetching}
          noRecordsText={t('campaigns.empty')}
          noRecordsIcon={<IconSpeakerphone size={32} aria-hidden />}
          records={list.data ?? []}
          customRowAttributes={(row) => ({ 'data-testid': `campaign-row-${row.id}` })}
          columns={columns}
        />
      )}
      <CampaignFormModal opened={editing !== null} onClose={() => setEditing(null)} campaign={editing?.campaign} />
    </>
  );
}
