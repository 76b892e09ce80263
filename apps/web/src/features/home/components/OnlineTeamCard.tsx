import { Avatar, Badge, Card, Group, Indicator, ScrollArea, Skeleton, Stack, Text, Title } from '@mantine/core';
import { EmptyState } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/QueryError';
import { useOnlineTeam } from '../api/home';

export function OnlineTeamCard({ currentUserId }: { currentUserId?: number }) {
  const { t } = useTranslation();
  const team = useOnlineTeam();
  const users = [...(team.data?.users ?? [])].sort(
    (a, b) => Number(b.isOnline) - Number(a.isOnline) || a.name.localeCompare(b.name),
  );
  const online = users.filter((user) => user.isOnline).length;

  return (
    <Card withBorder radius="md" padding="lg" data-testid="online-team" aria-labelledby="online-team-title">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h4" id="online-team-title">
          {t('team.title')}
        </Title>
        {team.isSuccess ? (
          <Badge variant="light" color={online ? 'teal' : 'gray'} aria-live="polite">
            {t('team.onlineCount', { online, total: users.length })}
          </Badge>
        ) : null}
      </Group>
      {team.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label={t('common.loading')}>
          {[0, 1, 2].map((i) => (
            <Group key={i} gap="sm">
              <Skeleton circle height={36} />
              <Skeleton height={12} width="50%" />
            </Group>
          ))}
        </Stack>
      ) : team.isError ? (
        <QueryError error={team.error} onRetry={() => void team.refetch()} />
      ) : users.length === 0 ? (
        <EmptyState size="sm" icon={<IconUsersGroup size={24} aria-hidden />} title={t('team.empty')} />
      ) : (
        // A long team scrolls: the region is focusable and named, so a keyboard can scroll it (axe
        // scrollable-region-focusable).
        <ScrollArea.Autosize mah={360} viewportProps={{ tabIndex: 0, role: 'region', 'aria-label': t('team.title') }}>
          <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
            {users.map((user) => (
              <Group component="li" key={user.id} gap="sm" wrap="nowrap" data-testid={`team-member-${user.id}`}>
                <Indicator
                  color={user.isOnline ? 'teal' : 'gray'}
                  offset={4}
                  position="bottom-end"
                  withBorder
                  size={10}
                >
                  <Avatar radius="xl" size={36} name={user.name} color="initials" />
                </Indicator>
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm" fw={500} truncate>
                    {user.name}
                    {user.id === currentUserId ? (
                      <Text span c="dimmed" size="xs">
                        {' '}
                        ({t('team.you')})
                      </Text>
                    ) : null}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(`profiles.${user.profile}`)}
                  </Text>
                </div>
                <Badge size="sm" variant="dot" color={user.isOnline ? 'teal' : 'gray'}>
                  {user.isOnline ? t('team.online') : t('team.offline')}
                </Badge>
              </Group>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Card>
  );
}
