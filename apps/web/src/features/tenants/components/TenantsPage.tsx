import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Text, Tooltip } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconBuildingSkyscraper, IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { PROTECTED_TENANT_ID, type TenantDto } from '@conversa/shared';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { formatDate, formatInteger } from '../../../lib/dates';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteTenant, useTenants } from '../api/tenants';
import { TenantFormModal } from './TenantFormModal';

export function TenantsPage() {
  const { t } = useTranslation();
  const tenants = useTenants();
  const remove = useDeleteTenant();
  const [editing, setEditing] = useState<{ tenant?: TenantDto } | null>(null);

  const confirmDelete = (tenant: TenantDto) =>
    modals.openConfirmModal({
      title: t('tenants.deleteTitle'),
      children: <Text size="sm">{t('tenants.deleteConfirm', { name: tenant.name })}</Text>,
      labels: { confirm: t('common.delete'), cancel: t('common.cancel') },
      confirmProps: { color: 'red', 'data-testid': 'confirm-delete' } as Record<string, unknown>,
      cancelProps: { 'data-testid': 'confirm-cancel' } as Record<string, unknown>,
      onConfirm: () => remove.mutate(tenant.id, { onSuccess: () => notifySuccess(t('tenants.deleted')) }),
    });

  return (
    <>
      <PageTitle
        title={t('tenants.title')}
        description={t('tenants.subtitle')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({})}
            data-testid="tenants-new"
          >
            {t('tenants.new')}
          </Button>
        }
      />
      {tenants.isError ? (
        <QueryError error={tenants.error} onRetry={() => void tenants.refetch()} />
      ) : (
        <DataTable<TenantDto>
          data-testid="tenants-table"
          aria-label={t('tenants.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={tenants.data?.length ? undefined : 220}
          fetching={tenants.isPending}
          noRecordsText={t('tenants.empty')}
          noRecordsIcon={<IconBuildingSkyscraper size={32} aria-hidden />}
          records={tenants.data ?? []}
          customRowAttributes={(tenant) => ({ 'data-testid': `tenant-row-${tenant.id}` })}
          columns={[
            { accessor: 'id', title: '#', width: 60 },
            { accessor: 'name', title: t('fields.name') },
            {
              accessor: 'status',
              title: t('tenants.statusLabel'),
              render: (tenant) => (
                <Badge variant="light" color={tenant.status === 'active' ? 'teal' : 'red'}>
                  {t(`tenants.status.${tenant.status}`)}
                </Badge>
              ),
            },
            {
              accessor: 'maxUsers',
              title: t('tenants.maxUsers'),
              textAlign: 'right',
              render: (x) => formatInteger(x.maxUsers),
            },
            {
              accessor: 'maxConnections',
              title: t('tenants.maxConnections'),
              textAlign: 'right',
              render: (x) => formatInteger(x.maxConnections),
            },
            {
              accessor: 'trial',
              title: t('tenants.trial'),
              render: (x) => (x.trial === 'enabled' ? t('home.trialDays', { count: x.trialPeriod }) : t('common.no')),
            },
            { accessor: 'createdAt', title: t('tenants.createdAt'), render: (x) => formatDate(x.createdAt) },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 110,
              render: (tenant) => {
                const isProtected = tenant.id === PROTECTED_TENANT_ID;
                return (
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <Tooltip label={t('common.edit')}>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('tenants.editTenant', { name: tenant.name })}
                        onClick={() => setEditing({ tenant })}
                        data-testid={`tenant-edit-${tenant.id}`}
                      >
                        <IconPencil size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                    <Tooltip label={isProtected ? t('tenants.protected') : t('common.delete')}>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('tenants.deleteTenant', { name: tenant.name })}
                        disabled={isProtected}
                        onClick={() => confirmDelete(tenant)}
                        data-testid={`tenant-delete-${tenant.id}`}
                      >
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                );
              },
            },
          ]}
        />
      )}
      <TenantFormModal opened={editing !== null} onClose={() => setEditing(null)} tenant={editing?.tenant} />
    </>
  );
}
