import { SimpleGrid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/PageTitle';
import { useStoredSession } from '../../../lib/storage';
import { CompanyCard } from './CompanyCard';
import { OnlineTeamCard } from './OnlineTeamCard';

/** The route named home-dashboard: the company, its limits and the team online (live). */
export function HomeDashboardPage() {
  const { t } = useTranslation();
  const session = useStoredSession();
  const canCountUsers = session?.profile === 'admin' || session?.profile === 'superadmin';
  return (
    <>
      <PageTitle title={t('home.title')} description={t('home.subtitle')} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <CompanyCard canCountUsers={canCountUsers} />
        <OnlineTeamCard currentUserId={session?.userId} />
      </SimpleGrid>
    </>
  );
}
