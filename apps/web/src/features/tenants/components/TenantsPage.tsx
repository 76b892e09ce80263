import { useState } from 'react';
import { Badge, Button } from '@mantine/core';
import { IconBuildingSkyscraper, IconPlus } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { PROTECTED_TENANT_ID, type TenantDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { formatDate, formatInteger } from '../../../lib/dates';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteTenant, useTenants } from '../api/tenants';
import { TenantFormModal } from './TenantFormModal';

export function TenantsPage() {
  const { t } = useTranslation();
  const tenants = useTenants();
  const remove = useDeleteTenant();
  const [editing, setEditing] = useState<{ tenant?: TenantDto } | null>(null);

  const askDelete = (tenant: TenantDto) =>
    confirmDelete({
      title: t('tenants.deleteTitle'),
      message: t('tenants.deleteConfirm', { name: tenant.name }),
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
                  <RowActions
                    id={tenant.id}
                    testIdPrefix="tenant"
                    editLabel={t('tenants.editTenant', { name: tenant.name })}
                    onEdit={() => setEditing({ tenant })}
                    deleteLabel={t('tenants.deleteTenant', { name: tenant.name })}
                    onDelete={() => askDelete(tenant)}
                    deleteTooltip={isProtected ? t('tenants.protected') : t('common.delete')}
                    deleteDisabled={isProtected}
                  />
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
