import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { StatusPage } from './StatusPage';

/** A screen the profile may not open (the server would answer ERR_NO_PERMISSION). */
export function NoAccess() {
  const { t } = useTranslation();
  return (
    <StatusPage
      testId="no-access"
      icon={<IconLock size={32} aria-hidden />}
      title={t('noAccess.title')}
      heading={t('noAccess.heading')}
      description={t('errors.ERR_NO_PERMISSION')}
    />
  );
}
