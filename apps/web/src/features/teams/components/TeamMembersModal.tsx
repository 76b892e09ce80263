import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Loader, Modal, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconTrash, IconUserPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TeamDto } from '@conversa/shared';
import { QueryError } from '../../../components/QueryError';
import { notifySuccess } from '../../../lib/notify';
import { useAddTeamMember, useRemoveTeamMember, useTeamMembers, useUserOptions } from '../api/teams';

/** A team's members: add a user of the tenant (a select of those not in it yet) or remove one. */
export function TeamMembersModal({ team, onClose }: { team: TeamDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={team !== null}
      onClose={onClose}
      title={team ? t('org.teams.membersTitle', { name: team.group }) : ''}
      centered
      size="lg"
    >
      {team ? <Members key={team.id} team={team} /> : null}
    </Modal>
  );
}

function Members({ team }: { team: TeamDto }) {
  const { t } = useTranslation();
  const members = useTeamMembers(team.id);
  const users = useUserOptions();
  const add = useAddTeamMember();
  const remove = useRemoveTeamMember();
  const [userId, setUserId] = useState<string | null>(null);
  const memberIds = new Set((members.data ?? []).map((member) => member.id));
  const candidates = (users.data ?? []).filter((user) => !memberIds.has(user.id));

  const addSelected = () => {
    if (!userId) return;
    add.mutate(
      { teamId: team.id, userId: Number(userId) },
      {
        onSuccess: () => {
          setUserId(null);
          notifySuccess(t('org.teams.memberAdded'));
        },
      },
    );
  };

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm" wrap="nowrap">
        <Select
          style={{ flex: 1 }}
          label={t('org.teams.addMember')}
          placeholder={t('org.teams.pickUser')}
          data={candidates.map((user) => ({ value: String(user.id), label: `${user.name} (${user.email})` }))}
          value={userId}
          onChange={setUserId}
          searchable
          nothingFoundMessage={users.isPending ? t('common.loading') : t('org.teams.noUsers')}
          comboboxProps={{ withinPortal: true }}
          data-testid="team-member-select"
        />
        <Button
          leftSection={<IconUserPlus size={16} aria-hidden />}
          onClick={addSelected}
          disabled={!userId}
          loading={add.isPending}
          data-testid="team-member-add"
        >
          {t('org.teams.add')}
        </Button>
      </Group>
      {members.isError && !members.data ? (
        <QueryError error={members.error} onRetry={() => void members.refetch()} />
      ) : members.isPending ? (
        <Group justify="center" p="md">
          <Loader size="sm" aria-label={t('common.loading')} />
        </Group>
      ) : members.data.length === 0 ? (
        <Text size="sm" c="dimmed" ta="center" p="md" data-testid="team-members-empty">
          {t('org.teams.noMembers')}
        </Text>
      ) : (
        <Table striped highlightOnHover data-testid="team-members">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('fields.name')}</Table.Th>
              <Table.Th>{t('fields.profile')}</Table.Th>
              <Table.Th>
                <span className="visually-hidden">{t('common.actions')}</span>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {members.data.map((member) => (
              <Table.Tr key={member.id} data-testid={`team-member-${member.id}`}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {member.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {member.email}
                  </Text>
                </Table.Td>
                <Table.Td w={140}>
                  <Badge variant="light" style={{ flexShrink: 0 }}>
                    {t(`profiles.${member.profile}`)}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right" w={60}>
                  <Tooltip label={t('org.teams.removeMember')}>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('org.teams.removeMemberNamed', { name: member.name })}
                      loading={remove.isPending && remove.variables.userId === member.id}
                      onClick={() => remove.mutate({ teamId: team.id, userId: member.id })}
                      data-testid={`team-member-remove-${member.id}`}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
