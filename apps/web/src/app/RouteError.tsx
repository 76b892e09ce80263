import { Button, Center, EmptyState } from '@mantine/core';
import { IconRefresh, IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** A route that failed: usually a chunk that did not load in time, or a network cut. The retry reloads the page. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (import.meta.env.DEV) console.error(error);
  return (
    <Center mih="60vh" p="md" role="alert">
      <EmptyState
        icon={<IconPlugConnectedX size={32} aria-hidden />}
        variant="light"
        color="yellow"
        title={t('routeError.title')}
        description={t('routeError.description')}
      >
        <EmptyState.Actions>
          <Button
            leftSection={<IconRefresh size={16} aria-hidden />}
            onClick={() => window.location.reload()}
            data-testid="route-retry"
          >
            {t('common.retry')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Center>
  );
}
