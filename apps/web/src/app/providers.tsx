import { useMemo, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { GlobalLoadingOverlay } from '../components/GlobalLoadingOverlay';
import { i18next } from '../lib/i18n';
import { buildTheme, cssVariablesResolver } from './theme';

/** Providers in one place: theme, toasts at the top, modals, server state, translations. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18next}>
      <LocalizedMantineProvider>
        <QueryClientProvider client={queryClient}>
          <ModalsProvider>
            <Notifications position="top-center" limit={4} zIndex={2000} />
            <GlobalLoadingOverlay />
            {children}
          </ModalsProvider>
        </QueryClientProvider>
      </LocalizedMantineProvider>
    </I18nextProvider>
  );
}

function LocalizedMantineProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const closeLabel = t('common.close');
  const theme = useMemo(() => buildTheme(closeLabel), [closeLabel]);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {children}
    </MantineProvider>
  );
}
