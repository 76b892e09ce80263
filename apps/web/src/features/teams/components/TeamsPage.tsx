import { useState } from 'react';
import { Badge, Button, Text } from '@mantine/core';
import { IconPlus, IconUsers, IconUsersGroup } from '@tabler/icons-react';
import { DataTable } from 'mantine-datatable';
import { useTranslation } from 'react-i18next';
import type { TeamDto } from '@conversa/shared';
import { confirmDelete } from '../../../components/confirmDelete';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { RowActions } from '../../../components/RowActions';
import { notifySuccess } from '../../../lib/notify';
import { useDeleteTeam, useTeamList } from '../api/teams';
import { TeamFormModal } from './TeamFormModal';
import { TeamMembersModal } from './TeamMembersModal';

/** /equipes: the tenant's teams (supervisors and admins), their active flag and members. */
export function TeamsPage() {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<{ team?: TeamDto } | null>(null);
  const [membersOf, setMembersOf] = useState<TeamDto | null>(null);
  const list = useTeamList();
  const remove = useDeleteTeam();

  const askDelete = (team: TeamDto) =>
    confirmDelete({
      title: t('org.teams.deleteTitle'),
      message: t('org.teams.deleteConfirm', { name: team.group }),
      onConfirm: () => remove.mutate(team.id, { onSuccess: () => notifySuccess(t('org.teams.deleted')) }),
    });

  return (
    <>
      <PageTitle
        title={t('org.teams.title')}
        description={t('org.teams.subtitle')}
        actions={
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setEditing({})}
            data-testid="teams-new"
          >
            {t('org.teams.new')}
          </Button>
        }
      />
      {list.isError && !list.data ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <DataTable<TeamDto>
          data-testid="teams-table"
          aria-label={t('org.teams.title')}
          withTableBorder
          borderRadius="md"
          highlightOnHover
          minHeight={list.data?.length ? undefined : 220}
          fetching={list.isPending}
          noRecordsText={t('org.teams.empty')}
          noRecordsIcon={<IconUsersGroup size={32} aria-hidden />}
          records={list.data ?? []}
          customRowAttributes={(team) => ({ 'data-testid': `team-row-${team.id}` })}
          columns={[
            {
              accessor: 'group',
              title: t('org.teams.name'),
              render: (team) => (
                <Text size="sm" fw={500}>
                  {team.group}
                </Text>
              ),
            },
            {
              accessor: 'isActive',
              title: t('org.status'),
              width: 140,
              render: (team) => (
                <Badge variant="light" color={team.isActive ? 'teal' : 'gray'}>
                  {team.isActive ? t('org.active') : t('org.inactive')}
                </Badge>
              ),
            },
            {
              accessor: 'users',
              title: t('org.teams.members'),
              width: 140,
              render: (team) => (
                <Text size="sm" data-testid={`team-count-${team.id}`}>
                  {t('org.teams.memberCount', { count: team.users.length })}
                </Text>
              ),
            },
            {
              accessor: 'actions',
              title: <span className="visually-hidden">{t('common.actions')}</span>,
              textAlign: 'right',
              width: 150,
              render: (team) => (
                <RowActions
                  id={team.id}
                  testIdPrefix="team"
                  extra={[
                    {
                      label: t('org.teams.members'),
                      ariaLabel: t('org.teams.membersOf', { name: team.group }),
                      icon: <IconUsers size={18} aria-hidden />,
                      onClick: () => setMembersOf(team),
                      testId: 'members',
                    },
                  ]}
                  editLabel={t('org.teams.editItem', { name: team.group })}
                  onEdit={() => setEditing({ team })}
                  deleteLabel={t('org.teams.deleteItem', { name: team.group })}
                  onDelete={() => askDelete(team)}
                />
              ),
            },
          ]}
        />
      )}
      <TeamFormModal opened={editing !== null} onClose={() => setEditing(null)} team={editing?.team} />
      <TeamMembersModal team={membersOf} onClose={() => setMembersOf(null)} />
    </>
  );
}
