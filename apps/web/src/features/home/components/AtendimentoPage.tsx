import { Anchor, Card, Grid, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconHeadset, IconUserCog } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { useStoredSession } from '../../../lib/storage';
import { OnlineTeamCard } from './OnlineTeamCard';

/**
 * The route named atendimento: the agent's start page for now. The ticket screen (conversation-core issue) replaces
 * this body with the ticket list and chat; the greeting and team list then move to its side panel.
 */
export function AtendimentoPage() {
  const { t } = useTranslation();
  const session = useStoredSession();
  const hour = new Date().getHours();
  const greeting =
    hour < 12 ? t('atendimento.morning') : hour < 18 ? t('atendimento.afternoon') : t('atendimento.evening');
  return (
    <>
      <PageTitle title={t('atendimento.title')} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Card withBorder radius="md" padding="lg">
            <Group wrap="nowrap" align="flex-start">
              <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
                <IconHeadset size={26} />
              </ThemeIcon>
              <Stack gap={6}>
                <Title order={2} size="h3" data-testid="atendimento-greeting">
                  {t('atendimento.greeting', { greeting, name: session?.username ?? '' })}
                </Title>
                <Text c="dimmed">{t('atendimento.intro')}</Text>
                <Anchor component={Link} to="/preferencias" size="sm">
                  <Group gap={4} component="span">
                    <IconUserCog size={16} aria-hidden />
                    {t('atendimento.preferencesLink')}
                  </Group>
                </Anchor>
              </Stack>
            </Group>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <OnlineTeamCard currentUserId={session?.userId} />
        </Grid.Col>
      </Grid>
    </>
  );
}
