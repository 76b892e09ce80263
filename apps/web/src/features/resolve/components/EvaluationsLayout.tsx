import { Tabs } from '@mantine/core';
import { IconAdjustmentsStar, IconList } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';

const TABS = [
  { value: 'listar', labelKey: 'resolve.evaluations.tabs.list', icon: IconList },
  { value: 'configurar', labelKey: 'resolve.evaluations.tabs.config', icon: IconAdjustmentsStar },
] as const;

/** /avaliacoes (supervisors and admins): the ratings received, and their configuration. */
export function EvaluationsLayout() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = pathname.split('/')[2] ?? 'listar';
  return (
    <>
      <PageTitle title={t('resolve.evaluations.title')} description={t('resolve.evaluations.subtitle')} />
      <Tabs value={current} onChange={(v) => v && navigate(`/avaliacoes/${v}`)} mb="lg" keepMounted={false}>
        <Tabs.List>
          {TABS.map(({ value, labelKey, icon: Icon }) => (
            <Tabs.Tab
              key={value}
              value={value}
              leftSection={<Icon size={16} aria-hidden />}
              data-testid={`evaluations-tab-${value}`}
            >
              {t(labelKey)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </>
  );
}
