import { useState } from 'react';
import { Badge, Button, Group, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconUsers } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { USERS_PAGE_SIZE, type UserDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { notifySuccess } from '../../../lib/notify';
import { useStoredSession } from '../../../lib/storage';
import { useDeleteUser, useUsersList } from '../api/users';
import { PROFILE_COLORS } from './profile-colors';
import { UserFormModal } from './UserFormModal';

/** /usuarios: the company's users. A superadmin manages every company's at /usuariotenants (product-spec §2). */
/** A badge keeps its whole text: a narrow table cell would otherwise cut it to "ADMINI…". */
const FULL_WIDTH = { minWidth: 'max-content' } as const;

export function UsersPage() {
  const session = useStoredSession();
  if (session?.profile === 'superadmin') return <Navigate to="/usuariotenants" replace />;
  return <CompanyUsersPage />;
}

function CompanyUsersPage() {
  const { t } = useTranslation();
  const session = useStoredSession();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 400);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<{ user?: UserDto } | null>(null);
  const list = useUsersList(debouncedSearch, page);
  const remove = useDeleteUser();

  const askDelete = (user: UserDto) =>
    confirmDelete({
      title: t('users.deleteTitle'),
      message: t('users.deleteConfirm', { name: user.name }),
      onConfirm: () => remove.mutate(user.id, { onSuccess: () => notifySuccess(t('users.deleted')) }),
    });

  return (
    <>
      <PageTitle
        title={t('users.title')}
        description={t('users.subtitle')}
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
      <TextInput
        mb="md"
        maw={420}
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
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<UserDto>
          data-testid="users-table"
          aria-label={t('users.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.users.length ? undefined : 220}
          fetching={list.isFetching}
          loadingText={t('common.loading')}
          noRecordsText={debouncedSearch ? t('users.noResults') : t('users.empty')}
          noRecordsIcon={<IconUsers size={32} aria-hidden />}
          records={list.data?.users ?? []}
          totalRecords={list.data?.count ?? 0}
          recordsPerPage={USERS_PAGE_SIZE}
          page={page}
          onPageChange={setPage}
          paginationText={({ from, to, totalRecords }) => t('common.pagination', { from, to, total: totalRecords })}
          customRowAttributes={(user) => ({ 'data-testid': `user-row-${user.id}` })}
          columns={[
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
      <UserFormModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        user={editing?.user}
        currentUserId={session?.userId ?? 0}
        currentProfile={session?.profile ?? 'user'}
      />
    </>
  );
}
