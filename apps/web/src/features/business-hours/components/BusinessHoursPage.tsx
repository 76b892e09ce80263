import { useEffect, useState } from 'react';
import { Alert, Badge, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isWithinBusinessHours, type BusinessHoursDay } from '@conversa/shared';
import { PageTitle } from '../../../components/PageTitle';
import { QueryError } from '../../../components/QueryError';
import { useTenantTimeZone } from '../../../lib/current-tenant';
import { useStoredSession } from '../../../lib/storage';
import { useBusinessHours } from '../api/business-hours';
import { AbsenceMessageForm } from './AbsenceMessageForm';
import { WeekForm } from './WeekForm';

/**
 * /horario-atendimento: the tenant's week and absence message (client-contract §15). Supervisors and admins open it;
 * only admins may write (the server answers 403 to others), so supervisors see it read-only.
 */
export function BusinessHoursPage() {
  const { t } = useTranslation();
  const session = useStoredSession();
  const readOnly = session?.profile !== 'admin';
  const query = useBusinessHours();

  return (
    <>
      <PageTitle title={t('businessHours.title')} description={t('businessHours.subtitle')} />
      {query.isError && !query.data ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : !query.data ? (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : (
        <Stack gap="md">
          {readOnly ? (
            <Alert variant="light" icon={<IconInfoCircle aria-hidden />} data-testid="bh-read-only">
              {t('businessHours.readOnly')}
            </Alert>
          ) : null}
          <OpenNow days={query.data.businessHours} />
          {/* Each form starts again from what the server stored when that part changes (a save, another admin). */}
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="bh-week-title">
            <Title order={2} size="h4" mb="sm" id="bh-week-title">
              {t('businessHours.weekTitle')}
            </Title>
            <WeekForm
              key={JSON.stringify(query.data.businessHours)}
              stored={query.data.businessHours}
              readOnly={readOnly}
            />
          </Paper>
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="bh-message-title">
            <Title order={2} size="h4" mb="sm" id="bh-message-title">
              {t('businessHours.message.title')}
            </Title>
            <AbsenceMessageForm
              key={query.data.messageBusinessHours}
              stored={query.data.messageBusinessHours}
              readOnly={readOnly}
            />
          </Paper>
        </Stack>
      )}
    </>
  );
}

const NOW_REFRESH_MS = 30_000;

/**
 * Whether the saved week says "open" right now, in the tenant's zone (the one the server decides absence messages
 * in), named beside it; the browser's zone only until the tenant has loaded.
 */
function OpenNow({ days }: { days: BusinessHoursDay[] }) {
  const { t } = useTranslation();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), NOW_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const { timeZone } = useTenantTimeZone();
  const open = isWithinBusinessHours(days, timeZone, now);
  return (
    <Group gap="xs" data-testid="bh-now">
      <Text size="sm" fw={500}>
        {t('businessHours.now.label')}
      </Text>
      <Badge variant="light" color={open ? 'teal' : 'gray'} data-testid="bh-now-state">
        {open ? t('businessHours.now.open') : t('businessHours.now.closed')}
      </Badge>
      <Text size="sm" c="dimmed">
        {t('businessHours.now.hint', { timeZone })}
      </Text>
    </Group>
  );
}
