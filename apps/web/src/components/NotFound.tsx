import { Button, EmptyState } from '@mantine/core';
import { IconMapSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageTitle } from './PageTitle';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <div data-testid="not-found">
      <PageTitle title={t('notFound.title')} />
      <EmptyState
        icon={<IconMapSearch size={32} aria-hidden />}
        variant="light"
        title={t('notFound.heading')}
        description={t('notFound.description')}
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
