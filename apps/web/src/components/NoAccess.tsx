import { Button, EmptyState } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from './PageTitle';

/** A screen the profile may not open (the server would answer ERR_NO_PERMISSION). */
export function NoAccess() {
  const { t } = useTranslation();
  return (
    <div data-testid="no-access">
      <PageTitle title={t('noAccess.title')} />
      <EmptyState
        icon={<IconLock size={32} aria-hidden />}
        variant="light"
        title={t('noAccess.heading')}
        description={t('errors.ERR_NO_PERMISSION')}
      >
        <EmptyState.Actions>
          <Button component={Link} to="/">
            {t('notFound.back')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </div>
  );
}
