import { Alert, Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../lib/api-error';

/** A failed load, with the catalogue text and a retry. */
export function QueryError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconAlertTriangle aria-hidden />}
      title={t('common.loadError')}
      role="alert"
    >
      {describeError(error)}
      {onRetry ? (
        <div>
          <Button variant="subtle" size="xs" mt="xs" onClick={onRetry}>
            {t('common.retry')}
          </Button>
        </div>
      ) : null}
    </Alert>
  );
}
