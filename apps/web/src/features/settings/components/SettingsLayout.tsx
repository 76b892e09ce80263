import { Tabs } from '@mantine/core';
import {
  IconAdjustments,
  IconBrandMeta,
  IconBrandWhatsapp,
  IconListDetails,
  IconServer,
  IconSitemap,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';

/** /configuracoes: one tab per settings group (product-spec §2 lists the children; these exist so far). */
const TABS = [
  { value: 'geral', labelKey: 'settings.tabs.geral', icon: IconAdjustments },
  { value: 'wuzapi', labelKey: 'settings.tabs.wuzapi', icon: IconServer },
  { value: 'evolution', labelKey: 'settings.tabs.evolution', icon: IconBrandWhatsapp },
  { value: 'meta', labelKey: 'settings.tabs.meta', icon: IconBrandMeta },
  { value: 'hub', labelKey: 'settings.tabs.hub', icon: IconSitemap },
  { value: 'motivos', labelKey: 'resolve.reasons.tab', icon: IconListDetails },
] as const;

export function SettingsLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = pathname.split('/')[2] ?? 'geral';
  return (
    <>
      <PageTitle title={t('settings.title')} description={t('settings.subtitle')} />
      <Tabs
        value={current}
        onChange={(value) => value && navigate(`/configuracoes/${value}`)}
        mb="lg"
        keepMounted={false}
      >
        <Tabs.List>
          {TABS.map(({ value, labelKey, icon: Icon }) => (
            <Tabs.Tab key={value} value={value} leftSection={<Icon size={16} aria-hidden />}>
              {t(labelKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </>
  );
}
