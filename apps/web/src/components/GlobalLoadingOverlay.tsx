import { LoadingOverlay } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useGlobalLoading } from '../lib/loading';

/** The page-wide overlay for slow requests (see lib/loading.ts for the timing rule). */
export function GlobalLoadingOverlay() {
  const visible = useGlobalLoading();
  const { t } = useTranslation();
  return (
    <>
      <LoadingOverlay
        visible={visible}
        pos="fixed"
        zIndex={1000}
        overlayProps={{ blur: 1, backgroundOpacity: 0.25 }}
        data-testid="global-loading"
      />
      <div role="status" aria-live="polite" className="visually-hidden">
        {visible ? t('common.loading') : ''}
      </div>
    </>
  );
}
