/**
 * /usuariotenants (product-spec §2 "users per tenant"): the superadmin's users of every company, with the company as a
 * column and a filter, and the form that creates a company's users (its admin first) or moves one to another company.
 */
import { useMemo, useState } from 'react';
import { Badge, Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconUsers } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { USERS_PAGE_SIZE } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { notifySuccess } from '../../../lib/notify';
import { useStoredSession } from '../../../lib/storage';
import { companyOptions as toCompanyOptions, useCompanies } from '../../../lib/companies';
import { useDeleteUserTenant, useUserTenantsList, type UserTenantDto } from '../api/user-tenants';
import { PROFILE_COLORS } from './profile-colors';
import { UserTenantFormModal } from './UserTenantFormModal';

/** A badge keeps its whole text: a narrow table cell would otherwise cut it to "ADMINI…". */
const FULL_WIDTH = { minWidth: 'max-content' } as const;

export function UserTenantsPage() {
  const { t } = useTranslation();
  const session = useStoredSession();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 400);
  const [page, setPage] = useState(1);
  const [company, setCompany] = useState<number | null>(null);
  const [editing, setEditing] = useState<{ user?: UserTenantDto } | null>(null);
  const list = useUserTenantsList(debouncedSearch, page, company);
  const companies = useCompanies();
  const remove = useDeleteUserTenant();
  const companyOptions = useMemo(() => toCompanyOptions(companies.data), [companies.data]);

  const askDelete = (user: UserTenantDto) =>
    confirmDelete({
      title: t('users.deleteTitle'),
      message: t('userTenants.deleteConfirm', { name: user.name, company: user.tenant.name }),
      onConfirm: () =>
        remove.mutate({ id: user.id, tenantId: user.tenantId }, { onSuccess: () => notifySuccess(t('users.deleted')) }),
    });

  return (
    <>
      <PageTitle
        title={t('userTenants.title')}
        description={t('userTenants.subtitle')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({})}
            data-testid="users-new"
          >
            {t('users.new')}
          </Button>
        }
      />
      <Group mb="md" align="flex-end" wrap="wrap">
        <TextInput
          w={360}
          type="search"
          aria-label={t('users.search')}
          placeholder={t('users.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          data-testid="users-search"
        />
        <Select
          w={280}
          aria-label={t('userTenants.companyFilter')}
          placeholder={t('userTenants.allCompanies')}
          data={companyOptions}
          value={company === null ? null : String(company)}
          onChange={(value) => {
            setCompany(value ? Number(value) : null);
            setPage(1);
          }}
          searchable
          clearable
          nothingFoundMessage={t('userTenants.noCompany')}
          data-testid="users-company-filter"
        />
      </Group>
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<UserTenantDto>
          data-testid="users-table"
          aria-label={t('userTenants.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.users.length ? undefined : 220}
          fetching={list.isFetching}
          loadingText={t('common.loading')}
          noRecordsText={debouncedSearch || company !== null ? t('users.noResults') : t('users.empty')}
          noRecordsIcon={<IconUsers size={32} aria-hidden />}
          records={list.data?.users ?? []}
          totalRecords={list.data?.count ?? 0}
          recordsPerPage={USERS_PAGE_SIZE}
          page={page}
          onPageChange={setPage}
          paginationText={({ from, to, totalRecords }) => t('common.pagination', { from, to, total: totalRecords })}
          customRowAttributes={(user) => ({ 'data-testid': `user-row-${user.id}`, 'data-tenant': user.tenantId })}
          columns={[
            {
              accessor: 'tenant',
              title: t('userTenants.company'),
              render: (user) => (
                <Text size="sm" data-testid={`user-company-${user.id}`}>
                  {user.tenant.id} · {user.tenant.name}
                </Text>
              ),
            },
            {
              accessor: 'name',
              title: t('fields.name'),
              render: (user) => (
                <Group gap={6} wrap="nowrap">
                  <Text size="sm" fw={500}>
                    {user.name}
                  </Text>
                  {user.id === session?.userId ? (
                    <Badge style={FULL_WIDTH} size="xs" variant="outline">
                      {t('team.you')}
                    </Badge>
                  ) : null}
                </Group>
              ),
            },
            { accessor: 'email', title: t('fields.email') },
            {
              accessor: 'profile',
              title: t('fields.profile'),
              render: (user) => (
                <Badge style={FULL_WIDTH} variant="light" color={PROFILE_COLORS[user.profile]}>
                  {t(`profiles.${user.profile}`)}
                </Badge>
              ),
            },
            {
              accessor: 'isOnline',
              title: t('users.status'),
              render: (user) => (
                <Badge style={FULL_WIDTH} variant="dot" color={user.isOnline ? 'teal' : 'gray'}>
                  {user.isOnline ? t('team.online') : t('team.offline')}
                </Badge>
              ),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 110,
              render: (user) => (
                <RowActions
                  id={user.id}
                  testIdPrefix="user"
                  editLabel={t('users.editUser', { name: user.name })}
                  onEdit={() => setEditing({ user })}
                  deleteLabel={t('users.deleteUser', { name: user.name })}
                  onDelete={() => askDelete(user)}
                  deleteTooltip={user.id === session?.userId ? t('users.cannotDeleteSelf') : t('common.delete')}
                  deleteDisabled={user.id === session?.userId}
                />
              ),
            },
          ]}
        />
      )}
      <UserTenantFormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        user={editing?.user}
        companies={companies.data ?? []}
        defaultTenantId={company}
        currentUserId={session?.userId ?? 0}
      />
    </>
  );
}
