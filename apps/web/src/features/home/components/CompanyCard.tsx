import { Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconBuilding } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { QueryError } from '../../../components/QueryError';
import { useCurrentTenant } from '../../../lib/current-tenant';
import { formatDate, formatInteger } from '../../../lib/dates';
import { useUsersCount } from '../api/home';

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}

export function CompanyCard({ canCountUsers }: { canCountUsers: boolean }) {
  const { t } = useTranslation();
  const tenant = useCurrentTenant();
  const usersCount = useUsersCount(canCountUsers);
  const count = usersCount.data;

  return (
    <Card withBorder radius="md" padding="lg" data-testid="company-card" aria-labelledby="company-card-title">
      <Group justify="space-between" mb="md" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <IconBuilding size={20} aria-hidden />
          <Title order={2} size="h4" id="company-card-title">
            {t('home.company')}
          </Title>
        </Group>
        {tenant.data ? (
          <Badge color={tenant.data.status === 'active' ? 'teal' : 'red'} variant="light">
            {t(`tenants.status.${tenant.data.status}`)}
          </Badge>
        ) : null}
      </Group>
      {tenant.isPending ? (
        <Stack gap="sm" aria-busy="true" aria-label={t('common.loading')}>
          <Skeleton height={20} width="60%" />
          <Skeleton height={48} />
        </Stack>
      ) : tenant.isError ? (
        <QueryError error={tenant.error} onRetry={() => void tenant.refetch()} />
      ) : !tenant.data ? (
        <Text c="dimmed">{t('home.noCompany')}</Text>
      ) : (
        <Stack gap="md">
          <div>
            <Text fw={600} size="lg" data-testid="company-name">
              {tenant.data.name}
            </Text>
            <Text size="xs" c="dimmed">
              {t('home.since', { date: formatDate(tenant.data.createdAt) })}
            </Text>
          </div>
          <SimpleGrid cols={{ base: 1, xs: 3 }}>
            <Stat
              label={t('home.users')}
              testId="company-users"
              value={
                !canCountUsers || count === undefined
                  ? `— / ${formatInteger(tenant.data.maxUsers)}`
                  : `${formatInteger(count)} / ${formatInteger(tenant.data.maxUsers)}`
              }
            />
            <Stat
              label={t('home.maxConnections')}
              testId="company-connections"
              value={formatInteger(tenant.data.maxConnections)}
            />
            <Stat
              label={t('home.trial')}
              testId="company-trial"
              value={
                tenant.data.trial === 'enabled'
                  ? t('home.trialDays', { count: tenant.data.trialPeriod })
                  : t('common.no')
              }
            />
          </SimpleGrid>
        </Stack>
      )}
    </Card>
  );
}
