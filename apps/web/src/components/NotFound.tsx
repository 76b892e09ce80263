import { IconMapSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { StatusPage } from './StatusPage';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <StatusPage
      testId="not-found"
      icon={<IconMapSearch size={32} aria-hidden />}
      title={t('notFound.title')}
      heading={t('notFound.heading')}
      description={t('notFound.description')}
    />
  );
}
