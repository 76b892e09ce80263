/**
 * /sessoestenants (product-spec §2 Channels, superadmin): the channels of every company with name, number, status,
 * company and last update; a company filter; create, edit and delete in a company (`/whatsappTenants`). Connecting a
 * session (QR code) stays with the company, on its /sessoes screen.
 */
import { useMemo, useState } from 'react';
import { Badge, Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlugConnected, IconPlus, IconSearch } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { ChannelStatus, TenantChannelSummary } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { companyLabel, companyOptions, useCompanies } from '../../../lib/companies';
import { formatDateTime } from '../../../lib/dates';
import { notifySuccess } from '../../../lib/notify';
import { useAllTenantsChannels, useDeleteTenantChannel } from '../api/channel-tenants';
import { ChannelTenantFormModal } from './ChannelTenantFormModal';

/** A badge keeps its whole text: a narrow table cell would otherwise cut it to "ADMINI…". */
const FULL_WIDTH = { minWidth: 'max-content' } as const;

const STATUS_COLOR: Record<ChannelStatus, string> = {
  CONNECTED: 'green',
  OPENING: 'yellow',
  qrcode: 'yellow',
  PAIRING: 'yellow',
  DISCONNECTED: 'red',
  TIMEOUT: 'red',
  DESTROYED: 'red',
  CONFLICT: 'orange',
};

const folded = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

export function ChannelTenantsPage() {
  const { t } = useTranslation();
  const channels = useAllTenantsChannels();
  const companies = useCompanies();
  const remove = useDeleteTenantChannel();
  const [company, setCompany] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(folded(search.trim()), 200);
  const [editing, setEditing] = useState<{ id?: number } | null>(null);
  const names = useMemo(() => new Map((companies.data ?? []).map((c) => [c.id, c])), [companies.data]);
  const rows = useMemo(
    () =>
      (channels.data ?? [])
        .filter((c) => company === null || c.tenantId === company)
        .filter((c) => !term || folded(`${c.name} ${c.number ?? ''}`).includes(term))
        .sort((a, b) => a.tenantId - b.tenantId || a.name.localeCompare(b.name) || a.id - b.id),
    [channels.data, company, term],
  );

  const companyOf = (channel: TenantChannelSummary) => {
    const found = names.get(channel.tenantId);
    return found ? companyLabel(found) : String(channel.tenantId);
  };

  const askDelete = (channel: TenantChannelSummary) =>
    confirmDelete({
      title: t('channels.deleteTitle'),
      message: t('channelTenants.deleteConfirm', { name: channel.name, company: companyOf(channel) }),
      onConfirm: () => remove.mutate(channel.id, { onSuccess: () => notifySuccess(t('channels.deleted')) }),
    });

  return (
    <>
      <PageTitle
        title={t('channelTenants.title')}
        description={t('channelTenants.subtitle')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({})}
            data-testid="channel-tenants-new"
          >
            {t('channels.add')}
          </Button>
        }
      />
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput
          w={360}
          type="search"
          aria-label={t('channelTenants.search')}
          placeholder={t('channelTenants.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          data-testid="channel-tenants-search"
        />
        <Select
          w={280}
          aria-label={t('userTenants.companyFilter')}
          placeholder={t('userTenants.allCompanies')}
          data={companyOptions(companies.data)}
          value={company === null ? null : String(company)}
          onChange={(value) => setCompany(value ? Number(value) : null)}
          searchable
          clearable
          nothingFoundMessage={t('userTenants.noCompany')}
          data-testid="channel-tenants-company-filter"
        />
      </Group>
      {channels.isError && !channels.data ? (
        <QueryError error={channels.error} onRetry={() => void channels.refetch()} />
      ) : (
        <DataTable<TenantChannelSummary>
          data-testid="channel-tenants-table"
          aria-label={t('channelTenants.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={rows.length ? undefined : 220}
          fetching={channels.isPending}
          noRecordsText={channels.data?.length ? t('channelTenants.noResults') : t('channelTenants.empty')}
          noRecordsIcon={<IconPlugConnected size={32} aria-hidden />}
          records={rows}
          customRowAttributes={(channel) => ({
            'data-testid': `channel-tenant-row-${channel.id}`,
            'data-tenant': channel.tenantId,
          })}
          columns={[
            {
              accessor: 'name',
              title: t('channels.form.name'),
              render: (channel) => (
                <Group gap={6} wrap="nowrap">
                  <Text size="sm" fw={500}>
                    {channel.name}
                  </Text>
                  {channel.isDefault ? (
                    <Badge style={FULL_WIDTH} size="xs" variant="outline">
                      {t('channels.default')}
                    </Badge>
                  ) : null}
                </Group>
              ),
            },
            {
              accessor: 'type',
              title: t('channels.form.type'),
              render: (channel) => t(`channels.types.${channel.type}`),
            },
            {
              accessor: 'number',
              title: t('channelTenants.number'),
              render: (channel) => channel.number ?? t('channels.noNumber'),
            },
            {
              accessor: 'status',
              title: t('channelTenants.status'),
              render: (channel) => (
                <Badge
                  style={FULL_WIDTH}
                  color={STATUS_COLOR[channel.status]}
                  variant="light"
                  data-status={channel.status}
                >
                  {t(`channels.status.${channel.status}`)}
                </Badge>
              ),
            },
            {
              accessor: 'tenantId',
              title: t('userTenants.company'),
              render: (channel) => (
                <span data-testid={`channel-tenant-company-${channel.id}`}>{companyOf(channel)}</span>
              ),
            },
            {
              accessor: 'updatedAt',
              title: t('channelTenants.updatedAt'),
              render: (channel) => formatDateTime(channel.updatedAt),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 110,
              render: (channel) => (
                <RowActions
                  id={channel.id}
                  testIdPrefix="channel-tenant"
                  editLabel={t('channelTenants.editChannel', { name: channel.name })}
                  onEdit={() => setEditing({ id: channel.id })}
                  deleteLabel={t('channelTenants.deleteChannel', { name: channel.name })}
                  onDelete={() => askDelete(channel)}
                  deleteTooltip={t('common.delete')}
                />
              ),
            },
          ]}
        />
      )}
      <ChannelTenantFormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        channelId={editing?.id}
        companies={companies.data ?? []}
        defaultTenantId={company}
      />
    </>
  );
}
