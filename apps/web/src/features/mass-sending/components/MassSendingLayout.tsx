/**
 * /massa (product-spec §2 "Mass sending", agent menu and up): the sending kinds as tabs that are routes, and the
 * recent batches below them. Built now: texto and textovariavel; the spec's sms, template and template-variavel
 * tabs arrive with their sending.
 */
import { Tabs } from '@mantine/core';
import { IconBraces, IconMessage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { RecentBatches } from './RecentBatches';

export const MASS_SENDING_TABS = [
  { value: 'texto', labelKey: 'massSending.tabs.text', icon: IconMessage },
  { value: 'textovariavel', labelKey: 'massSending.tabs.variables', icon: IconBraces },
] as const;

export function MassSendingLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = pathname.split('/')[2] ?? MASS_SENDING_TABS[0].value;
  return (
    <>
      <PageTitle title={t('massSending.title')} description={t('massSending.subtitle')} />
      <Tabs value={current} onChange={(value) => value && void navigate(`/massa/${value}`)} keepMounted={false} mb="xl">
        <Tabs.List aria-label={t('massSending.tabsLabel')}>
          {MASS_SENDING_TABS.map(({ value, labelKey, icon: Icon }) => (
            <Tabs.Tab
              key={value}
              value={value}
              leftSection={<Icon size={16} aria-hidden />}
              data-testid={`mass-tab-${value}`}
            >
              {t(labelKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {/* A real tabpanel per tab: only the current one renders its route. */}
        {MASS_SENDING_TABS.map(({ value }) => (
          <Tabs.Panel key={value} value={value} pt="md">
            <Outlet />
          </Tabs.Panel>
        ))}
      </Tabs>
      <RecentBatches />
    </>
  );
}
